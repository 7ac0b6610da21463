import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// Notices across a fleet (issue 43): three `serve` replicas on one throwaway PostgreSQL, each
/// polling a rule's URN. One change is one notice per target, whichever replicas saw it; the
/// replica sending a notice SIGKILLed mid-send, another delivers it under the same
/// `webhook-id`; the database down while a change happens, its notice sent once when it is
/// back. The source reads a state file the test writes, so every step is an event.
@Suite(.serialized) struct FleetNotifyTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// Records each POST; while `hang` is set, the next one is never answered.
    final class Receiver: Sendable {
        let server = LoopbackServer()
        let switches = Switch()

        /// Whether the next POST hangs (a class, so the handler can share it).
        final class Switch: Sendable {
            private let on = Mutex(false)
            func set() { on.withLock { $0 = true } }
            func take() -> Bool { on.withLock { value in defer { value = false }; return value } }
        }

        init() throws {
            let switches = switches
            server.fallback { _ in switches.take() ? .init(status: 204, delay: 3600) : .init(status: 204) }
            try server.start()
        }

        var ids: [String] { server.requests.filter { $0.method == "POST" }.compactMap { $0.headers["webhook-id"] } }
    }

    @Test func oneNoticePerChangeAcrossReplicasAndATakeoverAfterSIGKILL() async throws {
        let hook = try Receiver()
        defer { hook.server.stop() }
        try await PostgresCluster.with { cluster in
            let url = "postgres://\(cluster.user):${FLEET_PG_PASSWORD}@127.0.0.1:\(cluster.port)/\(cluster.database)?sslmode=disable"
            let dir = try Upstream.config(
                sources: #""gate": {"module": "Exec", "options": {"command": ["/bin/sh", "gate.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
                routes: #""pass": "gate""#,
                extra: #", "history": {"url": "\#(url)"}, "notify": {"targets": {"hook": {"webhook": "\#(hook.server.url("/hook").absoluteString)", "secret": "${HOOK_SECRET}"}}, "rules": [{"urns": ["pass:gate"], "to": ["hook"], "every": "1s"}]}"#)
            defer { try? FileManager.default.removeItem(at: dir) }
            try ServeHistoryTests.script(#"cat > /dev/null; printf '{"data": {"status": "%s"}}\n' "$(cat state 2>/dev/null || echo open)""#,
                                         at: dir.appendingPathComponent("gate.sh"))
            func environment(_ index: Int) -> [String: String] {
                let own = dir.appendingPathComponent("replica-\(index)")
                return ["FLEET_PG_PASSWORD": cluster.password, "HOOK_SECRET": Self.secret,
                        "XDG_STATE_HOME": own.appendingPathComponent("state").path, "XDG_CACHE_HOME": own.appendingPathComponent("cache").path]
            }
            func count(_ sql: String) async throws -> Int { Int(try await cluster.rows(sql).first ?? "") ?? -1 }
            func start(_ index: Int, _ servers: [ServeProcess], _ body: ([ServeProcess]) async throws -> Void) async throws {
                if index == 3 { return try await body(servers) }
                let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: environment(index)) { server in
                    try await start(index + 1, servers + [server], body)
                }
                #expect(ended.status == 0 || ended.status == 128 + SIGKILL, "replica \(index): \(ended.stderr)")
            }
            try await start(0, []) { servers in
                let pids = servers.map(\.pid)
                // Every replica has seen the first state (one change, three observations at least).
                #expect(try await FleetServeTests.eventually { try await count("SELECT coalesce(sum(observations), 0) FROM conditions_history_changes") >= 3 })
                try "closed".write(to: dir.appendingPathComponent("state"), atomically: true, encoding: .utf8)
                // Each replica sees "closed", each enqueues its notice: one row, one delivery.
                #expect(try await FleetServeTests.eventually {
                    let seen = try await count("SELECT observations FROM conditions_history_changes WHERE status = 'closed'")
                    let pending = try await count("SELECT count(*) FROM conditions_notices WHERE sent IS NULL")
                    return seen >= 3 && pending == 0 && !hook.ids.isEmpty
                })
                #expect(try await count("SELECT count(*) FROM conditions_notices") == 1)
                #expect(hook.ids.count == 1, "one notice for one change across three replicas: \(hook.ids)")

                // The next notice hangs in flight; its sender is killed; another replica sends it.
                hook.switches.set()
                try "open".write(to: dir.appendingPathComponent("state"), atomically: true, encoding: .utf8)
                #expect(try await FleetServeTests.eventually { hook.ids.count >= 2 })
                let claimant = try #require(try await cluster.rows("SELECT claimed_by FROM conditions_notices WHERE sent IS NULL").first)
                let pid = try #require(pid_t(claimant.split(separator: "/")[1]))
                try #require(pids.contains(pid), "a replica claimed it: \(claimant) of \(pids)")
                kill(pid, SIGKILL)
                #expect(try await FleetServeTests.eventually { hook.ids.count >= 3 }, "\(hook.ids)")
                let ids = hook.ids
                #expect(ids[2] == ids[1] && ids[1] != ids[0], "taken over under the same webhook-id: \(ids)")
                #expect(try await FleetServeTests.eventually { try await count("SELECT count(*) FROM conditions_notices WHERE sent IS NULL") == 0 })

                // The database down: the live replicas see the next change and spool it; when it
                // is back, the spooled change is stored once and its notice sent once, under its id.
                let live = servers.filter { $0.pid != pid }
                try await cluster.stop()
                for server in live { #expect(try await FleetServeTests.eventually { try await server.request("/readyz").status == 503 }) }
                try "closed".write(to: dir.appendingPathComponent("state"), atomically: true, encoding: .utf8)
                func spooled(_ index: Int) -> String {
                    let folder = dir.appendingPathComponent("replica-\(index)/state/conditions")
                    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                    return files.filter { $0.hasPrefix("history-spool.") }
                        .compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
                }
                let liveIndexes = servers.indices.filter { servers[$0].pid != pid }
                #expect(try await FleetServeTests.eventually { liveIndexes.allSatisfy { spooled($0).contains("closed") } }, "each live replica spooled the change")
                #expect(hook.ids.count == 3, "nothing sent while the database is down: \(hook.ids)")
                try await cluster.start()
                #expect(try await FleetServeTests.eventually {
                    let pending = try await count("SELECT count(*) FROM conditions_notices WHERE sent IS NULL")
                    return hook.ids.count >= 4 && pending == 0 && liveIndexes.allSatisfy { !spooled($0).contains("closed") }
                }, "\(hook.ids)")
                let after = hook.ids
                #expect(after.count == 4 && after[3] != after[1], "one notice for the spooled change, whichever replicas saw it: \(after)")
                let stored = try await cluster.rows("SELECT id FROM conditions_history_changes WHERE status = 'closed' ORDER BY id DESC LIMIT 1").first
                #expect(stored.map { after[3] == "\($0)-hook" } == true, "under the change's id: \(after[3]) \(stored ?? "")")
            }
        }
    }
}
