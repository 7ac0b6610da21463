import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import TestHarness
import Testing
@testable import ConditionsCore

/// Which store a behaviour test runs against.
enum StoreKind: String, CustomTestStringConvertible, CaseIterable, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// The history store's behaviour, the same on both stores: each test runs against an SQLite
/// file and against a PostgreSQL database of a throwaway cluster (`PostgresCluster`).
///
/// Serialized: an SQLite store waiting for another's write lock holds one of NIOThreadPool's
/// threads (as many as cores, 2 in CI) while it waits, so the two concurrency tests' SQLite
/// cases at once could leave no thread for the store holding the lock.
@Suite(.serialized) struct HistoryStoreBehaviourTests {
    static let start = HistoryStoreTests.start
    let logger = Logger(label: "test")

    static func observation(_ urn: String, _ status: String, minutes: Double, detail: String = "", extra: String = "") -> HistoryObservation {
        HistoryStoreTests.observation(urn, status, minutes: minutes, detail: detail, extra: extra)
    }

    /// Runs `body` with a way to open stores on one fresh store of `kind` (every call opens
    /// another store on the same file or database), then removes it.
    static func withStore<T>(_ kind: StoreKind, _ body: (_ open: @escaping @Sendable (Double) async throws -> any HistoryStoring) async throws -> T) async throws -> T {
        let logger = Logger(label: "test")
        switch kind {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-history-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("history.sqlite")
            return try await body { retain in try await HistoryLocation.file(file).open(retain: retain, logger: logger) }
        case .postgres:
            return try await PostgresCluster.with { cluster in
                let database = HistoryDatabase(host: "127.0.0.1", port: cluster.port, user: cluster.user, database: cluster.database,
                                               password: cluster.password, sslmode: .disable, sslrootcert: nil)
                return try await body { retain in try await HistoryLocation.postgres(database).open(retain: retain, logger: logger) }
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func observationsWithTheSameKeyCollapseIntoOneChange(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            let store = try await open(Configuration.HistorySettings.defaultRetain)
            let first = try await store.record([Self.observation("pass:stevens", "open", minutes: 0, extra: "first"),
                                                Self.observation("pass:stevens", "open", minutes: 5, extra: "second")])
            let second = try await store.record([Self.observation("pass:stevens", "open", minutes: 10),
                                                 Self.observation("pass:stevens", "closed", minutes: 15),
                                                 Self.observation("pass:stevens", "closed", minutes: 20, detail: "chains required"),
                                                 Self.observation("pass:white", "open", minutes: 25),
                                                 Self.observation("pass:stevens", "open", minutes: 25)])
            #expect(first.count == 2 && first[0] == first[1], "the second observation joined the first's change: \(first)")
            #expect(second.count == 5)
            #expect(second[0] == first[0])
            #expect(Set(second).count == 5, "four new changes of pass:stevens and one of pass:white: \(second)")
            let (changes, truncated) = try await store.changes(urn: "pass:stevens", from: Self.start, to: Self.start.addingTimeInterval(3600))
            #expect(!truncated)
            #expect(changes.map(\.status) == ["open", "closed", "closed", "open"])
            #expect(changes.map(\.id) == [first[0], second[1], second[2], second[4]], "each change carries the id record gave")
            #expect(changes[0].observations == 3)
            #expect(changes[0].firstSeen == Self.start)
            #expect(changes[0].lastSeen == Self.start.addingTimeInterval(600))
            #expect(changes[0].result["data"]?["note"]?.stringValue == "first", "a change keeps the result that showed it first, in full")
            #expect(try await store.count() == 5)
            await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWindowHoldsTheChangesCurrentDuringItAndALimitKeepsTheLatest(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            let store = try await open(Configuration.HistorySettings.defaultRetain)
            var batch: [HistoryObservation] = []
            for minute in stride(from: 0.0, through: 150, by: 10) {
                batch.append(Self.observation("pass:snoqualmie", (60...110).contains(minute) ? "closed" : "open", minutes: minute))
            }
            try await store.record(batch)
            let at = { (minutes: Double) in Self.start.addingTimeInterval(minutes * 60) }
            #expect(try await store.changes(urn: "pass:snoqualmie", from: at(70), to: at(200)).changes.map(\.status) == ["closed", "open"])
            #expect(try await store.changes(urn: "pass:snoqualmie", from: at(52), to: at(58)).changes.isEmpty)
            #expect(try await store.changes(urn: "pass:snoqualmie", from: at(0), to: at(0)).changes.map(\.status) == ["open"])
            let latest = try await store.changes(urn: "pass:snoqualmie", from: at(0), to: at(200), limit: 2)
            #expect(latest.changes.map(\.status) == ["closed", "open"], "a limit keeps the latest, oldest first")
            #expect(latest.truncated)
            let all = try await store.changes(urn: "pass:snoqualmie", from: at(0), to: at(200), limit: 3)
            #expect(all.changes.count == 3 && !all.truncated)
            #expect(try await store.changes(urn: "pass:unknown", from: at(0), to: at(200)).changes.isEmpty)
            await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func writesPruneExpiredChangesAFewAtATimeAndVacuumTheRest(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            let store = try await open(3600)
            try await store.record((0..<20).map { Self.observation("pass:old", $0 % 2 == 0 ? "open" : "closed", minutes: Double($0)) })
            #expect(try await store.count() == 20)
            let later = 24 * 60.0
            try await store.record([Self.observation("pass:new", "open", minutes: later)])
            #expect(try await store.count() == 20 - HistorySchema.prunedPerObservation + 1, "bounded: only a few per observation")
            try await store.record([Self.observation("pass:new", "open", minutes: later + 1), Self.observation("pass:new", "open", minutes: later + 2)])
            #expect(try await store.count() == 1, "the rest go with the next writes")
            let kept = try await store.changes(urn: "pass:new", from: Self.start, to: Self.start.addingTimeInterval(later * 60 + 600)).changes
            #expect(kept.count == 1 && kept[0].observations == 3)
            try await store.record((0..<30).map { Self.observation("pass:gone", "s\($0)", minutes: later + 10 + Double($0)) })
            let (pruned, _, _) = try await store.vacuum(now: Self.start.addingTimeInterval((later + 10 + 30) * 60 + 2 * 3600))
            #expect(pruned == 31, "everything last seen over an hour before now")
            #expect(try await store.count() == 0)
            await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesAfterAnIDComeInWriteOrder(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            let store = try await open(Configuration.HistorySettings.defaultRetain)
            var ids: [Int64] = []
            for minute in 0..<6 {
                ids += try await store.record([Self.observation("pass:a", "a\(minute)", minutes: Double(minute)),
                                               Self.observation("pass:b", "b\(minute)", minutes: Double(minute))])
            }
            #expect(ids == ids.sorted() && Set(ids).count == 12, "later changes have larger ids: \(ids)")
            let afterThird = try await store.changes(afterID: ids[2], urns: [], limit: 100)
            #expect(afterThird.map(\.id) == Array(ids[3...]))
            #expect(afterThird.first?.status == "b1")
            let onlyA = try await store.changes(afterID: ids[2], urns: ["pass:a"], limit: 100)
            #expect(onlyA.map(\.status) == ["a2", "a3", "a4", "a5"])
            let limited = try await store.changes(afterID: 0, urns: ["pass:a", "pass:b"], limit: 3)
            #expect(limited.map(\.status) == ["a0", "b0", "a1"])
            #expect(try await store.changes(afterID: ids.last!, urns: [], limit: 10).isEmpty)
            await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoStoresWritingAtOnceLoseNothing(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            let stores = [try await open(Configuration.HistorySettings.defaultRetain), try await open(Configuration.HistorySettings.defaultRetain)]
            // Each writer: 40 polls of its own URN and of one both watch, all the same state.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask {
                        for poll in 0..<40 {
                            try await store.record([Self.observation("pass:own\(index)", "s\(poll)", minutes: Double(poll)),
                                                    Self.observation("pass:shared", "open", minutes: Double(poll) + Double(index) / 10)])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let window = (from: Self.start.addingTimeInterval(-60), to: Self.start.addingTimeInterval(3600))
            let shared = try await stores[0].changes(urn: "pass:shared", from: window.from, to: window.to).changes
            #expect(shared.count == 1, "one state, one change, whoever wrote it")
            #expect(shared.first?.observations == 80, "every observation counted")
            for index in 0..<2 {
                #expect(try await stores[1].changes(urn: "pass:own\(index)", from: window.from, to: window.to).changes.count == 40)
            }
            for store in stores { await store.close() }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func storesOpeningANewStoreAtOnceMigrateItOnce(kind: StoreKind) async throws {
        try await Self.withStore(kind) { open in
            // Were the schema made twice, a second CREATE TABLE would fail its open. Two, not more
            // (see the suite's note; processes each have their own pool:
            // HistoryCLITests.twoProcessesWriteOneStoreAtOnce).
            let stores = try await withThrowingTaskGroup(of: (any HistoryStoring).self) { group in
                for _ in 0..<2 { group.addTask { try await open(Configuration.HistorySettings.defaultRetain) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(stores.count == 2)
            try await stores[0].record([Self.observation("moon:now", "full moon", minutes: 0)])
            for store in stores { #expect(try await store.count() == 1) }
            for store in stores { await store.close() }
        }
    }
}
