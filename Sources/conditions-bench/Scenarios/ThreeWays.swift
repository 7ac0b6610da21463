import Foundation
import LoopbackServer
import WSDOTStandIn

/// Scenario 12: `pass:all` three ways in one run, every response after the same loopback
/// latency: WSDOT's mobile feed (one request), the plain-HTML fan-out (15 pages, as wsdot.com's
/// classic pages were), and today's pages rendered by chromium-headless-shell (15 pages, each
/// fetching its report after load: two round trips, at most six browsers at once). Why the
/// shipped config reads the feed first; the figures are for comparison, the only target is
/// the feed's single request.
enum ThreeWays {
    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = LoopbackServer()
        Upstreams.serveMobileFeed(on: server, delay: bench.latency)
        Upstreams.servePages(on: server, delay: bench.latency)
        for pass in Upstreams.passes {
            server.route("/mountainpasses/\(Upstreams.siteSlug(pass))",
                         LoopbackServer.Response.text(ScriptFilledPassPage.html(reportPath: "/data/\(pass.slug).json"), contentType: "text/html; charset=utf-8")
                             .delayed(bench.latency))
            server.route("/data/\(pass.slug).json", LoopbackServer.Response.json(Rendering.report).delayed(bench.latency))
        }
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }

        let feed = try bench.workspace.config("three-feed", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\(server.url("/mobile").absoluteString)", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)
        let plain = try bench.workspace.config("three-plain", sources: """
            "wsdot": {"module": "WSDOT", "options": {"baseURL": "\(server.url("/passes").absoluteString)", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)
        let rendered = try bench.workspace.config("three-rendered", sources: """
            "wsdot": {"module": "WSDOT", "options": {"baseURL": "\(server.url("/mountainpasses").absoluteString)", "render": "chromium", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)

        func measure(_ config: String, runs: Int) async throws -> (Samples, requests: ClosedRange<Int>) {
            try await bench.coldRuns(of: "pass:all", config: config, server: server, runs: runs)
        }

        let (feedTime, feedRequests) = try await measure(feed, runs: 7)
        let (plainTime, plainRequests) = try await measure(plain, runs: 7)
        let (renderedTime, renderedRequests) = try await measure(rendered, runs: 3)
        func count(_ range: ClosedRange<Int>) -> String { range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)" }
        let latency = String(format: "%.0f ms", bench.latency * 1000)
        return [
            .time(12, "pass:all from the mobile feed (\(latency) per response)", feedTime),
            .plain(12, "upstream requests, mobile feed", value: Double(feedRequests.upperBound), unit: "requests", text: count(feedRequests),
                   target: "= 1", passed: feedRequests == 1...1),
            .time(12, "pass:all, plain-HTML fan-out (15 pages)", plainTime),
            .plain(12, "upstream requests, plain HTML", value: Double(plainRequests.upperBound), unit: "requests", text: count(plainRequests)),
            .time(12, "pass:all, rendered pages (15, ≤ 6 browsers at once)", renderedTime),
            .plain(12, "upstream requests, rendered pages", value: Double(renderedRequests.upperBound), unit: "requests", text: count(renderedRequests)),
            .plain(12, "rendered ÷ feed", value: renderedTime.median / max(feedTime.median, 1e-9), unit: "×",
                   text: String(format: "%.1f×", renderedTime.median / max(feedTime.median, 1e-9))),
        ]
    }
}
