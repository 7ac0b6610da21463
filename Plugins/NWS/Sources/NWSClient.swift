import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// Requests to api.weather.gov as it wants them: `Accept: application/geo+json`, the
/// User-Agent always, repeated by the host on 500 and 503 (and 429, 502, 504) up to twice
/// with backoff, honouring `Retry-After`. Error answers become `NWSProblem` errors.
struct NWSClient: Sendable {
    let settings: NWSSettings
    let http: any HTTPClient
    let logger: Logger

    /// NWS's intermittent 500 `UnexpectedProblem` and 503 `ForecastGridExpired` are usually
    /// gone a moment later; its rate limit (429) asks for a few seconds.
    static let retry = HTTPRetry(statuses: [429, 500, 502, 503, 504], attempts: 2)

    /// The headers of every request.
    var headers: [String: String] { ["Accept": "application/geo+json", "User-Agent": settings.userAgent] }

    /// GETs `url`; a non-2xx answer throws `NWSProblem.error`, naming `what` was asked for.
    func get(_ url: URL, what: String) async throws -> HTTPResponse {
        logger.debug("NWS request", metadata: ["url": "\(Redaction.redact(url))"])
        let response = try await http.send(HTTPRequest(url: url, headers: headers, retry: Self.retry))
        guard (200..<300).contains(response.status) else {
            throw NWSProblem.error(for: response, what: what, optionsPath: settings.optionsPath)
        }
        return response
    }

    /// `text` as an http or https URL NWS gave at `field` of `source`, or `badResponse`.
    static func followedURL(_ text: String?, field: String, source: URL) throws(ConditionsError) -> URL {
        guard let text, let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            throw ConditionsError.badResponse("\(Redaction.redact(source)): \(field) is \(text.map { "\"\($0.oneLine(limit: 80))\"" } ?? "missing"), not an http or https URL")
        }
        return url
    }
}
