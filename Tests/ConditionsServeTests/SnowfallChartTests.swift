import ConditionsKit
import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing
@testable import ConditionsServer

/// The snowfall card's bar chart (`Drawing.bars`, whose geometry ConditionsFiguresTests
/// check): the page and card fragment over HTTP with
/// WSDOT's snowfall served from loopback (the real-figure fixtures of Plugins/WSDOT).
@Suite("Dashboard: the snowfall chart")
struct SnowfallChartTests {
    /// A loopback SnowFallData service answering Snoqualmie 2023 and Stevens 2022 with the
    /// derived fixtures and anything else with `[]`; the queries it was asked, in order.
    static func upstream() throws -> (LoopbackServer, Queries) {
        let snoqualmie = try Upstream.text("Plugins/WSDOT/Tests/Resources/real/DERIVED_wsdot_snowfall_snoqualmie_2023-24.json")
        let stevens = try Upstream.text("Plugins/WSDOT/Tests/Resources/real/DERIVED_wsdot_snowfall_stevens_2022-23.json")
        let queries = Queries()
        let server = LoopbackServer()
        server.route("/snow/SnowFallData") { request in
            queries.append(request.query ?? "")
            switch request.query {
            case "MountainPassId=11&Year=2023": return .json(snoqualmie)
            case "MountainPassId=10&Year=2022": return .json(stevens)
            default: return .json("[]")
            }
        }
        try server.start()
        return (server, queries)
    }

    /// The queries an upstream was asked, in order.
    final class Queries: Sendable {
        private let queries = Mutex<[String]>([])
        func append(_ query: String) { queries.withLock { $0.append(query) } }
        var all: [String] { queries.withLock { $0 } }
    }

    /// A config folder routing `snowfall` to a WSDOT instance reading `upstream`.
    static func config(_ upstream: LoopbackServer) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"location": \(DashboardSetup.seattle),
         "sources": {"wsdot": {"module": "WSDOT", "ttl": 300, "options": {"snowfallURL": "\(upstream.url("/snow/SnowFallData").absoluteString)"}}},
         "routes": {"snowfall": "wsdot"},
         "cache": {"directory": "cache"}}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test("the page draws the chart as inline SVG with a title and a description; the card fragment too")
    func pageAndFragment() async throws {
        let (upstream, queries) = try Self.upstream()
        defer { upstream.stop() }
        let dir = try Self.config(upstream)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let page = try await server.request("/?urn=snowfall:snoqualmie:2023&urn=snowfall:chinook")
            #expect(page.status == 200)
            let body = page.body
            let id = "card-snowfall-snoqualmie-2023-drawing"
            #expect(body.contains(#"<figure class="drawing" id="\#(id)"><svg class="drawing__plot" width="100%" height="72" role="img" aria-labelledby="\#(id)-title" aria-describedby="\#(id)-desc"><title id="\#(id)-title">New snow per day</title>"#), "\(body)")
            #expect(body.contains(#"<desc id="\#(id)-desc">New snow per day at Snoqualmie Pass I-90 from May 2 to May 31 2024: 1 in altogether, the most 0.4 in on May 10.</desc>"#))
            #expect(body.components(separatedBy: #"<rect class="drawing__fill ink--accent""#).count - 1 == 30)
            #expect(body.contains(#"<title>May 27: 0.1 in</title>"#))
            #expect(body.contains(#"<figcaption class="drawing__caption"><p class="drawing__notes"><bdi>New snow per day</bdi> <bdi>May 2 – May 31</bdi> <bdi>top 0.4 in</bdi></p></figcaption>"#))
            #expect(body.contains("<dt dir=\"auto\"><bdi>Season total</bdi></dt><dd dir=\"auto\"><bdi>389.9 in</bdi></dd>"))
            // A pass without a record fails alone, naming those with one.
            #expect(body.contains("WSDOT keeps no snowfall record for Chinook Pass SR 410; only blewett, sherman, stevens, snoqualmie, white have one"))
            #expect(queries.all == ["MountainPassId=11&Year=2023"], "one request, and none for the pass without a record")

            // What the page's script fetches when the result changes: the same drawing.
            let fragment = try await server.request("/card?urn=snowfall:snoqualmie:2023&id=card-snowfall-snoqualmie-2023")
            #expect(fragment.status == 200)
            #expect(fragment.body.contains(#"aria-labelledby="\#(id)-title""#))
            #expect(fragment.body.components(separatedBy: #"<rect class="drawing__fill ink--accent""#).count - 1 == 30)
        }
    }
}
