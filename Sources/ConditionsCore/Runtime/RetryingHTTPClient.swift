import ConditionsHTTP
import ConditionsKit
import Foundation
import Logging

/// Retries a GET once when the upstream says it is briefly unable to answer, so one hiccup
/// does not fail a report.
///
/// Only what is safe to repeat is repeated: GET requests (no side effects), answered with
/// 429, 502, 503 or 504, or with the connection closed before a single byte of response
/// arrived. The retry waits for `Retry-After` (seconds or an HTTP date) when the server sends
/// one no longer than `maximumWait`, else `backoff`; a longer `Retry-After` is not waited
/// for: the response is returned as is and its error says when to retry. A request costs at
/// most two attempts, each within its source's timeout, plus the wait.
struct RetryingHTTPClient: HTTPClient {
    let base: any HTTPClient
    let logger: Logger
    /// Statuses that say "not now" rather than "no".
    static let retryableStatuses: Set<Int> = [429, 502, 503, 504]
    /// The longest `Retry-After` honoured, in seconds.
    var maximumWait = 5.0
    /// The wait without a usable `Retry-After`, in seconds.
    var backoff = 0.5

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method.uppercased() == "GET" else { return try await base.send(request) }
        let response: HTTPResponse
        do {
            response = try await base.send(request)
        } catch let error as HTTPError where Self.closedWithoutAnswer(error) {
            logger.info("retrying after \(Self.shown(backoff)) s: \(error.message)")
            try await Task.sleep(for: .seconds(backoff))
            return try await base.send(request)
        }
        guard Self.retryableStatuses.contains(response.status) else { return response }
        let requested = response.headers["retry-after"].flatMap { Self.seconds(retryAfter: $0, now: Date()) }
        if let requested, requested > maximumWait {
            logger.info("not retrying HTTP \(response.status) from \(Redaction.redact(request.url)): Retry-After \(Int(requested.rounded())) s exceeds \(Self.shown(maximumWait)) s")
            return response
        }
        let wait = requested ?? backoff
        logger.info("retrying HTTP \(response.status) from \(Redaction.redact(request.url)) after \(Self.shown(wait)) s")
        try await Task.sleep(for: .seconds(wait))
        return try await base.send(request)
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
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
