import NWSStandIn
import ConditionsHTTP
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging
import TestHarness
@testable import NWS

/// The config's places in the tests: two passes at WSDOT's coordinates, Sumatra (the real
/// `/points` capture's point) and `here`, Seattle.
let places = Places(location: .seattle, named: [
    ("stevens", Place.stevens),
    ("snoqualmie", Place(name: "Snoqualmie Pass", latitude: 47.41, longitude: -121.405833)),
    ("sumatra", Place(name: "Sumatra", latitude: 30, longitude: -85)),
    ("Puget-Sound", Place(latitude: 47.6, longitude: -122.5)),
])

/// Sunday 2025-11-02 07:30 PST: the morning of the derived Stevens forecast.
let morning = Date(timeIntervalSince1970: 1_762_097_400)

/// One libcurl client for the suite, as the host has one per process. Its timeouts only guard
/// against a hang: the stand-in answers at once, but on a loaded machine an answer has taken
/// longer than 10 s to come, and no test here is about a timeout.
let curl: CurlHTTPClient = {
    do { return try CurlHTTPClient(version: "test", limits: HTTPLimits(connectTimeout: 120, timeout: 120)) } catch {
        preconditionFailure("libcurl: \(error)")
    }
}()

/// A source made from `options` as the host would, with `places`.
func makeSource(_ options: JSONObject = JSONObject(), places: Places = places, userAgent: String = "conditions/0.1.0") throws -> NWSSource {
    try NWSSource(configuration: .testing(instance: "nws", options: options, places: places, userAgent: userAgent, logger: Logger(label: "test")))
}

/// A source whose `baseURL` is `standIn`'s.
func makeSource(_ standIn: NWSStandIn) throws -> NWSSource {
    try makeSource(JSONObject([("baseURL", .string(standIn.baseURL.absoluteString))]))
}

/// Resolves `urn` as the host does: routed, then resolved at `now` (the morning by default) in
/// Seattle with `places`, fetching through `http` (libcurl by default), keeping values in `memo` when given.
func resolve(_ urn: String, with source: NWSSource, http: any HTTPClient = curl, now: Date = morning, memo: SourceMemo? = nil) async throws -> SourceResult {
    let context = SourceContextBuilder(now: now, places: places, logger: Logger(label: "test"), http: http, maxAge: 300, memo: memo)
    return try await source.resolve(urn, context: context.build())
}

/// The error resolving `urn` throws, or nil.
func resolveError(_ urn: String, with source: NWSSource, http: any HTTPClient = curl, memo: SourceMemo? = nil) async -> (any Error)? {
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

extension RecordingHTTPClient.Reply {
    /// A GeoJSON body as api.weather.gov sends it.
    static func geoJSON(_ body: String, status: Int = 200) -> Self {
        .json(body, status: status, contentType: "application/geo+json")
    }

    /// api.weather.gov's 404 for a URL it does not serve.
    static let problemNotFound = Self.json(#"{"title": "Not Found", "status": 404}"#, status: 404, contentType: "application/problem+json")
}

extension SourceResult {
    /// The result's periods.
    var periods: [JSONValue] { data["periods"]?.arrayValue ?? [] }
}
