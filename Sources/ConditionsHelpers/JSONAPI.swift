import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

extension HTTPResponse {
    /// The body of a JSON API's answer, parsed; `upstream` (`avalanche.org`) and `what` (`the
    /// map layer of NWAC`) name it in errors. An HTML page is `badResponse` saying so, whatever
    /// the status: key-less APIs answer misses and maintenance with HTTP 200 and a page (said by
    /// its Content-Type, or starting with `<` whatever it says).
    public func json(from upstream: String, what: String) throws(ConditionsError) -> JSONValue {
        let source = Redaction.redact(url)
        let first = body.first { !(UInt8(ascii: " ") == $0 || (0x09...0x0D).contains($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if headers["content-type"]?.lowercased().contains("html") == true || first == UInt8(ascii: "<") {
            throw ConditionsError.badResponse("\(source): \(upstream) answered HTTP \(status) with an HTML page, not JSON, for \(what)")
        }
        do {
            return try JSONValue.parse(body)
        } catch {
            throw ConditionsError.badResponse("\(source): \(what) is not JSON (\(error))")
        }
    }
}

/// A key-less JSON API as modules call it: JSON asked for, an error status thrown as
/// `HTTPError`, and an HTML page sent with 200 refused naming `upstream`.
///
/// ```swift
/// let api = JSONAPI(http: context.http, upstream: "avalanche.org")
/// let (document, freshness) = try await api.json(url, what: "the map layer of NWAC")
/// ```
public struct JSONAPI: Sendable {
    /// The client requests go through (the source context's).
    public let http: any HTTPClient
    /// The upstream's name in errors: `avalanche.org`, `NRCS AWDB`, `NOAA SWPC`.
    public let upstream: String

    /// Calls to `upstream` through `http`.
    public init(http: any HTTPClient, upstream: String) {
        self.http = http
        self.upstream = upstream
    }

    /// GETs `url` and parses its JSON; `what` names the document in errors. Returns the
    /// document and the response's freshness.
    public func json(_ url: URL, what: String) async throws -> (document: JSONValue, freshness: Double?) {
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        return (try response.json(from: upstream, what: what), response.freshness)
    }
}
