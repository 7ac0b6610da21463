import AsyncHTTPClient
import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// Several `conditions serve` replicas sharing one PostgreSQL (`"history": {"url"}`), through
/// the built binary on loopback against a throwaway cluster: one upstream request for a
/// document the whole fleet needs, a change one replica polls reaching another's history and
/// event streams, PostgreSQL restarted and unreachable under them, a replica killed holding a
/// lease, and a wrong password.
@Suite(.serialized) struct FleetServeTests {
    static let passwordVariable = "FLEET_PG_PASSWORD"

    /// The 16 pass URNs WSDOT's API feed answers (one document for all of them).
    static let passURNs = ["blewett", "cayuse", "chinook", "crystal-greenwater", "mt-baker", "north-cascade", "satus", "sherman",
                           "stevens", "snoqualmie", "white", "manastash", "loup-loup", "disautel", "wauconda", "all"]
        .map { "pass:\($0)" }

    /// A config for the fleet: WSDOT's API on `upstream` (a TTL of `ttl` s), the flipping
    /// Exec source of `ServeHistoryTests` for `flip:`, and history in `cluster`, its password
    /// from the environment.
    /// `fleetTimeout`: how long a replica waits for the database (`"history": {"fleetTimeout"}`);
    /// nil, the product's 2 s.
    /// `diskCache` false: `"cache": {"enabled": false}`, as a fleet without a writable disk runs.
    static func config(cluster: PostgresCluster, upstream: LoopbackServer, ttl: Int, fleetTimeout: String? = nil, diskCache: Bool = true) throws -> URL {
        let url = "postgres://\(cluster.user):${\(passwordVariable)}@127.0.0.1:\(cluster.port)/\(cluster.database)?sslmode=disable"
        let wait = fleetTimeout.map { #", "fleetTimeout": "\#($0)""# } ?? ""
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": \#(ttl), "options": {"mode": "api", "baseURL": "\#(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}, "flip": {"module": "Exec", "ttl": 0, "options": {"command": ["/bin/sh", "flip.sh"], "routes": ["flip:{name}"], "timeout": 600}}"#,
            routes: #""pass": "wsdot", "flip": "flip""#,
            extra: #", "history": {"url": "\#(url)"\#(wait)}"# + (diskCache ? "" : #", "cache": {"enabled": false}"#))
        try ServeHistoryTests.script(#"""
            name=$(sed 's/.*"name": *"\([^"]*\)".*/\1/')
            n=$(cat "count-$name" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "count-$name"
            if [ $((n % 2)) -eq 1 ]; then status=open; else status=closed; fi
            printf '{"data": {"status": "%s"}}\n' "$status"
            """#, at: dir.appendingPathComponent("flip.sh"))
        return dir
    }

    /// Replica `index`'s environment: its own state folder (history spool) and cache.
    static func environment(_ cluster: PostgresCluster, dir: URL, replica index: Int) -> [String: String] {
        let own = dir.appendingPathComponent("replica-\(index)")
        return ["WSDOT_ACCESS_CODE": "code-1234", passwordVariable: cluster.password,
                "XDG_STATE_HOME": own.appendingPathComponent("state").path, "XDG_CACHE_HOME": own.appendingPathComponent("cache").path]
    }

    /// A throwaway cluster, a WSDOT API stand-in (`upstream`, else one serving the winter
    /// feed) and the fleet's config (`ttl` s) for `body`; all gone afterwards.
    static func fleet(ttl: Int, upstream given: LoopbackServer? = nil, fleetTimeout: String? = nil, diskCache: Bool = true,
                      _ body: (PostgresCluster, LoopbackServer, URL) async throws -> Void) async throws {
        let upstream = given ?? LoopbackServer()
        if given == nil {
            upstream.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        }
        try upstream.start()
        defer { upstream.stop() }
        try await PostgresCluster.with { cluster in
            let dir = try config(cluster: cluster, upstream: upstream, ttl: ttl, fleetTimeout: fleetTimeout, diskCache: diskCache)
            defer { try? FileManager.default.removeItem(at: dir) }
            try await body(cluster, upstream, dir)
        }
    }

    /// `count` replicas of `dir`'s config, started one after another, running `body`.
    static func replicas(_ count: Int, cluster: PostgresCluster, dir: URL, _ body: ([ServeProcess]) async throws -> Void) async throws {
        func start(_ index: Int, _ running: [ServeProcess]) async throws {
            if index == count { return try await body(running) }
            let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir,
                                                    environment: environment(cluster, dir: dir, replica: index)) { server in
                try await start(index + 1, running + [server])
            }
            #expect(ended.status == 0 || ended.status == 128 + SIGKILL, "replica \(index): \(ended.stderr)")
        }
        try await start(0, [])
    }

    /// Polls `condition` every 50 ms until it holds, for at most two minutes (only a failing
    /// test waits them out).
    /// Whether `condition` comes to hold. A replica's spool reaches a database that came back
    /// after retries backing off to 30 s, each write given 5 s: on a loaded machine that took
    /// over two minutes once, so the guard against a hang is five.
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(300)
        while Date() < end {  // wall-clock-ok: a hang guard: it ends when the condition holds, 5 min after a hang
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    // MARK: One request per document

    /// One feed request is what the design promises while the database answers within the
    /// replicas' wait for it (a replica that gives up on a slow database fetches for itself, by
    /// design: no request waits on PostgreSQL for long). Under a loaded test run the product's
    /// 2 s was once outlasted, so this fleet waits a minute: the count measures sharing, not
    /// the machine's speed. With the disk cache on and off (issue 45: memory-only replicas
    /// share the document through the database just the same).
    @Test(arguments: [true, false])
    func aThousandColdRequestsAcrossThreeReplicasBehindNginxCostOneFeedRequest(diskCache: Bool) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: NginxCacheTests.nginx), "nginx-light is not installed (scripts/dev installs it)")
        try await Self.fleet(ttl: 300, fleetTimeout: "60s", diskCache: diskCache) { cluster, upstream, dir in
            try await Self.replicas(3, cluster: cluster, dir: dir) { replicas in
                let prefix = dir.appendingPathComponent("nginx")
                try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
                let port = try LoopbackServer.freePort()
                try Self.nginxConfig(prefix: prefix.path, port: port, replicas: replicas.map(\.port))
                    .write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
                try await NginxCacheTests.withNginx(prefix: prefix) {
                    let front = "http://127.0.0.1:\(port)"
                    try await NginxCacheTests.waitUntilAnswering(front + "/healthz")
                    // Every replica has its database before the cold burst.
                    for replica in replicas {
                        #expect(try await Self.eventually { try await replica.request("/readyz").status == 200 })
                    }
                    upstream.resetStats()
                    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<1000 {
                            group.addTask {
                                let urn = Self.passURNs[index % Self.passURNs.count]
                                let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: front + "/v1/urn/\(urn)"), timeout: .seconds(120))
                                _ = try await response.body.collect(upTo: 4 << 20)
                                return Int(response.status.code)
                            }
                        }
                        return try await group.reduce(into: [Int]()) { $0.append($1) }
                    }
                    #expect(statuses.count == 1000)
                    let errors = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                    #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count)) \(errors.suffix(1500))")
                    #expect(upstream.requestCount("/api/GetMountainPassConditionsAsJson") == 1, "one feed request for the whole fleet")
                    // Each replica answered some: nginx spread them.
                    for replica in replicas {
                        let metrics = try await replica.request("/metrics").body
                        #expect(metrics.contains(#"conditions_http_requests_total{endpoint="/v1/urn""#), "\(replica.port) answered none")
                    }
                }
            }
        }
    }

    /// The nginx front docs/server.md gives (its `upstream` and `server` blocks as written),
    /// on loopback: the documented replicas' ports replaced by the running ones, `listen 80` by
    /// a free port, inside the `http` block a test's nginx needs.
    static func nginxConfig(prefix: String, port: Int, replicas: [Int]) throws -> String {
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```nginx\nupstream conditions {\n"), "docs/server.md has no fleet nginx block")
        let end = try #require(doc[start.upperBound...].range(of: "```"))
        let documented = "upstream conditions {\n" + doc[start.upperBound..<end.lowerBound]
        var lines: [String] = []
        var replaced = false
        for line in documented.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.contains("server 127.0.0.1:808") {
                if !replaced { lines += replicas.map { "    server 127.0.0.1:\($0) max_fails=0;" } }
                replaced = true
            } else {
                lines.append(line.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);"))
            }
        }
        #expect(replaced && lines.contains { $0.contains("listen 127.0.0.1:\(port);") }, "the documented block changed shape")
        return NginxCacheTests.preamble(prefix: prefix, connections: 4096) + "\n" + lines.joined(separator: "\n") + "\n}\n"
    }

    // MARK: History and events across replicas

    @Test func aChangeOnOneReplicaReachesAnothersHistoryAndEventStreams() async throws {
        try await Self.fleet(ttl: 300) { cluster, upstream, dir in
            try await Self.replicas(2, cluster: cluster, dir: dir) { replicas in
                let (a, b) = (replicas[0], replicas[1])
                for replica in replicas { #expect(try await Self.eventually { try await replica.request("/readyz").status == 200 }) }
                // B's stream polls once a day: a change can only reach it from A, through PostgreSQL.
                let stream = try await EventStreamClient.open(b, "/v1/events?urn=flip:stevens&every=1d")
                let (initial, change): (EventStreamClient.Block?, EventStreamClient.Block?)
                do {
                    initial = try await stream.next()
                    // A resolves the same URN: the flip makes it closed, a change A records.
                    let reply = try await a.request("/v1/urn/flip:stevens")
                    #expect((reply.object["data"] as? [String: Any])?["status"] as? String == "closed")
                    change = try await stream.next()
                } catch {
                    await stream.close()
                    throw error
                }
                await stream.close()
                #expect(initial?.name == "initial" && initial?.after == "open", "\(String(describing: initial))")
                #expect(change?.name == "change" && change?.before == "open" && change?.after == "closed", "\(String(describing: change))")
                #expect((change?.id ?? 0) > (initial?.id ?? 0), "\(String(describing: change))")
                // B's history shows what A recorded, and A's the same.
                for replica in [b, a] {
                    let history = try await replica.request("/v1/history/flip:stevens?since=1h")
                    let statuses = (history.object["changes"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
                    #expect(statuses == ["open", "closed"], "\(history.body)")
                }
            }
        }
    }

    // MARK: Faults

    /// What a load loop answered, and when to stop it.
    final class Load: Sendable {
        let statuses = Mutex<[Int]>([])
        let stop = Mutex(false)
    }

    @Test func restartingPostgreSQLUnderLoadFailsNoRequestAndLosesNoChange() async throws {
        try await Self.fleet(ttl: 1) { cluster, upstream, dir in
            try await Self.replicas(2, cluster: cluster, dir: dir) { replicas in
                for replica in replicas { #expect(try await Self.eventually { try await replica.request("/readyz").status == 200 }) }
                let load = Load()
                // Load on both replicas for the whole restart.
                let running = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for (index, replica) in replicas.enumerated() {
                            group.addTask {
                                var n = 0
                                while !load.stop.withLock({ $0 }) {
                                    // Passes only: the flip's counter is one for all its URNs (its script reads
                                    // the last "name" of its input), which the outage's flips below count on.
                                    let urn = Self.passURNs[(n + index) % Self.passURNs.count]
                                    let reply = try await replica.request("/v1/urn/\(urn)")
                                    load.statuses.withLock { $0.append(reply.status) }
                                    n += 1
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                try await Task.sleep(for: .milliseconds(500))
                try await cluster.stop()
                // While it is down, each replica sees a change of its own URN, and both see
                // the same change of a shared one (the flip's counter is shared: the second
                // resolution flips it back, so both are recorded: open, then closed).
                for replica in replicas {
                    #expect(try await Self.eventually { try await replica.request("/readyz").status == 503 })
                }
                let seen = try await [replicas[0].request("/v1/urn/flip:outage"), replicas[1].request("/v1/urn/flip:outage")]
                #expect(seen.map { ($0.object["data"] as? [String: Any])?["status"] as? String } == ["open", "closed"])
                try await cluster.start()
                for replica in replicas { #expect(try await Self.eventually { try await replica.request("/readyz").status == 200 }) }
                load.stop.withLock { $0 = true }
                try await running.value
                let all = load.statuses.withLock { $0 }
                #expect(all.count > 10)
                #expect(all.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: all, by: { $0 }).mapValues(\.count))")
                // What each replica spooled reached the store, in order, once.
                #expect(try await Self.eventually {
                    let history = try await replicas[1].request("/v1/history/flip:outage?since=1h")
                    return (history.object["changes"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == ["open", "closed"]
                })
            }
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func next() -> Int { count.withLock { $0 += 1; return $0 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func killingTheReplicaHoldingALeaseStallsNothing() async throws {
        let upstream = LoopbackServer()
        let body = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        let calls = Counter()
        // The first feed request never ends; the next ones answer.
        upstream.route("/api/GetMountainPassConditionsAsJson") { _ in
            calls.next() == 1 ? LoopbackServer.Response.json(body).delayed(3600) : .json(body)
        }
        try await Self.fleet(ttl: 300, upstream: upstream) { cluster, _, dir in
            try await Self.replicas(2, cluster: cluster, dir: dir) { replicas in
                let (a, b) = (replicas[0], replicas[1])
                for replica in replicas { #expect(try await Self.eventually { try await replica.request("/readyz").status == 200 }) }
                // A takes the feed's lease and hangs on the upstream; then it is killed.
                let hung = Task { try? await a.request("/v1/urn/pass:stevens") }
                #expect(try await Self.eventually { calls.value == 1 })
                kill(a.pid, SIGKILL)
                _ = await hung.value
                // B is not stuck behind the dead replica's lease.
                let reply = try await b.request("/v1/urn/pass:stevens")
                #expect(reply.status == 200, "\(reply.body)")
                #expect(calls.value == 2)
            }
        }
    }

    @Test func unreachableAtStartServesAndRecordsOnceItReturns() async throws {
        try await Self.fleet(ttl: 300) { cluster, upstream, dir in
            try await cluster.stop()
            let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: Self.environment(cluster, dir: dir, replica: 0)) { server in
                #expect(try await server.request("/healthz").status == 200)
                let ready = try await server.request("/readyz")
                #expect(ready.status == 503)
                #expect((ready.object["reason"] as? String)?.hasPrefix("PostgreSQL at postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/\(cluster.database)") == true, "\(ready.body)")
                #expect(!ready.body.contains(cluster.password))
                #expect(try await server.request("/v1/urn/pass:stevens").status == 200)
                #expect(try await server.request("/v1/urn/flip:start").status == 200)
                try await cluster.start()
                #expect(try await Self.eventually { try await server.request("/readyz").status == 200 })
                #expect(try await Self.eventually {
                    let history = try await server.request("/v1/history/flip:start?since=1h")
                    return (history.object["changes"] as? [[String: Any]])?.count == 1
                }, "the change seen while the database was away was written when it came back")
            }
            #expect(ended.status == 0, "\(ended.stderr)")
            let unavailable = ended.stderr.split(separator: "\n").filter { $0.contains("is unavailable") }
            #expect(unavailable.count == 1, "logged once: \(ended.stderr)")
            #expect(!ended.stderr.contains(cluster.password))
        }
    }

    @Test func aWrongPasswordIsAConfigurationErrorForCheckAndServe() async throws {
        try await Self.fleet(ttl: 300) { cluster, upstream, dir in
            var environment = Self.environment(cluster, dir: dir, replica: 0)
            environment[Self.passwordVariable] = "not-the-password"
            let shown = "postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/\(cluster.database)"
            let check = try await CLI.run(["check"], in: dir, environment: environment)
            #expect(check.status == 2, "\(check.stderr)")
            #expect(check.stderr.contains(shown) && !check.stderr.contains("not-the-password"), "\(check.stderr)")
            let serve = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: environment) { _ in
                Issue.record("serve started with a wrong password")
            }
            #expect(serve.status == 2, "\(serve.stderr)")
            let lines = serve.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(shown) && !serve.stderr.contains("not-the-password"), "\(serve.stderr)")
        }
    }
}
