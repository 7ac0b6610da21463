import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import ConditionsText
import Foundation
@testable import SpaceWeather

/// A file under Tests/Resources (`real/…` byte for byte from SWPC, `derived/…` made by
/// `derived/derive-swpc-forecasts.py`; provenance in each folder's SOURCES.md).
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// The bodies the tests serve.
enum Body {
    /// The K-index before the 2026 change: 2026-02-02 00:00 to 2026-02-09 15:00 UTC.
    static let kpOld = "real/swpc_kp_OLDFORMAT_2026-02.json"
    /// The forecast before the change: observed to 2026-02-09 15:00, predicted to 2026-02-12 00:00.
    static let forecastOld = "real/swpc_kp_forecast_OLDFORMAT_2026-02.json"
    /// The K-index after the change: 2026-08-24 00:00 to 2026-08-31 09:00.
    static let kpNew = "real/swpc_kp_NEWFORMAT_2026-08-31.json"
    /// The old forecast in the new shape, same times.
    static let forecastReshaped = "derived/swpc_kp_forecast_NEWFORMAT_2026-02_reshaped.json"
    /// The old forecast in the new shape, 203 days later (observed to 2026-08-31 15:00).
    static let forecastNew = "derived/swpc_kp_forecast_NEWFORMAT_2026-08-31.json"
    /// OVATION of 2025-01-12 22:51 UTC.
    static let ovation = "real/swpc_ovation_aurora_2025-01-12.json"
}

/// The paths SWPC answers on.
enum Path {
    static let kp = "/products/noaa-planetary-k-index.json"
    static let forecast = "/products/noaa-planetary-k-index-forecast.json"
    static let ovation = "/json/ovation_aurora_latest.json"
}

/// The config's places: Stevens Pass; Tromsø and Reykjavik under the auroral oval on
/// 2025-01-12 (23 % and 14 %); a point at 63° N, 0.4° W, which is cell 0° E, not 359° E.
let places = Places(location: .seattle, named: [
    ("stevens", Place.stevens),
    ("tromso", Place(name: "Tromsø", latitude: 69.65, longitude: 18.96)),
    ("reykjavik", Place(name: "Reykjavik", latitude: 64.15, longitude: -21.94)),
    ("meridian", Place(name: "Off Shetland", latitude: 63, longitude: -0.4)),
])

/// 2026-02-09T19:30:00Z: after the old K-index's last period (15:00), in its forecast's
/// estimated 18:00 period.
let februaryEvening = Timestamp.parse("2026-02-09T19:30:00Z")!
/// 2026-02-05T01:00:00Z: two hours before the G1 period (03:00, Kp 5.33) of the old bodies.
let stormEve = Timestamp.parse("2026-02-05T01:00:00Z")!
/// 2026-08-31T10:00:00Z: after the new K-index's last period (09:00).
let augustMorning = Timestamp.parse("2026-08-31T10:00:00Z")!

/// A source made from `options` as the host would, with `places`.
func makeSource(_ options: JSONValue = [:]) throws -> SpaceWeatherSource {
    try SpaceWeatherSource(configuration: .testing(instance: "aurora", options: options, places: places))
}

/// A context at `now` with `places`, fetching through `http`; `maxAge` is the TTL by default.
func context(_ http: any HTTPClient, now: Date = februaryEvening, maxAge: Double = SpaceWeatherSource.defaultTTL) -> SourceContext {
    SourceContextBuilder(now: now, places: places, http: http, maxAge: maxAge).keepingValues().build()
}

/// SWPC serving `kp`, `forecast` and the OVATION grid; `more` replaces or adds answers.
func swpc(kp: String = Body.kpOld, forecast: String = Body.forecastOld, _ more: [String: RecordingHTTPClient.Reply] = [:]) throws -> RecordingHTTPClient {
    var replies: [String: RecordingHTTPClient.Reply] = [
        Path.kp: try .jsonFixture(kp),
        Path.forecast: try .jsonFixture(forecast),
        Path.ovation: try .jsonFixture(Body.ovation),
    ]
    replies.merge(more) { $1 }
    return RecordingHTTPClient(replies)
}

/// The new form: the real K-index of 2026-08-31 and the derived forecast that pairs with it.
func swpcNew() throws -> RecordingHTTPClient {
    try swpc(kp: Body.kpNew, forecast: Body.forecastNew)
}

/// A document parsed as the source parses it.
func series(_ name: String) throws -> KpSeries {
    try KpSeries(document: try JSONValue.parse(try fixture(name)), what: "test", source: name)
}

extension RecordingHTTPClient.Reply {
    /// A document under Tests/Resources, as SWPC sends JSON.
    static func jsonFixture(_ name: String) throws -> Self {
        .body(try fixture(name), contentType: "application/json")
    }

    /// A maintenance page with HTTP 200.
    static let htmlPage = Self.text("<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>SWPC is down for maintenance</h1></body></html>",
                                    contentType: "text/html; charset=utf-8")
}

/// The presentation of `aurora` results.
let presentation = SpaceWeatherSource.presentations.first { $0.kind == SpaceWeatherSource.kind }!

/// Plain text with times as UTC ISO 8601 (the host formats them in the config's zone).
func textContext(_ urn: String) -> PresentationContext {
    PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
}
