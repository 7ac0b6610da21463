import Foundation
import LoopbackServer

/// Scenario 6: a warm-cache report of 20 URNs (every pass by name, `pass:all`, and four
/// local moon answers) makes no upstream request and finishes within 2× of scenario 1.
enum WarmCache {
    static let slack = 2.0

    static let urns = Upstreams.passes.map { "pass:\($0.slug)" } + ["pass:all", "moon:now", "moon:2026-12-04", "phases:5", "phases:12"]

    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = LoopbackServer()
        Upstreams.servePages(on: server, delay: bench.latency)
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }
        let config = try bench.workspace.config("cache", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "html", "baseURL": "\(server.url("/passes").absoluteString)", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot", "moon": "astronomy", "phases": "astronomy""#)
        let arguments = ["--config", config, "--cache-dir", try bench.workspace.folder("cache/entries").path, "--quiet"] + urns

        // The first run fills the cache: one request per page.
        try await bench.conditions(arguments)
        let warming = server.stats.totalRequests
        var walls: [Double] = [], requests: [Int] = []
        for _ in 0..<bench.runs(15) {
            server.resetStats()
            walls.append(try await bench.conditions(arguments).wall)
            requests.append(server.stats.totalRequests)
        }
        let wall = Samples(walls)
        let local = try await LocalAnswer.median(bench)
        let most = requests.max() ?? 0
        return [
            .plain(6, "upstream requests, warm runs", value: Double(most), unit: "requests",
                   text: "\(most) (the cold run made \(warming))", target: "= 0", passed: most == 0),
            .time(6, "warm report, \(urns.count) URNs", wall,
                  target: String(format: "≤ %@ ms (2 × scenario 1)", Figure.ms(slack * local)), passed: wall.median <= slack * local),
        ]
    }
}
