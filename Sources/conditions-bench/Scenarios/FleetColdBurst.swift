import Foundation
import LoopbackServer

/// Scenario 16: a fleet cold. Three `conditions serve` replicas sharing a throwaway PostgreSQL
/// (`"history": {"url"}`: upstream documents, leases and history shared), each with its own
/// state and cache folders, behind nginx (round robin); WSDOT's API on a loopback stand-in
/// answering after the latency, a TTL of `ttl`. 1,000 clients ask at once, through nginx, for
/// the 16 pass URNs (the 15 passes and `pass:all`, ~63 clients each), cold; then again once the
/// TTL has run out, spread over a second in ten waves. Each round should cost the stand-in one
/// feed request for the whole fleet (a replica fetches it under a lease, the others read it
/// from the database) and answer every client 200: with the disk cache on, and off
/// (`"cache": {"enabled": false}`, as a fleet without a writable disk runs; issue 45), each
/// fleet on a cluster of its own.
enum FleetColdBurst {
    static let replicas = 3
    static let clients = 1000
    static let clientsText = "1,000"
    /// Long enough for a cold burst on a loaded machine to end within it, so a second feed
    /// request in a round is the fleet's doing, not the TTL's.
    static let ttl = 15.0

    /// The fleet's config: WSDOT's API on `upstream` with `ttl`, the moon local, history (and
    /// the fleet's sharing) in `cluster` when given, else in each replica's SQLite file.
    /// `diskCache` false: `"cache": {"enabled": false}`.
    static func config(_ bench: Bench, name: String, upstream: LoopbackServer, ttl: Double, cluster: ThrowawayPostgres?,
                       diskCache: Bool = true) throws -> String {
        try bench.workspace.config(name, sources: """
            "wsdot": {"module": "WSDOT", "ttl": \(Int(ttl)), "options": {"mode": "api", "baseURL": "\(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}
            """, routes: #""pass": "wsdot", "moon": "astronomy""#,
            extra: (cluster.map { #", "history": {"url": "\#($0.configURL)"}"# } ?? "") + (diskCache ? "" : #", "cache": {"enabled": false}"#))
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        var figures: [Figure] = []
        for diskCache in [true, false] { figures += try await run(bench, diskCache: diskCache) }
        return figures
    }

    static func run(_ bench: Bench, diskCache: Bool) async throws -> [Figure] {
        ServerLoad.raiseDescriptorLimit()
        let cache = diskCache ? "disk cache on" : "disk cache off"
        let upstream = LoopbackServer()
        Upstreams.serveFeed(on: upstream, delay: bench.latency)
        do { try upstream.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { upstream.stop() }
        let urns = Upstreams.passes.map { "pass:\($0.slug)" } + ["pass:all"]
        let loadBefore = ServerLoad.loadAverage()

        return try await ThrowawayPostgres.with(bench) { cluster in
            let config = try config(bench, name: diskCache ? "fleet-burst" : "fleet-burst-memory", upstream: upstream, ttl: ttl,
                                    cluster: cluster, diskCache: diskCache)
            return try await ServeFleet.with(bench, count: replicas, config: config, prefix: diskCache ? "burst" : "burst-memory", cluster: cluster) { fleet in
                try await Nginx.roundRobin(to: fleet.map(\.port), workspace: bench.workspace) { port, _ in
                    var rounds: [Round] = []
                    // The first round all at once; the second spread over a second (ten waves
                    // 100 ms apart, each asking URNs the earlier ones did not), as a real audience
                    // comes: a URN first asked after the feed arrived must find it kept.
                    for round in 0..<2 {
                        if round > 0 { try await Task.sleep(for: .seconds(ttl + 1)) }
                        rounds.append(try await burst(port: port, urns: urns, upstream: upstream, waves: round == 0 ? 1 : 10))
                    }
                    let loadAfter = ServerLoad.loadAverage()
                    var spread: [Int] = []
                    for replica in fleet { spread.append(try await urnRequests(replica)) }
                    var figures: [Figure] = [
                        .plain(16, "feed requests, \(clientsText) cold clients × \(urns.count) pass URNs via nginx to \(replicas) replicas, per TTL, \(cache)",
                               value: Double(rounds.map(\.feedRequests).max() ?? 0), unit: "requests",
                               text: rounds.map { "\($0.feedRequests) (\($0.answered)/\(clients) answered 200)" }.joined(separator: "; then, spread over 1 s, ")
                                   + "; replicas answered \(spread.map(String.init).joined(separator: " / "))",
                               target: "= 1 per TTL, all 200", passed: rounds.allSatisfy { $0.feedRequests == 1 && $0.answered == clients }),
                    ]
                    for (index, round) in rounds.enumerated() {
                        figures.append(.plain(16, "\(cache), cold burst \(index + 1): latency per client", value: round.latency.quantile(0.99) * 1000, unit: "ms",
                                              text: String(format: "p50 %.0f ms, p99 %.0f ms, max %.0f ms; all answered in %.0f ms", round.latency.median * 1000,
                                                           round.latency.quantile(0.99) * 1000, round.latency.max * 1000, round.seconds * 1000)))
                    }
                    figures.append(.plain(16, "load average (1 min) before / after", value: loadAfter, unit: "",
                                          text: String(format: "%.2f / %.2f", loadBefore, loadAfter)))
                    return figures
                }
            }
        }
    }

    /// How many `GET /v1/urn/…` `server` has answered, from its `/metrics`.
    static func urnRequests(_ server: RunningServer) async throws -> Int {
        let reply = try await RawClients.exchange(port: server.port, count: 1, request: RawClients.get("/metrics"), timeout: 30)[0]
        return String(decoding: reply.bytes, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix(#"conditions_http_requests_total{endpoint="/v1/urn""#) }
            .compactMap { Double($0.split(separator: " ").last ?? "") }
            .reduce(0) { $0 + Int($1) }
    }

    struct Round {
        var feedRequests: Int
        var answered: Int
        /// Seconds from each client's request to its complete answer.
        var latency: Samples
        /// Seconds from the first request to the last answer.
        var seconds: Double
    }

    /// `clients` connections to nginx spread over `urns`; the requests sent in `waves` 100 ms
    /// apart (URN i in wave i mod `waves`), one wave: every request before any answer.
    static func burst(port: Int, urns: [String], upstream: LoopbackServer, waves: Int = 1) async throws -> Round {
        var groups: [(String, RawClients)] = []
        for (index, urn) in urns.enumerated() {
            // 1,000 over 16: the first 8 URNs get 63 clients, the others 62.
            let count = clients / urns.count + (index < clients % urns.count ? 1 : 0)
            groups.append((urn, try await RawClients.open(port: port, count: count)))
        }
        defer { for (_, group) in groups { group.close() } }
        upstream.resetStats()
        let started = ContinuousClock.now
        let replies = try await withThrowingTaskGroup(of: [RawClients.Reply].self) { group in
            for (index, (urn, clients)) in groups.enumerated() {
                let wave = index % max(1, waves)
                group.addTask {
                    if wave > 0 { try await Task.sleep(for: .milliseconds(100 * wave)) }
                    return try await clients.send(RawClients.get("/v1/urn/\(urn)"), timeout: 120)
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = started.duration(to: .now) / .seconds(1)
        return Round(feedRequests: upstream.stats.totalRequests, answered: replies.filter { $0.status == 200 }.count,
                     latency: Samples(replies.map(\.seconds)), seconds: seconds)
    }
}
