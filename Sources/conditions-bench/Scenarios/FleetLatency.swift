import Foundation
import LoopbackServer

/// Scenario 17: what sharing PostgreSQL and a proxy hop cost a request. wrk (100 connections,
/// 5 s after a 1 s warm-up, as scenario 9) on `GET /v1/urn/moon:now` (local: resolved every
/// second, its changes recorded) and a cached `GET /v1/urn/pass:snoqualmie`, against three
/// targets alive at once: nginx in front of three replicas sharing a throwaway PostgreSQL
/// (scenario 16's fleet), one of those replicas directly (the proxy hop told apart from the
/// database), and one replica on the same config without `history.url` (history in SQLite,
/// nothing shared). Rounds alternate the targets, so load that drifts weighs on all; figures
/// are medians of the rounds, with the CPU per request of every process serving it.
enum FleetLatency {
    static let replicas = 3

    static func run(_ bench: Bench) async throws -> [Figure] {
        ServerLoad.raiseDescriptorLimit()
        let upstream = LoopbackServer()
        Upstreams.serveFeed(on: upstream, delay: bench.latency)
        do { try upstream.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { upstream.stop() }
        let loadBefore = ServerLoad.loadAverage()
        // A TTL longer than the scenario: the pass stays cached throughout.
        let single = try FleetColdBurst.config(bench, name: "latency-sqlite", upstream: upstream, ttl: 3600, cluster: nil)

        return try await ThrowawayPostgres.with(bench) { cluster in
            let shared = try FleetColdBurst.config(bench, name: "latency-fleet", upstream: upstream, ttl: 3600, cluster: cluster)
            return try await ServeFleet.with(bench, count: replicas, config: shared, prefix: "latency", cluster: cluster) { fleet in
                try await ServeFleet.with(bench, count: 1, config: single, prefix: "latency-sqlite", cluster: nil) { alone in
                    try await Nginx.roundRobin(to: fleet.map(\.port), workspace: bench.workspace) { port, nginx in
                        let sqlite = alone[0]
                        // Every target has resolved the pass once (each replica through nginx).
                        for base in [sqlite.port] + Array(repeating: port, count: replicas * 2) {
                            let reply = try await RawClients.exchange(port: base, count: 1, request: RawClients.get("/v1/urn/pass:snoqualmie"), timeout: 60)[0]
                            guard reply.status == 200 else {
                                throw Bench.Failed(description: "pass:snoqualmie answered \(reply.status)", detail: String(decoding: reply.bytes, as: UTF8.self))
                            }
                        }
                        let targets: [(key: String, base: String, groups: [pid_t])] = [
                            ("fleet", "http://127.0.0.1:\(port)", [nginx] + fleet.map(\.pid)),
                            ("replica", fleet[0].base, [fleet[0].pid]),
                            ("sqlite", sqlite.base, [sqlite.pid]),
                        ]
                        let paths = ["/v1/urn/moon:now", "/v1/urn/pass:snoqualmie"]
                        var runs: [String: [WrkRun]] = [:]
                        for _ in 0..<bench.runs(3) {
                            for path in paths {
                                for target in targets {
                                    runs[target.key + path, default: []].append(try await load(target.base + path, bench, groups: target.groups))
                                }
                            }
                        }
                        let loadAfter = ServerLoad.loadAverage()
                        var figures: [Figure] = []
                        let names = ["fleet": "nginx → 3 replicas on PostgreSQL", "replica": "one of them directly", "sqlite": "one replica on SQLite"]
                        for path in paths {
                            let name = path.hasSuffix("snoqualmie") ? "pass:snoqualmie (cached)" : "moon:now"
                            for target in targets {
                                let summary = WrkSummary(runs[target.key + path] ?? [])
                                figures.append(.plain(17, "\(name), \(names[target.key] ?? target.key)", value: summary.p99 * 1000, unit: "ms p99",
                                                      text: summary.text))
                            }
                        }
                        figures.append(.plain(17, "load average (1 min) before / after", value: loadAfter, unit: "",
                                              text: String(format: "%.2f / %.2f", loadBefore, loadAfter)))
                        return figures
                    }
                }
            }
        }
    }

    /// Scenario 9's load, with the CPU of every process group serving it.
    static func load(_ url: String, _ bench: Bench, groups: [pid_t]) async throws -> WrkRun {
        _ = try await WrkRun.run(url, seconds: 1, workspace: bench.workspace)
        let cpu = { groups.reduce(0) { $0 + GroupCPU.seconds(group: $1) } }
        let before = cpu()
        var run = try await WrkRun.run(url, seconds: 5, workspace: bench.workspace)
        run.cpuPerRequest = (cpu() - before) / Double(max(run.requests, 1))
        return run
    }
}
