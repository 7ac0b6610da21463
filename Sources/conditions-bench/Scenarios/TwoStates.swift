import CaltransStandIn
import Foundation
import LoopbackServer

/// Scenario 19: `pass:all` for both states in one run (issue 42), every response after the same
/// loopback latency: Washington's from WSDOT's mobile feed (one request for 16 passes) and
/// California's from Caltrans's CWWP2 files (three per district, three districts, 9 passes),
/// the files asked concurrently; then both in one run through the shipped config's kind of
/// route (`{"join": [...]}`, each state's answer a result of its own). The target is the
/// requests: one per district file, however many passes; the times are side by side.
enum TwoStates {
    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = LoopbackServer()
        Upstreams.serveMobileFeed(on: server, delay: bench.latency)
        for (file, district, resource) in CaltransStandIn.defaults {
            let body = try CaltransStandIn.resource(resource)
            server.route("/cwwp2" + CaltransStandIn.path(file, district: district),
                         LoopbackServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body).delayed(bench.latency))
        }
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }

        let washington = try bench.workspace.config("two-states-wsdot", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\(server.url("/mobile").absoluteString)", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)
        let california = try bench.workspace.config("two-states-caltrans", sources: """
            "caltrans": {"module": "Caltrans", "options": {"baseURL": "\(server.url("/cwwp2").absoluteString)"}}
            """, routes: #""pass": "caltrans""#)
        let both = try bench.workspace.config("two-states-joined", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\(server.url("/mobile").absoluteString)", \(Upstreams.passesOption)}},
            "caltrans": {"module": "Caltrans", "options": {"baseURL": "\(server.url("/cwwp2").absoluteString)"}}
            """, routes: #""pass": {"join": ["wsdot", "caltrans"]}"#)

        func measure(_ config: String) async throws -> (Samples, requests: ClosedRange<Int>) {
            try await bench.coldRuns(of: "pass:all", config: config, server: server, runs: 7)
        }

        let (feedTime, feedRequests) = try await measure(washington)
        let (cwwp2Time, cwwp2Requests) = try await measure(california)
        let (bothTime, bothRequests) = try await measure(both)
        func count(_ range: ClosedRange<Int>) -> String { range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)" }
        let latency = String(format: "%.0f ms", bench.latency * 1000)
        return [
            .time(19, "pass:all, Washington: WSDOT's feed (\(latency) per response)", feedTime),
            .plain(19, "upstream requests, Washington", value: Double(feedRequests.upperBound), unit: "requests", text: count(feedRequests),
                   target: "= 1", passed: feedRequests == 1...1),
            .time(19, "pass:all, California: CWWP2, 3 districts × 3 files (\(latency) per response)", cwwp2Time),
            .plain(19, "upstream requests, California", value: Double(cwwp2Requests.upperBound), unit: "requests", text: count(cwwp2Requests),
                   target: "= 9 (one per district file)", passed: cwwp2Requests == 9...9),
            .plain(19, "California ÷ Washington", value: cwwp2Time.median / max(feedTime.median, 1e-9), unit: "×",
                   text: String(format: "%.2f×", cwwp2Time.median / max(feedTime.median, 1e-9))),
            .time(19, "pass:all, both states in one run (a joined route; the chains asked at once)", bothTime),
            .plain(19, "upstream requests, both states", value: Double(bothRequests.upperBound), unit: "requests", text: count(bothRequests),
                   target: "= 10 (the feed and each district file once)", passed: bothRequests == 10...10),
        ]
    }
}
