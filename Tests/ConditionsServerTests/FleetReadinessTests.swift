import ConditionsJSON
import Foundation
import HostTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import TestHarness
import Testing
import TestSources
@testable import ConditionsCore
@testable import ConditionsServer

/// `/readyz` of a replica sharing PostgreSQL follows the database, against a real cluster
/// that is stopped and started under it; `/healthz` and answers do not.
@Suite(.serialized) struct FleetReadinessTests {
    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    /// Polls `condition` every 50 ms until it holds, for at most two minutes (only a failing
    /// test waits them out).
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        let end = Date().addingTimeInterval(120)
        while Date() < end {  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    @Test func readinessFollowsTheDatabaseAndAnswersGoOn() async throws {
        try await PostgresCluster.with { cluster in
            let workspace = try Workspace(config: #"""
                {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
                 "sources": {"echo": {"module": "Echo"}}, "routes": {"echo": "echo"}, "report": ["echo:loud"], "cache": {"enabled": false}}
                """#)
            defer { workspace.remove() }
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let fleet = FleetDatabase(
                configuration: .init(host: "127.0.0.1", port: cluster.port, username: cluster.user, password: cluster.password,
                                     database: cluster.database, tls: .disable),
                shownURL: cluster.url, logger: logger)
            let running = Task { await fleet.run() }
            defer { running.cancel() }
            let server = ConditionsServer(runtime: try workspace.runtime(catalog: SourceCatalog([EchoSource.self])),
                                          settings: ServerSettings(listen: ListenAddress("127.0.0.1:0")!, token: nil, cors: []),
                                          cachePolicy: .init(), logger: logger, fleet: fleet)
            try await Application(router: server.makeRouter()).test(.router) { client in
                #expect(try await Self.eventually { try await client.execute(uri: "/readyz", method: .get).status == .ok })
                let ready = Self.text(try await client.execute(uri: "/readyz", method: .get))
                #expect(ready.contains(#""ready":true"#) && ready.contains(#""database":"ready""#), "\(ready)")

                try await cluster.stop()
                #expect(try await Self.eventually { try await client.execute(uri: "/readyz", method: .get).status == .serviceUnavailable })
                let down = try await client.execute(uri: "/readyz", method: .get)
                let body = try JSONValue.parse(Self.text(down))
                #expect(body["ready"] == false)
                let reason = try #require(body["reason"]?.stringValue)
                #expect(reason.hasPrefix("PostgreSQL at \(cluster.url): "), "\(reason)")
                #expect(!reason.contains(cluster.password))
                #expect(down.headers[.cacheControl] == "no-store")
                // Alive and answering all the same.
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/v1/urn/echo:loud", method: .get).status == .ok)

                try await cluster.start()
                #expect(try await Self.eventually { try await client.execute(uri: "/readyz", method: .get).status == .ok })
            }
        }
    }
}
