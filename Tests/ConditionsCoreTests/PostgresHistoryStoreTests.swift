import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import TestHarness
import Testing
@testable import ConditionsCore

/// What only the PostgreSQL store has: a login the server refuses, a server down or restarting.
/// (Its behaviour as a store: `HistoryStoreBehaviourTests`.)
@Suite struct PostgresHistoryStoreTests {
    let logger = Logger(label: "test")

    static func database(_ cluster: PostgresCluster, password: String? = nil, database: String? = nil) -> HistoryDatabase {
        HistoryDatabase(host: "127.0.0.1", port: cluster.port, user: cluster.user, database: database ?? cluster.database,
                        password: password ?? cluster.password, sslmode: .prefer, sslrootcert: nil)
    }

    @Test func aWrongPasswordOrAnUnknownDatabaseIsRefusedNamingTheURLWithoutThePassword() async throws {
        try await PostgresCluster.with { cluster in
            let wrong = await #expect(throws: HistoryError.self) {
                try await PostgresHistoryStore.open(Self.database(cluster, password: "not-the-password"), logger: logger)
            }
            #expect(wrong?.kind == .refused)
            #expect(wrong?.description == "\(cluster.url): password authentication failed for user \"conditions\"", "\(String(describing: wrong))")
            #expect(wrong?.description.contains("not-the-password") == false)
            let unknown = await #expect(throws: HistoryError.self) {
                try await PostgresHistoryStore.logIn(Self.database(cluster, database: "nowhere"), logger: logger)
            }
            #expect(unknown?.kind == .refused)
            #expect(unknown?.description.contains("database \"nowhere\" does not exist") == true, "\(String(describing: unknown))")
        }
    }

    @Test func aServerThatIsDownIsUnreachableNotRefused() async throws {
        try await PostgresCluster.with { cluster in
            try await cluster.stop()
            let error = await #expect(throws: HistoryError.self) { try await PostgresHistoryStore.open(Self.database(cluster), logger: logger) }
            #expect(error?.kind == .unreachable, "\(String(describing: error))")
            #expect(error?.description.hasPrefix(cluster.url + ": ") == true)
            try await cluster.start()
        }
    }

    @Test func aStoreConnectsAgainAfterTheServerRestarts() async throws {
        try await PostgresCluster.with { cluster in
            let store = try await PostgresHistoryStore.open(Self.database(cluster), logger: logger)
            let observation = { (minutes: Double) in HistoryStoreTests.observation("pass:stevens", "open", minutes: minutes) }
            try await store.record([observation(0)])
            try await cluster.restart()
            // The first call may find the old connection gone; one after it connects again.
            var recorded = false
            for attempt in 1...20 where !recorded {
                do {
                    try await store.record([observation(Double(attempt))])
                    recorded = true
                } catch {
                    #expect((error as? HistoryError)?.kind == .unreachable, "\(error)")
                }
            }
            #expect(recorded)
            let changes = try await store.changes(urn: "pass:stevens", from: HistoryStoreTests.start, to: HistoryStoreTests.start.addingTimeInterval(7200)).changes
            #expect(changes.count == 1 && changes[0].observations >= 2, "what was committed before the restart is there: \(changes)")
            await store.close()
        }
    }

    @Test func theSchemaVersionIsRecordedAndANewerOneRefused() async throws {
        try await PostgresCluster.with { cluster in
            let store = try await PostgresHistoryStore.open(Self.database(cluster), logger: logger)
            await store.close()
            try await cluster.psql("INSERT INTO conditions_history_migrations (version) VALUES (\(PostgresHistoryStore.latest + 1))", database: cluster.database)
            let error = await #expect(throws: HistoryError.self) { try await PostgresHistoryStore.open(Self.database(cluster), logger: logger) }
            #expect(error?.kind == .newerSchema)
            #expect(error?.reason.hasPrefix("written by a newer conditions (history schema \(PostgresHistoryStore.latest + 1)") == true, "\(String(describing: error))")
        }
    }
}
