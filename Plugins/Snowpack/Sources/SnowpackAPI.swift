import ConditionsJSON
import ConditionsKit
import Foundation

/// Requests to NRCS AWDB: JSON asked for, error statuses as `HTTPError`, and an HTML page
/// with HTTP 200 (a maintenance or error page) refused by name.
struct SnowpackAPI: Sendable {
    let http: any HTTPClient

    /// GETs `url` and parses its JSON; `what` names the document in errors
    /// (`the station list of WA`). Returns the document and the response's freshness.
    func json(_ url: URL, what: String) async throws -> (document: JSONValue, freshness: Double?) {
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        return (try response.json(from: "NRCS AWDB", what: what), response.freshness)
    }
}
