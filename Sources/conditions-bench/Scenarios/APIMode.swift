import Foundation
import LoopbackServer

/// Scenario 3: `pass:all` in WSDOT API mode makes exactly one upstream request.
enum APIMode {
    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = LoopbackServer()
        Upstreams.serveFeed(on: server, delay: bench.latency)
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }
        let config = try bench.workspace.config("api", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\(server.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}
            """, routes: #""pass": "wsdot""#)
        let arguments = ["--config", config, "--no-cache", "pass:all"]
        try await bench.conditions(arguments)
        var walls: [Double] = [], requests: [Int] = []
        for _ in 0..<bench.runs(5) {
            server.resetStats()
            walls.append(try await bench.conditions(arguments).wall)
            requests.append(server.stats.totalRequests)
        }
        let most = requests.max() ?? 0, fewest = requests.min() ?? 0
        return [
            .plain(3, "upstream requests for pass:all (API)", value: Double(most), unit: "requests",
                   text: fewest == most ? "\(most)" : "\(fewest)–\(most)", target: "= 1", passed: fewest == 1 && most == 1),
            .time(3, "pass:all (API, one feed)", Samples(walls)),
        ]
    }
}
