import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// An NWS error answer: an `application/problem+json` body (`{type, title, status, detail,
/// instance, correlationId}`) or the bare 403 "Access Denied" page, turned into one line for
/// the URN that asked, carrying NWS's own title and detail.
enum NWSProblem {
    /// The error for a non-2xx `response` to a request for `what` (`the point 47.745,-121.0933`).
    ///
    /// - A problem body: `NWS: <title> (HTTP <status>, <type>) for <what>: <detail>`, of kind
    ///   `notFound` for 404 (a marine point, one outside the US: no answer will come),
    ///   `invalidArguments` for 400, `upstream` otherwise (5xx, 429: try again later).
    /// - A 403 without one: NWS's answer to a request without a usable User-Agent, saying so.
    /// - Anything else: `HTTPError.status`.
    static func error(for response: HTTPResponse, what: String, optionsPath: String) -> any Error {
        let retryAfter = response.headers["retry-after"].map { " (retry after \($0.oneLine(limit: 40)))" } ?? ""
        if let problem = try? JSONValue.parse(response.body), problem["title"]?.stringValue != nil || problem["detail"]?.stringValue != nil {
            let title = problem["title"]?.stringValue.map { $0.oneLine(limit: 120) } ?? "error"
            let type = problem["type"]?.stringValue.flatMap { $0.split(separator: "/").last.map { String($0).oneLine(limit: 80) } }
            let detail = problem["detail"]?.stringValue.map { $0.oneLine(limit: 400) }.flatMap { $0.isEmpty ? nil : $0 }
            let status = problem["status"]?.intValue ?? response.status
            let message = "NWS: \(title) (HTTP \(status)\(type.map { ", \($0)" } ?? "")) for \(what)" + (detail.map { ": \($0)" } ?? "") + retryAfter
            switch response.status {
            case 404: return ConditionsError(.notFound, message)
            case 400: return ConditionsError(.invalidArguments, message)
            default: return ConditionsError.upstream(message)
            }
        }
        if response.status == 403 {
            return ConditionsError.upstream(
                "NWS refused the request for \(what) (HTTP 403, Access Denied): api.weather.gov refuses requests without a User-Agent naming the application; "
                    + "set \(optionsPath).userAgent, e.g. \"conditions (you@example.com)\"")
        }
        return HTTPError.status(response.status, url: Redaction.redact(response.url), retryAfter: response.headers["retry-after"])
    }
}
