import Foundation
import LoopbackServer
import Synchronization

/// A loopback stand-in for api.avalanche.org serving NWAC, from the bodies in
/// `Plugins/Avalanche/Tests/Resources` (`real/` byte for byte from avalanche.org, `derived/`
/// made by the scripts there; each folder's SOURCES.md says which is which).
///
/// - `/v2/public/products/map-layer/NWAC`: the derived NWAC layer of the chosen `Season`:
///   this season's zone ids, last season's (2022-23: every id differs), every zone off-season,
///   or this season's with a warning in effect on Stevens Pass.
/// - `/v2/public/product?type=forecast&center_id=NWAC&zone_id={id}`: West Slopes North the
///   real forecast of 2026-04-01, Stevens Pass and Snoqualmie Pass the forecasts derived from
///   it, the Olympics the real off-season summary, any other zone the real null object
///   (HTTP 200, every member null), as avalanche.org answers a zone without a product.
/// - `/v2/public/product?type=warning&…`: the real object of nulls (no warning in effect), but
///   for Stevens Pass under `Season.warning`, the derived warning.
/// - `answerWithHTML(zone:)`: that zone's product is HTTP 200 with an HTML error page, as
///   some NWAC misses are.
/// - `setProduct(zone:_:)`, `changeProduct(zone:_:)`: a zone's product replaced (a re-issue, a
///   change of danger); `queueProducts(zone:_:)`: the next answers scripted, one per request.
package final class AvalancheStandIn: Sendable {
    /// Which NWAC map layer is served.
    package enum Season: String, Sendable {
        /// 2025-26 zone ids (1649 Stevens Pass), in season but for the Olympics.
        case current = "derived/nwac_map_layer_2026-04-01.json"
        /// The same zones with the 2022-23 ids (1132 Stevens Pass).
        case lastSeason = "derived/nwac_map_layer_2023-01-24.json"
        /// Every zone off season.
        case offSeason = "derived/nwac_map_layer_2026-07-01_offseason.json"
        /// This season's, with an avalanche warning in effect on Stevens Pass.
        case warning = "derived/nwac_map_layer_2026-04-01_warning.json"
    }

    /// Zone ids of the current season's layer.
    package enum Zone {
        package static let olympics = 1645
        package static let westSlopesNorth = 1646
        package static let stevensPass = 1649
        package static let snoqualmiePass = 1650
        /// Stevens Pass in the 2022-23 layer.
        package static let stevensPassLastSeason = 1132
    }

    package static let mapLayerPath = "/v2/public/products/map-layer/NWAC"
    package static let productPath = "/v2/public/product"

    /// The server; its `requests` show what the module sent.
    package let server = LoopbackServer()

    private struct State {
        var season = Season.current
        var products: [Int: String]
        var html: Set<Int> = []
        var queued: [Int: [String]] = [:]
    }

    private let state: Mutex<State>
    private let files: [String: String]

    /// The plugin's test resources, from this file's place in it (`Plugins/Avalanche/StandIn`).
    package static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Resources")

    /// A file under `Plugins/Avalanche/Tests/Resources`, as text.
    package static func resource(_ path: String) throws -> String {
        try String(contentsOf: resources.appendingPathComponent(path), encoding: .utf8)
    }

    /// A stopped stand-in with every body loaded.
    package init() throws {
        var files: [String: String] = [:]
        for name in [Season.current.rawValue, Season.lastSeason.rawValue, Season.offSeason.rawValue, Season.warning.rawValue,
                     "real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json", "real/avalanche_nwac_summary_offseason_2026-03-30.json",
                     "real/avalanche_product_forecast_null.json", "real/avalanche_nwac_warning_none.json",
                     "derived/nwac_forecast_stevens-pass_2026-04-01.json", "derived/nwac_forecast_snoqualmie-pass_2026-04-01.json"] {
            files[name] = try Self.resource(name)
        }
        self.files = files
        let stevens = files["derived/nwac_forecast_stevens-pass_2026-04-01.json"]!
        state = Mutex(State(products: [
            Zone.westSlopesNorth: files["real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json"]!,
            Zone.stevensPass: stevens,
            Zone.stevensPassLastSeason: stevens,
            Zone.snoqualmiePass: files["derived/nwac_forecast_snoqualmie-pass_2026-04-01.json"]!,
            Zone.olympics: files["real/avalanche_nwac_summary_offseason_2026-03-30.json"]!,
        ]))
        server.fallback { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    /// Starts listening on 127.0.0.1.
    package func start() throws { try server.start() }

    /// Stops the server.
    package func stop() { server.stop() }

    /// What to write as the Avalanche instance's `baseURL`.
    package var baseURL: URL { server.baseURL }

    /// Serves `season`'s map layer from now on.
    package func serve(_ season: Season) {
        state.withLock { $0.season = season }
    }

    /// `zone`'s product as served now.
    package func product(zone: Int) -> String {
        state.withLock { $0.products[zone] } ?? files["real/avalanche_product_forecast_null.json"]!
    }

    /// Serves `body` as `zone`'s product from now on.
    package func setProduct(zone: Int, _ body: String) {
        state.withLock { $0.products[zone] = body }
    }

    /// `zone`'s product with `change` applied to its JSON object (a re-issue, new levels).
    package func changeProduct(zone: Int, _ change: (inout [String: Any]) -> Void) throws {
        guard var object = try JSONSerialization.jsonObject(with: Data(product(zone: zone).utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        change(&object)
        setProduct(zone: zone, String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// Answers the next requests for `zone`'s product with `bodies`, one each in order, then as
    /// before: a script for `watch`, whose polls each ask once.
    package func queueProducts(zone: Int, _ bodies: [String]) {
        state.withLock { $0.queued[zone, default: []] += bodies }
    }

    /// Answers `zone`'s product with HTTP 200 and an HTML error page from now on.
    package func answerWithHTML(zone: Int) {
        state.withLock { _ = $0.html.insert(zone) }
    }

    /// Requests received for the map layer.
    package var mapLayerRequests: [LoopbackServer.Request] {
        server.requests.filter { $0.path == Self.mapLayerPath }
    }

    /// Forecast requests received (for `zone`, or any).
    package func forecastRequests(zone: Int? = nil) -> [LoopbackServer.Request] {
        productRequests("forecast", zone: zone)
    }

    /// Warning requests received (for `zone`, or any).
    package func warningRequests(zone: Int? = nil) -> [LoopbackServer.Request] {
        productRequests("warning", zone: zone)
    }

    private func productRequests(_ type: String, zone: Int?) -> [LoopbackServer.Request] {
        server.requests.filter { request in
            let query = request.query ?? ""
            return request.path == Self.productPath && query.hasPrefix("type=\(type)&") && (zone.map { query.hasSuffix("zone_id=\($0)") } ?? true)
        }
    }

    // MARK: Answering

    /// The real no-warning object, or under `.warning` for Stevens Pass the warning product the
    /// derived layer carries (its shape was never captured; see derived/SOURCES.md).
    private func warning(zone: Int) -> String {
        let none = files["real/avalanche_nwac_warning_none.json"]!
        guard state.withLock({ $0.season }) == .warning, zone == Zone.stevensPass,
              let layer = try? JSONSerialization.jsonObject(with: Data(files[Season.warning.rawValue]!.utf8)) as? [String: Any],
              let features = layer["features"] as? [[String: Any]],
              let stevens = features.first(where: { ($0["id"] as? Int) == zone }),
              let product = ((stevens["properties"] as? [String: Any])?["warning"] as? [String: Any])?["product"],
              let data = try? JSONSerialization.data(withJSONObject: product) else { return none }
        return String(decoding: data, as: UTF8.self)
    }

    private func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        if request.path == Self.mapLayerPath {
            return .json(files[state.withLock { $0.season }.rawValue]!)
        }
        if request.path == Self.productPath {
            let query = Dictionary((request.query ?? "").split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
            guard query["center_id"] == "NWAC", let zone = query["zone_id"].flatMap(Int.init) else {
                return .json(files["real/avalanche_product_forecast_null.json"]!)
            }
            if query["type"] == "warning" { return .json(warning(zone: zone)) }
            guard query["type"] == "forecast" else { return .json(files["real/avalanche_product_forecast_null.json"]!) }
            if state.withLock({ $0.html.contains(zone) }) {
                return .text("<!DOCTYPE html><html><head><title>Server Error (500)</title></head><body><h1>Server Error (500)</h1></body></html>",
                             contentType: "text/html; charset=utf-8")
            }
            let queued = state.withLock { state -> String? in
                guard var queue = state.queued[zone], !queue.isEmpty else { return nil }
                let first = queue.removeFirst()
                state.queued[zone] = queue
                return first
            }
            return .json(queued ?? product(zone: zone))
        }
        return .text("<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>", status: 404, contentType: "text/html; charset=utf-8")
    }
}
