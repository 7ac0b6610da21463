import Foundation

/// Replicas of `conditions serve` on one config, as a fleet runs them: each with its own state
/// folder (history spool) and cache folder, the database password in the environment.
enum ServeFleet {
    /// Replica `name`'s environment: the workspace's, with its own XDG folders and the password.
    static func environment(_ bench: Bench, replica name: String, cluster: ThrowawayPostgres?) -> [String: String] {
        var environment = bench.workspace.environment
        environment["XDG_STATE_HOME"] = bench.workspace.file("\(name)/state")
        environment["XDG_CACHE_HOME"] = bench.workspace.file("\(name)/cache")
        if let cluster { environment[ThrowawayPostgres.passwordVariable] = cluster.password }
        return environment
    }

    /// `count` replicas of `config` (named `prefix-0`, `prefix-1`, …), started one after another
    /// and each answering `/readyz` (its database reached) before `body` runs.
    static func with<T: Sendable>(_ bench: Bench, count: Int, config: String, prefix: String, cluster: ThrowawayPostgres?,
                                  _ body: ([RunningServer]) async throws -> T) async throws -> T {
        func start(_ running: [RunningServer]) async throws -> T {
            guard running.count < count else {
                for replica in running { try await waitUntilReady(replica) }
                return try await body(running)
            }
            return try await RunningServer.with(bench, ["--config", config, "--listen", "127.0.0.1:0"],
                                                environment: environment(bench, replica: "\(prefix)-\(running.count)", cluster: cluster)) { server in
                try await start(running + [server])
            }
        }
        return try await start([])
    }

    /// Asks `/readyz` until it answers 200, for at most 2 minutes.
    static func waitUntilReady(_ server: RunningServer) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        var last = 0
        while ContinuousClock.now < deadline {
            last = (try? await RawClients.exchange(port: server.port, count: 1, request: RawClients.get("/readyz"), timeout: 10))?.first?.status ?? 0
            if last == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Bench.Failed(description: "replica on port \(server.port) never became ready (/readyz answered \(last))")
    }
}
