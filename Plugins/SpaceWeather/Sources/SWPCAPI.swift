import ConditionsJSON
import ConditionsKit
import ConditionsText
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
        let source = Redaction.redact(url)
        if Self.isHTML(response) {
            throw ConditionsError.badResponse("\(source): NOAA SWPC answered HTTP \(response.status) with an HTML page, not JSON, for \(what)")
        }
        do {
            return try JSONValue.parse(response.body)
        } catch {
            throw ConditionsError.badResponse("\(source): \(what) is not JSON (\(error))")
        }
    }

    /// An HTML answer: said by its Content-Type, or starting with `<` whatever it says.
    static func isHTML(_ response: HTTPResponse) -> Bool {
        if let type = response.headers["content-type"]?.lowercased(), type.contains("html") { return true }
        let first = response.body.first { !(UInt8(ascii: " ") == $0 || (0x09...0x0D).contains($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        return first == UInt8(ascii: "<")
    }
}
