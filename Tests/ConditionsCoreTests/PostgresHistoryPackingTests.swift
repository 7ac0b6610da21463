import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import TestHarness
import Testing
@testable import ConditionsCore

/// Schema 4's packing (`PostgresHistoryStore+Packing`): settled changes move together by URN,
/// keeping their ids and contents, while writers go on.
@Suite struct PostgresHistoryPackingTests {
    let logger = Logger(label: "test")
    static let urns = (0..<12).map { "pass:packing-\($0)" }
    static let statuses = ["open", "restricted", "closed"]

    /// A day of polls 5 minutes apart ending `end`, every URN in each, every observation a
    /// new change (the status turns each poll), with a ~700-byte result as a pass's.
    static func polls(ending end: Date, count: Int) -> [[HistoryObservation]] {
        (0..<count).map { poll in
            let at = end.addingTimeInterval(Double(poll - count + 1) * 300)
            return urns.enumerated().map { number, urn in
                let status = statuses[(poll + number) % 3]
                let result: JSONValue = ["urn": .string(urn), "data": ["status": .string(status),
                                                                       "note": .string(String(repeating: "snow ", count: 140))]]
                return HistoryObservation(urn: urn, at: at, state: ResultState(status: status, detail: ""), result: result)
            }
        }
    }

    /// For each URN, how many heap pages its changes with `packed` as given occupy.
    static func pages(_ cluster: PostgresCluster, packed: Bool) async throws -> [String: Int] {
        let lines = try await cluster.rows("""
            SELECT urn || ' ' || count(DISTINCT (ctid::text::point)[0]) FROM conditions_history_changes
             WHERE packed = \(packed) GROUP BY urn
            """)
        return Dictionary(uniqueKeysWithValues: lines.compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
        })
    }

    @Test func settledChangesMoveTogetherByURNAndEveryReadAnswersAsBefore() async throws {
        try await PostgresCluster.with { cluster in
            let store = try await PostgresHistoryStore.open(PostgresHistoryStoreTests.database(cluster), retain: 400 * 86400, logger: logger)
            let now = Date()
            // Written in one call, so the pass after it sees the whole day: 288 polls, 3,456 changes.
            // Half a poll off the hour, so which changes have settled is not a matter of milliseconds.
            let polls = Self.polls(ending: now.addingTimeInterval(-150), count: 288)
            store.nextPacking.withLock { $0 = .distantFuture }
            try await store.record(polls.flatMap { $0 })
            let window = (from: now.addingTimeInterval(-2 * 86400), to: now)
            var before: [String: [HistoryChange]] = [:]
            for urn in Self.urns { before[urn] = try await store.changes(urn: urn, from: window.from, to: window.to).changes }
            let streamBefore = try await store.changes(afterID: 0, urns: [], limit: 100_000)
            let scattered = try await Self.pages(cluster, packed: false)
            #expect(scattered.count == Self.urns.count && scattered.values.allSatisfy { $0 >= 250 },
                    "before packing, a URN's 288 changes are spread over a page each or so: \(scattered)")

            // A write packs when due: the changes last seen an hour ago or more, not the last hour's.
            store.nextPacking.withLock { $0 = .distantPast }
            try await store.record(Self.polls(ending: now.addingTimeInterval(300), count: 1)[0])
            let counts = try await cluster.rows("SELECT packed, count(*) FROM conditions_history_changes GROUP BY packed ORDER BY packed")
            let settled = polls.filter { $0[0].at < now.addingTimeInterval(-PostgresHistoryStore.settledAfter) }.count * Self.urns.count
            #expect(counts == ["f|\(3456 + 12 - settled)", "t|\(settled)"], "\(counts)")
            let packed = try await Self.pages(cluster, packed: true)
            // 276 settled changes of ~800 bytes: ~28 pages when adjacent.
            #expect(packed.count == Self.urns.count && packed.values.allSatisfy { $0 <= 32 }, "packed, a URN's changes share pages: \(packed)")

            // Every read answers as before: the same ids, times, counts and results.
            for urn in Self.urns {
                let after = try await store.changes(urn: urn, from: window.from, to: window.to).changes
                #expect(after == before[urn], "\(urn)")
            }
            let streamAfter = try await store.changes(afterID: 0, urns: [], limit: 100_000)
            #expect(Array(streamAfter.prefix(streamBefore.count)) == streamBefore)
            #expect(streamAfter.count == streamBefore.count + Self.urns.count)

            // A packed change goes on collecting its observations; a second pass moves nothing again.
            let latest = try #require(try await store.changes(afterID: 0, urns: [Self.urns[0]], limit: 100_000).last)
            try await store.record([HistoryObservation(urn: Self.urns[0], at: now.addingTimeInterval(600),
                                                       state: ResultState(status: latest.status, detail: ""), result: ["urn": .string(Self.urns[0])])])
            let extended = try #require(try await store.changes(afterID: 0, urns: [Self.urns[0]], limit: 100_000).last)
            #expect(extended.id == latest.id && extended.observations == latest.observations + 1)
            #expect(try await store.pack(settledBefore: now.addingTimeInterval(-PostgresHistoryStore.settledAfter), most: nil) == 0)
            await store.close()
        }
    }

    @Test func aPassMovesAtMostItsShareOldestFirstAndOneProcessPacksAtATime() async throws {
        try await PostgresCluster.with { cluster in
            let database = PostgresHistoryStoreTests.database(cluster)
            let store = try await PostgresHistoryStore.open(database, retain: 400 * 86400, logger: logger)
            store.nextPacking.withLock { $0 = .distantFuture }
            let now = Date()
            try await store.record(Self.polls(ending: now.addingTimeInterval(-7200), count: 10).flatMap { $0 })
            #expect(try await store.pack(settledBefore: now, most: 30) == 30)
            let oldest = try await cluster.rows("SELECT count(*) FROM conditions_history_changes WHERE packed AND last_seen < "
                                                + "to_timestamp(\(now.addingTimeInterval(-7200 - 6.5 * 300).timeIntervalSince1970))")
            #expect(oldest == ["30"], "the 30 moved are among the oldest 36 (the first 3 polls)")
            // Another process packing (it holds the packing lock): this one moves nothing, at once.
            let holder = try await PostgresHistoryStore.open(database, retain: 400 * 86400, logger: logger)
            try await holder.execute("SELECT pg_advisory_lock(4850181379012510539)")
            #expect(try await store.pack(settledBefore: now, most: nil) == 0)
            try await holder.execute("SELECT pg_advisory_unlock(4850181379012510539)")
            await holder.close()
            #expect(try await store.pack(settledBefore: now, most: nil) == 90)
            await store.close()
        }
    }

    /// `--vacuum` packs every settled change, a pass of `packedPerPass` at a time until none is left.
    @Test func vacuumPacksEverySettledChangeInPasses() async throws {
        try await PostgresCluster.with { cluster in
            let store = try await PostgresHistoryStore.open(PostgresHistoryStoreTests.database(cluster), retain: 400 * 86400, logger: logger)
            store.nextPacking.withLock { $0 = .distantFuture }
            let now = Date()
            // 12 URNs × 450 polls: 5,400 changes, more than one pass moves.
            try await store.record(Self.polls(ending: now.addingTimeInterval(-7200), count: 450).flatMap { $0 })
            #expect(5400 > PostgresHistoryStore.packedPerPass)
            _ = try await store.vacuum(now: now)
            #expect(try await cluster.rows("SELECT packed, count(*) FROM conditions_history_changes GROUP BY packed") == ["t|5400"])
            await store.close()
        }
    }

    @Test func writersExtendingChangesWhileTheyMoveLoseNoObservation() async throws {
        try await PostgresCluster.with { cluster in
            let database = PostgresHistoryStoreTests.database(cluster)
            let writer = try await PostgresHistoryStore.open(database, retain: 400 * 86400, logger: logger)
            let packer = try await PostgresHistoryStore.open(database, retain: 400 * 86400, logger: logger)
            writer.nextPacking.withLock { $0 = .distantFuture }
            let start = Date().addingTimeInterval(-86400)
            // Each URN's one change, extended by every write; the packer moves them again and again.
            let rounds = 150
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for round in 0..<rounds {
                        try await writer.record(Self.urns.map { urn in
                            HistoryObservation(urn: urn, at: start.addingTimeInterval(Double(round)), state: ResultState(status: "open", detail: ""),
                                               result: ["urn": .string(urn)])
                        })
                    }
                }
                group.addTask {
                    for _ in 0..<rounds {
                        try await packer.execute("UPDATE conditions_history_changes SET packed = false")
                        try await packer.pack(settledBefore: Date(), most: nil)
                    }
                }
                try await group.waitForAll()
            }
            let totals = try await cluster.rows("SELECT count(*) || ' ' || sum(observations) FROM conditions_history_changes")
            #expect(totals == ["\(Self.urns.count) \(Self.urns.count * rounds)"],
                    "one change per URN holding every observation")
            await writer.close()
            await packer.close()
        }
    }
}
