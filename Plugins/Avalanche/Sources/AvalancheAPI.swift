import ConditionsJSON
import ConditionsKit
import Foundation

/// Requests to avalanche.org: JSON asked for, error statuses as `HTTPError`, and the API's
/// one trap checked: some misses are HTTP 200 with an HTML error page.
struct AvalancheAPI: Sendable {
    let http: any HTTPClient

    /// GETs `url` and parses its JSON; `what` names the document in errors
    /// (`the map layer of NWAC`). Returns the document and the response's freshness.
    func json(_ url: URL, what: String) async throws -> (document: JSONValue, freshness: Double?) {
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        return (try response.json(from: "avalanche.org", what: what), response.freshness)
    }
}
