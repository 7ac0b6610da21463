import ConditionsKit
import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing
@testable import ConditionsServer

/// The snowfall card's bar chart: its geometry, and the page and card fragment over HTTP with
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

    @Test("bars to scale from the baseline; a gap for a slot not reported; zero and below get no height")
    func geometry() throws {
        let chart = BarChart(title: "New snow per day", unit: "in",
                             bars: [.init("Jan 1", 2), .init("Jan 2", nil), .init("Jan 3", 8), .init("Jan 4", 0), .init("Jan 5", -3)],
                             summary: "words")
        let view = BarChartShape.view(chart, id: "card-x")
        #expect(view["width"] as? String == "50")
        #expect(view["height"] as? String == "100")
        #expect(view["scale"] as? String == "8 in")
        #expect(view["first"] as? String == "Jan 1" && view["last"] as? String == "Jan 5")
        let bars = try #require(view["bars"] as? [[String: Any]])
        #expect(bars.map { $0["label"] as? String } == ["Jan 1", "Jan 3", "Jan 4", "Jan 5"])
        #expect(bars.map { $0["x"] as? String } == ["1", "21", "31", "41"])
        #expect(bars.map { $0["width"] as? String } == ["8", "8", "8", "8"])
        #expect(bars.map { $0["height"] as? String } == ["25", "100", "0", "0"])
        #expect(bars.map { $0["y"] as? String } == ["75", "0", "100", "100"])
        #expect(bars.map { $0["text"] as? String } == ["2 in", "8 in", "0 in", "-3 in"])
        // Nothing above zero: every bar flat, none divided by zero.
        let flat = BarChartShape.view(BarChart(title: "t", unit: "in", bars: [.init("a", 0), .init("b", 0)], summary: "s"), id: "f")
        #expect((flat["bars"] as? [[String: Any]])?.map { $0["height"] as? String } == ["0", "0"])
        #expect(BarChartShape.number(0.333333) == "0.33" && BarChartShape.number(2.5) == "2.5" && BarChartShape.number(1e300) == "1e+300")
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
            let id = "card-snowfall-snoqualmie-2023-chart"
            #expect(body.contains(#"<figure class="chart" id="\#(id)"><svg class="chart__plot" viewBox="0 0 300 100" preserveAspectRatio="none" role="img" aria-labelledby="\#(id)-title" aria-describedby="\#(id)-desc"><title id="\#(id)-title">New snow per day</title>"#), "\(body)")
            #expect(body.contains(#"<desc id="\#(id)-desc">New snow per day at Snoqualmie Pass I-90 from May 2 to May 31 2024: 1 in altogether, the most 0.4 in on May 10.</desc>"#))
            #expect(body.components(separatedBy: #"<rect class="chart__bar""#).count - 1 == 30)
            #expect(body.contains(#"<title>May 27: 0.1 in</title>"#))
            #expect(body.contains(#"<figcaption class="chart__caption"><bdi class="chart__title">New snow per day</bdi> <span class="chart__range"><bdi>May 2</bdi> – <bdi>May 31</bdi></span> <span class="chart__scale">top <bdi>0.4 in</bdi></span></figcaption>"#))
            #expect(body.contains("<dt dir=\"auto\"><bdi>Season total</bdi></dt><dd dir=\"auto\"><bdi>389.9 in</bdi></dd>"))
            // A pass without a record fails alone, naming those with one.
            #expect(body.contains("WSDOT keeps no snowfall record for Chinook Pass SR 410; only blewett, sherman, stevens, snoqualmie, white have one"))
            #expect(queries.all == ["MountainPassId=11&Year=2023"], "one request, and none for the pass without a record")

            // What the page's script fetches when the result changes: the same drawing.
            let fragment = try await server.request("/card?urn=snowfall:snoqualmie:2023&id=card-snowfall-snoqualmie-2023")
            #expect(fragment.status == 200)
            #expect(fragment.body.contains(#"aria-labelledby="\#(id)-title""#))
            #expect(fragment.body.components(separatedBy: #"<rect class="chart__bar""#).count - 1 == 30)
        }
    }
}
