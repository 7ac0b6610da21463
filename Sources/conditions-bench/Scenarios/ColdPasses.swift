import Foundation
import LoopbackServer

/// Scenario 15: one `conditions serve` (WSDOT API mode, a 2 s TTL, the cache off as in
/// scenario 9) and 30 clients each asking for 16 pass URNs (every pass and `pass:all`) at
/// once, cold; then the same again once the TTL has run out. Each round is one feed request
/// when identical upstream requests of concurrent resolutions share one fetch
/// (`UpstreamDocuments`); before, each URN fetched its own feed.
enum ColdPasses {
    static let clients = 30
    static let ttl = 2.0

    static func run(_ bench: Bench) async throws -> [Figure] {
        ServerLoad.raiseDescriptorLimit()
        let upstream = LoopbackServer()
        Upstreams.serveFeed(on: upstream, delay: bench.latency)
        do { try upstream.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { upstream.stop() }
        let config = try bench.workspace.config("cold-passes", sources: """
            "wsdot": {"module": "WSDOT", "ttl": \(Int(ttl)), "options": {"mode": "api", "baseURL": "\(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}
            """, routes: #""pass": "wsdot""#, extra: #", "cache": {"enabled": false}"#)
        let urns = Upstreams.passes.map { "pass:\($0.slug)" } + ["pass:all"]

        return try await RunningServer.with(bench, ["--config", config, "--listen", "127.0.0.1:0"]) { server in
            var rounds: [(requests: Int, answered: Int, seconds: Double)] = []
            for round in 0..<2 {
                if round > 0 { try await Task.sleep(for: .seconds(ttl + 0.5)) }
                // Connections first, then every request before any answer.
                var groups: [RawClients] = []
                for _ in urns { groups.append(try await RawClients.open(port: server.port, count: clients)) }
                upstream.resetStats()
                let started = ContinuousClock.now
                let replies = try await withThrowingTaskGroup(of: [RawClients.Reply].self) { group in
                    for (urn, clients) in zip(urns, groups) {
                        group.addTask { try await clients.send(RawClients.get("/v1/urn/\(urn)"), timeout: 60) }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let seconds = (started.duration(to: .now) / .seconds(1))
                for clients in groups { clients.close() }
                rounds.append((upstream.stats.totalRequests, replies.filter { $0.status == 200 }.count, seconds))
            }
            let asked = urns.count * clients
            let text = rounds.map { "\($0.requests) (\($0.answered)/\(asked) answered 200 in \(Figure.ms($0.seconds)) ms)" }.joined(separator: "; then ")
            return [
                .plain(15, "feed requests, \(clients) clients × \(urns.count) cold pass URNs, per TTL", value: Double(rounds.map(\.requests).max() ?? 0),
                       unit: "requests", text: text, target: "= 1 per TTL",
                       passed: rounds.allSatisfy { $0.requests == 1 && $0.answered == asked }),
            ]
        }
    }
}
