import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import Testing
@testable import ConditionsCore

/// The ids of stored changes: what `record` returns for each observation, what
/// `changes(afterID:urns:limit:)` reads back (an event stream's resume), with writers
/// interleaving in one process and through two connections to one file.
@Suite struct HistoryChangeIDTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("history.sqlite") }
    let logger = Logger(label: "test")

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-change-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    static func observation(_ urn: String, _ status: String, minutes: Double) -> HistoryObservation {
        HistoryStoreTests.observation(urn, status, minutes: minutes)
    }

    @Test func recordReturnsTheChangeEachObservationBelongsTo() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        let first = try await store.record([Self.observation("pass:a", "open", minutes: 0), Self.observation("pass:b", "open", minutes: 0)])
        #expect(first.count == 2)
        #expect(first[0] != first[1])
        // The same state extends its change; another starts one; the same URN twice in one
        // statement gets each its own.
        let second = try await store.record([
            Self.observation("pass:a", "open", minutes: 5),
            Self.observation("pass:b", "closed", minutes: 5),
            Self.observation("pass:b", "open", minutes: 6),
            Self.observation("pass:b", "open", minutes: 7),
        ])
        #expect(second[0] == first[0], "an observation of the same state extends its change")
        #expect(second[1] > first[1])
        #expect(second[2] > second[1])
        #expect(second[3] == second[2])
        let stored = try await store.changes(afterID: 0, urns: ["pass:a", "pass:b"], limit: 100)
        #expect(stored.map(\.id) == [first[0], first[1], second[1], second[2]], "oldest first")
        #expect(stored.map(\.status) == ["open", "open", "closed", "open"])
        #expect(stored.first { $0.id == second[2] }?.observations == 2)
        // After an id, for some URNs, at most a number.
        #expect(try await store.changes(afterID: first[1], urns: ["pass:b"], limit: 100).map(\.id) == [second[1], second[2]])
        #expect(try await store.changes(afterID: 0, urns: ["pass:b"], limit: 2).map(\.id) == [first[1], second[1]])
        #expect(try await store.changes(afterID: 0, urns: ["pass:c"], limit: 10).isEmpty)
        #expect(try await store.changes(afterID: 0, urns: [], limit: 10).count == 4, "no URNs: every URN's")
        // The window query carries the ids too.
        let window = try await store.changes(urn: "pass:b", from: HistoryStoreTests.start, to: HistoryStoreTests.start.addingTimeInterval(3600))
        #expect(window.changes.map(\.id) == [first[1], second[1], second[2]])
        await store.close()
    }

    /// An observation stamped before the URN's latest change was last seen (another process's
    /// clock behind this one's) starts a change that is not the URN's latest by time: its id is
    /// still the one returned.
    @Test func aChangeOlderThanTheLatestStillGetsItsOwnID() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        let latest = try await store.record([Self.observation("pass:a", "open", minutes: 10)])[0]
        let behind = try await store.record([Self.observation("pass:a", "closed", minutes: 5)])[0]
        #expect(behind != latest)
        let stored = try await store.changes(afterID: latest, urns: ["pass:a"], limit: 10)
        #expect(stored.map(\.id) == [behind])
        #expect(stored.first?.status == "closed")
        // An observation of the latest's state extends it, and says so.
        #expect(try await store.record([Self.observation("pass:a", "open", minutes: 11)])[0] == latest)
        await store.close()
    }

    /// Many tasks recording at once through one store, and two stores (two connections, as two
    /// processes have) on one file: every id returned is the change holding that observation's
    /// state, and no change was committed twice.
    @Test func idsStayTrueUnderConcurrentWriters() async throws {
        defer { remove() }
        let one = try await HistoryStore.open(file, logger: logger)
        let other = try await HistoryStore.open(file, logger: logger)
        let returned = try await withThrowingTaskGroup(of: [(HistoryObservation, Int64)].self) { group in
            for writer in 0..<8 {
                let store = writer % 2 == 0 ? one : other
                group.addTask {
                    var pairs: [(HistoryObservation, Int64)] = []
                    for step in 0..<25 {
                        // Four URNs, each written by several writers, flipping state.
                        let urn = "pass:\(step % 4)"
                        let observation = Self.observation(urn, (step + writer) % 3 == 0 ? "closed" : "open", minutes: Double(step))
                        let id = try await store.record([observation])[0]
                        pairs.append((observation, id))
                    }
                    return pairs
                }
            }
            var all: [(HistoryObservation, Int64)] = []
            for try await pairs in group { all += pairs }
            return all
        }
        let stored = try await one.changes(afterID: 0, urns: (0..<4).map { "pass:\($0)" }, limit: 10_000)
        let byID = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) })
        #expect(stored.map(\.id) == stored.map(\.id).sorted())
        for (observation, id) in returned {
            let change = try #require(byID[id], "id \(id) returned for \(observation.urn) is no stored change")
            #expect(change.urn == observation.urn)
            #expect(change.status == observation.status, "\(observation.urn) \(observation.status) got change \(id), which is \(change.status)")
        }
        #expect(stored.reduce(0) { $0 + $1.observations } == returned.count, "every observation counted once")
        await one.close()
        await other.close()
    }
}
