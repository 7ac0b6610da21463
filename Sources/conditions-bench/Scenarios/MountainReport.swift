import Foundation
import LoopbackServer

/// Scenario 14: `avalanche:` and `snowpack:` for all 16 passes in one run (issue 33), every
/// response after the loopback latency. The targets are request counts: one map layer for the
/// 16 places, one station list, one data request per distinct station (and per distinct zone
/// one forecast and one warning). Six passes east of NWAC's zones (Satus, Sherman, Manastash,
/// Loup Loup, Disautel, Wauconda) are in no zone in the derived layer: those six avalanche URNs
/// answer `notFound` naming the nearest zone, as they would live, so the run exits 1.
///
/// The bodies are the repository's derived ones (`Plugins/Avalanche/Tests/Resources`,
/// `Plugins/Snowpack/Tests/Resources/derived`; their SOURCES.md say what is real), read from
/// the checkout this benchmark was built from.
enum MountainReport {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ bench: Bench) async throws -> [Figure] {
        func read(_ path: String) throws -> String {
            do { return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) } catch {
                throw Bench.Failed(description: "\(path): \(error) (scenario 14 reads the checkout's derived bodies)")
            }
        }
        let layer = try read("Plugins/Avalanche/Tests/Resources/derived/nwac_map_layer_2026-04-01.json")
        let forecast = try read("Plugins/Avalanche/Tests/Resources/real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json")
        let noWarning = try read("Plugins/Avalanche/Tests/Resources/real/avalanche_nwac_warning_none.json")
        let stations = try read("Plugins/Snowpack/Tests/Resources/derived/awdb_stations_WA_SNTL.json")
        let hours = try read("Plugins/Snowpack/Tests/Resources/derived/awdb_data_672_2026-11-26.json")
        // The shipped config's 16 passes, as its `places` member.
        guard let shipped = try JSONSerialization.jsonObject(with: Data(try read("sources.json").utf8)) as? [String: Any],
              let places = shipped["places"] as? [String: Any], places.count == 16 else {
            throw Bench.Failed(description: "sources.json: no \"places\" object of the 16 passes")
        }
        let placesMember = #""places": "# + String(decoding: try JSONSerialization.data(withJSONObject: places), as: UTF8.self)

        let server = LoopbackServer()
        let latency = bench.latency
        server.route("/avalanche/v2/public/products/map-layer/NWAC", LoopbackServer.Response.json(layer).delayed(bench.latency))
        server.route("/avalanche/v2/public/product") { request in
            LoopbackServer.Response.json((request.query ?? "").hasPrefix("type=warning&") ? noWarning : forecast).delayed(latency)
        }
        server.route("/awdb/stations", LoopbackServer.Response.json(stations).delayed(bench.latency))
        server.route("/awdb/data") { request in
            let query = request.query ?? ""
            let triplet = query.range(of: "stationTriplets=").map { String(query[$0.upperBound...].prefix { $0 != "&" }) } ?? ""
            return LoopbackServer.Response.json(hours.replacingOccurrences(of: "672:WA:SNTL", with: triplet)).delayed(latency)
        }
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }

        let config = try bench.workspace.config("mountain", sources: """
            "avalanche": {"module": "Avalanche", "options": {"baseURL": "\(server.url("/avalanche").absoluteString)"}},
            "snowpack": {"module": "Snowpack", "options": {"baseURL": "\(server.url("/awdb").absoluteString)"}}
            """, routes: #""avalanche": "avalanche", "snowpack": "snowpack""#, extra: ", " + placesMember)
        let names = places.keys.sorted()
        let urns = names.map { "avalanche:\($0)" } + names.map { "snowpack:\($0)" }
        let arguments = ["--config", config, "--no-cache", "--quiet", "--now", "2026-11-26T18:30:00Z", "--format", "ndjson"] + urns

        var walls: [Double] = []
        var counts: [String: Set<Int>] = [:]
        var distinctStations = 0
        for _ in 0..<bench.runs(5) {
            server.resetStats()
            let run = try await bench.conditions(arguments, expectStatus: 1)
            walls.append(run.wall)
            let requests = server.requests
            let data = requests.filter { $0.path == "/awdb/data" }
            distinctStations = Set(data.compactMap(\.query)).count
            counts["layer", default: []].insert(requests.filter { $0.path.hasSuffix("/map-layer/NWAC") }.count)
            counts["stations", default: []].insert(requests.filter { $0.path == "/awdb/stations" }.count)
            counts["data", default: []].insert(data.count - distinctStations)
        }
        func worst(_ key: String) -> Int { counts[key]?.max() ?? 0 }
        return [
            .time(14, "avalanche: and snowpack: for 16 passes (32 URNs)", Samples(walls)),
            .plain(14, "map-layer requests", value: Double(worst("layer")), unit: "requests", text: "\(worst("layer"))",
                   target: "≤ 1", passed: worst("layer") <= 1),
            .plain(14, "station-list requests", value: Double(worst("stations")), unit: "requests", text: "\(worst("stations"))",
                   target: "≤ 1", passed: worst("stations") <= 1),
            .plain(14, "data requests beyond one per distinct station (\(distinctStations) stations)", value: Double(worst("data")), unit: "requests",
                   text: "\(worst("data"))", target: "= 0", passed: worst("data") == 0),
        ]
    }
}
