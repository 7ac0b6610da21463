import ConditionsJSON
import ConditionsKit
import Foundation

/// Requests to SWPC's services: JSON asked for, error statuses as `HTTPError`, and an HTML
/// page with HTTP 200 (a maintenance or error page) refused by name.
struct SWPCAPI: Sendable {
    let http: any HTTPClient

    /// GETs `url` and parses its JSON; `what` names the document in errors
    /// (`the planetary K-index`).
    func json(_ url: URL, what: String) async throws -> JSONValue {
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        return try response.json(from: "NOAA SWPC", what: what)
    }
}
