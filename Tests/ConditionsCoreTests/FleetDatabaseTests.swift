@testable import ConditionsCore
import Foundation
import Logging
import PostgresNIO
import Synchronization
import TestHarness
import Testing

/// What replicas share besides history, against a real PostgreSQL (a throwaway cluster per
/// test): leases per document, stored documents, announcements, and what happens when the
/// database goes away and comes back.
@Suite(.serialized) struct FleetDatabaseTests {
    /// A replica's view of `cluster`, running until `body` ends.
    static func replica<T>(_ cluster: PostgresCluster, deadline: Duration = .seconds(60), _ body: (FleetDatabase) async throws -> T) async throws -> T {
        var configuration = PostgresClient.Configuration(host: "127.0.0.1", port: cluster.port, username: cluster.user,
                                                         password: cluster.password, database: cluster.database, tls: .disable)
        configuration.options.minimumConnections = 0
        // What the database answers is checked here, not how fast: a loaded CI machine has taken
        // over 2 s for one call. The test of its going away keeps the product's 2 s.
        let fleet = FleetDatabase(configuration: configuration, shownURL: cluster.url, logger: Logger(label: "fleet-test"), deadline: deadline)
        let running = Task { await fleet.run() }
        defer { running.cancel() }
        return try await body(fleet)
    }

    static func document(_ text: String, freshFor seconds: Double = 60) -> StoredDocument {
        let now = Date()
        return .init(status: 200, headers: ["content-type": "application/json"], body: Data(text.utf8),
                     url: URL(string: "https://wsdot.example/feed?AccessCode=REDACTED")!, fetchedAt: now, freshUntil: now.addingTimeInterval(seconds))
    }

    /// Polls `condition` every 50 ms until it holds, for at most two minutes (only a failing
    /// test waits them out).
    static func eventually(_ condition: () async -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(120)
        while Date() < end {  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return await condition()
    }

    @Test func oneReplicaLeasesAndStoresTheOtherReadsIt() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster) { a in
                try await Self.replica(cluster) { b in
                    // Both prepare at once: the advisory lock makes it one creation.
                    async let preparedA: Void = a.prepare()
                    async let preparedB: Void = b.prepare()
                    _ = try await (preparedA, preparedB)

                    let key = FleetDatabase.key("GET https://wsdot.example/feed")
                    #expect(key.count == 64 && !key.contains("wsdot"))
                    #expect(await a.fresh(key) == nil)
                    #expect(await a.lease(key, for: 30))
                    #expect(await !b.lease(key, for: 30), "held by a")
                    #expect(await !a.lease(key, for: 30), "a lease is not taken twice")

                    async let waited = b.awaitStored(key, timeout: .seconds(60))
                    let stored = Self.document(#"{"passes": 16}"#)
                    await a.store(key, stored)
                    let seen = await waited
                    #expect(seen?.body == stored.body)
                    #expect(seen?.headers == ["content-type": "application/json"])
                    #expect(seen?.url.absoluteString == "https://wsdot.example/feed?AccessCode=REDACTED")
                    #expect(seen?.status == 200)
                    #expect(await b.fresh(key)?.body == stored.body)
                    // Storing released the lease.
                    #expect(await b.lease(key, for: 30))
                    await b.release(key)
                    #expect(await a.lease(key, for: 30))
                }
            }
        }
    }

    @Test func aDocumentPastItsFreshnessIsNotShared() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster) { a in
                try await a.prepare()
                let key = FleetDatabase.key("GET /stale")
                await a.store(key, Self.document("old", freshFor: -1))
                #expect(await a.fresh(key) == nil)
                await a.store(key, Self.document("new"))
                #expect(await a.fresh(key)?.body == Data("new".utf8))
            }
        }
    }

    @Test func aLeaseWhoseHolderDiedExpires() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster) { b in
                try await b.prepare()
                let key = FleetDatabase.key("GET /feed")
                // A replica takes the lease for a second and is then killed (never stores).
                try await Self.replica(cluster) { a in #expect(await a.lease(key, for: 1)) }
                #expect(await !b.lease(key, for: 30))
                #expect(await b.awaitStored(key, timeout: .milliseconds(300)) == nil)
                #expect(await Self.eventually { await b.lease(key, for: 30) }, "the lease never expired")
            }
        }
    }

    /// What a stream of announcements delivered so far.
    final class Heard: Sendable {
        private let items = Mutex<[FleetDatabase.Announcement]>([])
        private let task = Mutex<Task<Void, Never>?>(nil)

        init(_ stream: AsyncStream<FleetDatabase.Announcement>) {
            task.withLock { $0 = Task { for await item in stream { self.items.withLock { $0.append(item) } } } }
        }

        var all: [FleetDatabase.Announcement] { items.withLock { $0 } }

        func cancel() { task.withLock { $0?.cancel() } }
    }

    @Test func announcementsReachEveryReplica() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster) { a in
                try await Self.replica(cluster) { b in
                    let theirs = Heard(b.announcements())
                    let own = Heard(a.announcements())
                    defer { theirs.cancel(); own.cancel() }
                    // Each LISTEN is up once an announcement made after it arrives: announce until
                    // both replicas have heard one.
                    #expect(await Self.eventually {
                        try? await cluster.psql("NOTIFY conditions_changes, '17 pass:stevens'", database: cluster.database)
                        try? await Task.sleep(for: .milliseconds(100))
                        return !theirs.all.isEmpty && !own.all.isEmpty
                    })
                    #expect(theirs.all.first == .change(id: 17, urn: "pass:stevens"))
                    #expect(own.all.allSatisfy { $0 == .change(id: 17, urn: "pass:stevens") })
                }
            }
        }
    }

    @Test func changesStoredWhileNotListeningAreToldOnReconnecting() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster) { a in
                let heard = Heard(a.announcements())
                defer { heard.cancel() }
                let store = try await PostgresHistoryStore.open(
                    HistoryDatabase(host: "127.0.0.1", port: cluster.port, user: cluster.user, database: cluster.database,
                                    password: cluster.password, sslmode: .disable, sslrootcert: nil),
                    logger: Logger(label: "fleet-test"))
                defer { Task { await store.close() } }
                // A change recorded through the store is announced when it commits.
                #expect(await Self.eventually {
                    _ = try? await store.record([HistoryObservation(urn: "pass:stevens", at: Date(), state: ResultState(status: "open"), result: [:])])
                    try? await Task.sleep(for: .milliseconds(100))
                    return !heard.all.isEmpty
                })
                // One written behind the function's back announces nothing; then the listening
                // connection is cut. Reconnecting, the replica tells it from history.
                try await cluster.psql("""
                    INSERT INTO conditions_history_changes (urn, first_seen, last_seen, status, key, result)
                    VALUES ('pass:white', now(), now(), 'closed', '\\x00', '{}')
                    """, database: cluster.database)
                try await cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
                #expect(await Self.eventually { heard.all.contains { if case .change(_, "pass:white") = $0 { true } else { false } } },
                        "\(heard.all)")
                #expect(heard.all.contains(.resumed))
            }
        }
    }

    @Test func theDatabaseGoingAwayIsNoticedAndItsReturnToo() async throws {
        try await PostgresCluster.with { cluster in
            try await Self.replica(cluster, deadline: .seconds(2)) { a in
                try await a.prepare()
                #expect(await Self.eventually { a.availability == .ready })
                let heard = Heard(a.announcements())
                defer { heard.cancel() }
                try await cluster.stop()
                // Every call answers "nothing shared" instead of waiting for the database.
                let key = FleetDatabase.key("GET /feed")
                #expect(await a.fresh(key) == nil)
                #expect(await !a.lease(key, for: 30))
                await a.store(key, Self.document("lost"))
                #expect(await Self.eventually {
                    if case .unavailable = a.availability { return true }
                    return false
                })
                try await cluster.start()
                #expect(await Self.eventually { a.availability == .ready })
                // The listener is back, and says announcements may have been missed.
                #expect(await Self.eventually { heard.all.contains(.resumed) })
                #expect(await a.lease(key, for: 30))
            }
        }
    }

    @Test func announcementsAreParsedStrictly() {
        #expect(FleetDatabase.announcement("17 pass:stevens") == .change(id: 17, urn: "pass:stevens"))
        #expect(FleetDatabase.announcement("17 moon:2026-11-26 12:00") == .change(id: 17, urn: "moon:2026-11-26 12:00"))
        #expect(FleetDatabase.announcement("x pass:a") == nil)
        #expect(FleetDatabase.announcement("17 ") == nil)
        #expect(FleetDatabase.announcement("17") == nil)
    }
}
