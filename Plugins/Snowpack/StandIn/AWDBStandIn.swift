import Foundation
import LoopbackServer
import Synchronization

/// A loopback stand-in for NRCS AWDB (SNOTEL), from the bodies in
/// `Plugins/Snowpack/Tests/Resources/derived` (no real AWDB body is public; that folder's
/// SOURCES.md says what is real in them and what is made up):
///
/// - `/stations?stationTriplets=*:WA:SNTL&activeOnly=true`: seven real WA SNOTEL stations near
///   the passes;
/// - `/data?stationTriplets={triplet}&…`: Stevens Pass (791) and Olallie Meadows (672) their own
///   14 days of hours up to 2026-11-26 10:00 PST; any other station Olallie Meadows' hours under
///   its own triplet; a station not in the list `[]`, as AWDB answers one it does not know;
/// - `answerWithHTML()`: every request answered HTTP 200 with an HTML page (a maintenance page).
package final class AWDBStandIn: Sendable {
    package static let stationsPath = "/stations"
    package static let dataPath = "/data"
    /// 10:30 PST on the day the derived hours end: what tests pass as `--now`.
    package static let now = "2026-11-26T18:30:00Z"

    /// The server; its `requests` show what the module sent.
    package let server = LoopbackServer()

    private let stations: String
    private let stevens: String
    private let olallie: String
    private let known: Set<String>
    private let html = Mutex(false)

    /// The plugin's test resources, from this file's place in it (`Plugins/Snowpack/StandIn`).
    package static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Resources/derived")

    /// A stopped stand-in with every body loaded.
    package init() throws {
        func read(_ name: String) throws -> String {
            try String(contentsOf: Self.resources.appendingPathComponent(name), encoding: .utf8)
        }
        stations = try read("awdb_stations_WA_SNTL.json")
        stevens = try read("awdb_data_791_2026-11-26.json")
        olallie = try read("awdb_data_672_2026-11-26.json")
        let list = try JSONSerialization.jsonObject(with: Data(stations.utf8)) as? [[String: Any]] ?? []
        known = Set(list.compactMap { $0["stationTriplet"] as? String })
        server.fallback { [unowned self] request in self.answer(request) }
    }

    deinit { server.stop() }

    /// Starts listening on 127.0.0.1.
    package func start() throws { try server.start() }

    /// Stops the server.
    package func stop() { server.stop() }

    /// What to write as the Snowpack instance's `baseURL`.
    package var baseURL: URL { server.baseURL }

    /// Answers every request with HTTP 200 and an HTML page from now on.
    package func answerWithHTML() {
        html.withLock { $0 = true }
    }

    /// Requests received for the station list.
    package var stationRequests: [LoopbackServer.Request] {
        server.requests.filter { $0.path == Self.stationsPath }
    }

    /// Data requests received (for `triplet`, or any).
    package func dataRequests(triplet: String? = nil) -> [LoopbackServer.Request] {
        server.requests.filter { request in
            request.path == Self.dataPath && (triplet.map { (request.query ?? "").contains("stationTriplets=\($0)&") } ?? true)
        }
    }

    private func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        if html.withLock({ $0 }) {
            return .text("<!DOCTYPE html><html><body><h1>Site under maintenance</h1></body></html>", contentType: "text/html; charset=utf-8")
        }
        switch request.path {
        case Self.stationsPath:
            return .json(stations)
        case Self.dataPath:
            let query = request.query ?? ""
            guard let start = query.range(of: "stationTriplets=") else { return .json("[]") }
            let triplet = String(query[start.upperBound...].prefix { $0 != "&" }).removingPercentEncoding ?? ""
            // AWDB answers a station it does not know with an empty list.
            guard known.contains(triplet) else { return .json("[]") }
            if triplet == "791:WA:SNTL" { return .json(stevens) }
            return .json(olallie.replacingOccurrences(of: "672:WA:SNTL", with: triplet))
        default:
            return .json(#"{"error": "Not Found"}"#, status: 404)
        }
    }
}
