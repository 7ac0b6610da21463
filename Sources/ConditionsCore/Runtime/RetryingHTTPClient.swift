import ConditionsHTTP
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// Repeats a GET when the upstream says it is briefly unable to answer, so one hiccup does
/// not fail a report; how often and on which statuses is the request's `HTTPRetry` (by default
/// once, on 429, 502, 503 or 504).
///
/// Only what is safe to repeat is repeated: GET requests (no side effects), answered with one
/// of the request's retry statuses, or with the connection closed before a single byte of
/// response arrived (once). Each repeat waits for `Retry-After` (seconds or an HTTP date) when
/// the server sends one no longer than `maximumWait`, else for `backoff`, doubled on every
/// repeat; a longer `Retry-After` is not waited for: the response is returned as is and its
/// error says when to retry. A request costs at most 1 + `HTTPRetry.attempts` attempts, each
/// within its source's timeout, plus the waits.
struct RetryingHTTPClient: HTTPClient {
    let base: any HTTPClient
    let logger: Logger
    /// The longest `Retry-After` honoured, in seconds.
    var maximumWait = 5.0
    /// The first wait without a usable `Retry-After`, in seconds; doubled on every repeat.
    var backoff = 0.5
    /// How a wait is spent; tests record waits instead of sleeping.
    var sleep: @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method.uppercased() == "GET" else { return try await base.send(request) }
        var response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch let error as HTTPError where Self.closedWithoutAnswer(error) {
            logger.info("retrying after \(Self.shown(backoff)) s: \(error.message)")
            try await sleep(backoff)
            response = try await base.send(request)
        }
        var wait = backoff
        for attempt in 0..<request.retry.attempts {
            guard request.retry.statuses.contains(response.status) else { return response }
            let requested = response.headers["retry-after"].flatMap { Self.seconds(retryAfter: $0, now: Date()) }
            if let requested, requested > maximumWait {
                logger.info("not retrying HTTP \(response.status) from \(Redaction.redact(request.url)): Retry-After \(Int(requested.rounded())) s exceeds \(Self.shown(maximumWait)) s")
                return response
            }
            let pause = requested ?? wait
            logger.info("retrying HTTP \(response.status) from \(Redaction.redact(request.url)) after \(Self.shown(pause)) s (\(attempt + 1) of \(request.retry.attempts))")
            try await sleep(pause)
            response = try await base.send(request)
            wait *= 2
        }
        return response
    }

    private static func shown(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? String(Int(seconds)) : String(seconds)
    }

    /// The connection closed before any response byte: the request was never answered, so
    /// repeating it cannot repeat an effect.
    static func closedWithoutAnswer(_ error: HTTPError) -> Bool {
        if case .transport(_, let detail) = error { return detail == CurlHTTPClient.closedWithoutAnswer }
        return false
    }

    /// The wait `Retry-After` asks for: delta-seconds, or an HTTP date relative to `now`
    /// (never negative); nil when the value is neither.
    static func seconds(retryAfter value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            return Double(text.prefix(10)) // beyond ten digits it is "too long" either way
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
