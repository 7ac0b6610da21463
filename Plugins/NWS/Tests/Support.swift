import ConditionsHTTP
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import Synchronization
import TestHarness
@testable import NWS

/// The config's places in the tests: two passes at WSDOT's coordinates, Sumatra (the real
/// `/points` capture's point) and `here`, Seattle.
let seattle = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles"))
let places = Places(location: seattle, named: [
    ("stevens", Place(name: "Stevens Pass", latitude: 47.745, longitude: -121.093333)),
    ("snoqualmie", Place(name: "Snoqualmie Pass", latitude: 47.41, longitude: -121.405833)),
    ("sumatra", Place(name: "Sumatra", latitude: 30, longitude: -85)),
    ("Puget-Sound", Place(latitude: 47.6, longitude: -122.5)),
])

/// Sunday 2025-11-02 07:30 PST: the morning of the derived Stevens forecast.
let morning = Date(timeIntervalSince1970: 1_762_097_400)

/// One libcurl client for the suite, as the host has one per process.
let curl: CurlHTTPClient = {
    do { return try CurlHTTPClient(version: "test", limits: HTTPLimits(connectTimeout: 5, timeout: 10)) } catch {
        preconditionFailure("libcurl: \(error)")
    }
}()

/// A source made from `options` as the host would, with `places`.
func makeSource(_ options: JSONObject = JSONObject(), places: Places = places, userAgent: String = "conditions/0.1.0") throws -> NWSSource {
    let folder = FileManager.default.temporaryDirectory
    let configuration = SourceConfiguration(
        instance: "nws", options: SourceOptions(path: "sources.nws.options", object: options, baseDirectory: folder),
        configDirectory: folder, place: seattle, places: places, userAgent: userAgent, logger: Logger(label: "test"))
    return try NWSSource(configuration: configuration)
}

/// A source whose `baseURL` is `standIn`'s.
func makeSource(_ standIn: NWSStandIn) throws -> NWSSource {
    try makeSource(JSONObject([("baseURL", .string(standIn.baseURL.absoluteString))]))
}

/// Resolves `urn` as the host does: routed, then resolved with a context at `now`.
func resolve(_ urn: String, with source: NWSSource, http: any HTTPClient = curl, now: Date = morning, memo: (any SourceMemo)? = nil) async throws -> SourceResult {
    var router = Router<Int>()
    for pattern in source.routes { try router.register(pattern, 0) }
    let (location, _) = try router.match(URN(urn))
    let context = SourceContext(now: now, place: seattle, places: places, logger: Logger(label: "test"), http: http, maxAge: 300, memo: memo)
    return try await source.resolve(location, context: context)
}

/// The error resolving `urn` throws, or nil.
func resolveError(_ urn: String, with source: NWSSource, http: any HTTPClient = curl, memo: (any SourceMemo)? = nil) async -> (any Error)? {
    do {
        _ = try await resolve(urn, with: source, http: http, memo: memo)
        return nil
    } catch {
        return error
    }
}

/// A started stand-in, stopped by the caller.
func standIn() throws -> NWSStandIn {
    let standIn = try NWSStandIn()
    try standIn.start()
    return standIn
}

/// Records each request before passing it on (or answering it from `replies` by URL).
final class RecordingHTTP: HTTPClient {
    private let base: (any HTTPClient)?
    private let replies: [String: HTTPResponse]
    private let log = Mutex<[HTTPRequest]>([])

    init(_ base: any HTTPClient) {
        self.base = base
        replies = [:]
    }

    init(replies: [String: (status: Int, body: String)]) {
        base = nil
        var canned: [String: HTTPResponse] = [:]
        for (url, reply) in replies {
            canned[url] = HTTPResponse(status: reply.status, headers: ["content-type": "application/geo+json"], body: Data(reply.body.utf8), url: URL(string: url)!)
        }
        self.replies = canned
    }

    var requests: [HTTPRequest] { log.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.withLock { $0.append(request) }
        if let base { return try await base.send(request) }
        return replies[request.url.absoluteString]
            ?? HTTPResponse(status: 404, headers: ["content-type": "application/problem+json"], body: Data(#"{"title": "Not Found", "status": 404}"#.utf8), url: request.url)
    }
}

/// Sends every request with an empty User-Agent, as a client that drops it would.
struct NoUserAgentHTTP: HTTPClient {
    let base: any HTTPClient

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var stripped = request
        stripped.headers = request.headers.filter { $0.key.lowercased() != "user-agent" }
        stripped.headers["User-Agent"] = ""
        return try await base.send(stripped)
    }
}

extension SourceResult {
    /// The result's periods.
    var periods: [JSONValue] { data["periods"]?.arrayValue ?? [] }
}
