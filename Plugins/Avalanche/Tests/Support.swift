import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
@testable import Avalanche

/// A file under Tests/Resources (`real/…` byte for byte from avalanche.org, `derived/…` made by
/// `derived/derive-nwac-map-layer.py`; provenance in each folder's SOURCES.md).
func fixture(_ name: String) throws -> Data {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
    return try Data(contentsOf: folder.appendingPathComponent(name))
}

/// The real bodies and the derived NWAC map layers the tests serve.
enum Body {
    static let forecastWestSlopesNorth = "real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json"
    static let summaryOlympics = "real/avalanche_nwac_summary_offseason_2026-03-30.json"
    static let nullProduct = "real/avalanche_product_forecast_null.json"
    static let productsList2023 = "real/avalanche_nwac_products_list_2023-01-24.json"
    static let mapLayerSNFAC = "real/avalanche_map_layer_SNFAC_2026-04.json"
    /// `type=warning` with no warning in effect: an object of nulls.
    static let warningNone = "real/avalanche_nwac_warning_none.json"
    /// In season but for the Olympics; 2025-26 zone ids.
    static let mapLayer2026 = "derived/nwac_map_layer_2026-04-01.json"
    /// The same zones with the 2022-23 season's ids.
    static let mapLayer2023 = "derived/nwac_map_layer_2023-01-24.json"
    /// Every zone off season.
    static let mapLayerSummer = "derived/nwac_map_layer_2026-07-01_offseason.json"
}

/// The paths avalanche.org answers on.
enum Path {
    static let mapLayer = "/v2/public/products/map-layer/NWAC"
    static func product(_ zoneID: Int, center: String = "NWAC") -> String {
        "/v2/public/product?type=forecast&center_id=\(center)&zone_id=\(zoneID)"
    }
    static func warning(_ zoneID: Int, center: String = "NWAC") -> String {
        "/v2/public/product?type=warning&center_id=\(center)&zone_id=\(zoneID)"
    }
}

/// This season's NWAC zone ids in the derived layer (1645, 1646 and 1649 are real).
enum ZoneID {
    static let olympics = 1645
    static let westSlopesNorth = 1646
    static let westSlopesSouth = 1648
    static let stevensPass = 1649
    static let snoqualmiePass = 1650
    /// Stevens Pass in the 2022-23 season.
    static let stevensPass2023 = 1132
}

/// The config's places: the passes at WSDOT's coordinates, the Mt Baker ski area (West Slopes
/// North), Hurricane Ridge (Olympics); `here` is Seattle, outside every zone.
let places = Places(location: .seattle, named: [
    ("stevens", Place.stevens),
    ("snoqualmie", Place(name: "Snoqualmie Pass", latitude: 47.41, longitude: -121.4058)),
    ("white", Place(name: "White Pass", latitude: 46.6383, longitude: -121.39)),
    ("baker", Place(name: "Mt Baker", latitude: 48.857, longitude: -121.665)),
    ("hurricane", Place(name: "Hurricane Ridge", latitude: 47.9698, longitude: -123.4985)),
])

/// 2026-04-01T16:00:00Z, 09:00 in Seattle: the morning the real West Slopes North forecast is for.
let aprilMorning = Timestamp.parse("2026-04-01T16:00:00Z")!

/// A source made from `options` as the host would, with `places`.
func makeSource(_ options: JSONValue = [:]) throws -> AvalancheSource {
    try AvalancheSource(configuration: .testing(instance: "avalanche", options: options, places: places))
}

/// A context at `now` with `places`, fetching through `http`; `maxAge` is what the host allows
/// of a document fetched for an earlier URN (the instance's TTL by default).
func context(_ http: any HTTPClient, now: Date = aprilMorning, maxAge: Double = AvalancheSource.defaultTTL) -> SourceContext {
    SourceContextBuilder(now: now, places: places, http: http, maxAge: maxAge).build()
}

/// The NWAC answers of 2026-04-01: the derived map layer (`layer`), the real West Slopes North
/// forecast, the real Olympics summary; any other product is the real null product.
func april(layer: String = Body.mapLayer2026, _ more: [String: RecordingHTTPClient.Reply] = [:]) throws -> RecordingHTTPClient {
    var replies: [String: RecordingHTTPClient.Reply] = [
        Path.mapLayer: try .jsonFixture(layer),
        Path.product(ZoneID.westSlopesNorth): try .jsonFixture(Body.forecastWestSlopesNorth),
        Path.product(ZoneID.olympics): try .jsonFixture(Body.summaryOlympics),
    ]
    replies.merge(more) { $1 }
    return RecordingHTTPClient(replies, fallback: try .jsonFixture(Body.nullProduct))
}

extension RecordingHTTPClient.Reply {
    /// A document under Tests/Resources, as avalanche.org sends JSON.
    static func jsonFixture(_ name: String) throws -> Self {
        .body(try fixture(name), contentType: "application/json")
    }

    /// The kind of page some avalanche.org misses answer with, with HTTP 200.
    static let htmlErrorPage = Self.text("<!DOCTYPE html>\n<html><head><title>Error</title></head><body><h1>Server Error (500)</h1></body></html>",
                                         contentType: "text/html; charset=utf-8")
}

extension RecordingHTTPClient {
    /// The forecast requests sent (not the map layer's, not the warnings').
    var forecastRequests: [HTTPRequest] { requests.filter { $0.url.query?.hasPrefix("type=forecast&") == true } }
    /// The warning requests sent.
    var warningRequests: [HTTPRequest] { requests.filter { $0.url.query?.hasPrefix("type=warning&") == true } }
}

extension SourceResult {
    /// The bands of `day` ("today", "tomorrow") as levels, above/near/below.
    func levels(_ day: String) -> [Int?] {
        ["above", "near", "below"].map { data["danger"]?[day]?[$0]?["level"]?.intValue }
    }
}
