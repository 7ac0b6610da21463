@testable import ConditionsCore
import ConditionsJSON
import Foundation
import Synchronization
import Testing

/// The spool that keeps what the store cannot take yet: order, torn lines, appends racing a
/// drain, a failed write, and spools of processes that are gone (or still alive).
struct HistorySpoolTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
    }

    func observation(_ urn: String, _ seconds: Double, _ status: String = "open") -> HistoryObservation {
        HistoryObservation(urn: urn, at: Date(timeIntervalSince1970: 1_790_000_000 + seconds), state: ResultState(status: status),
                           result: ["status": .string(status), "n": .int(Int(seconds)), "note": "ünïcode \"quoted\"\n"])
    }

    /// Collects what a drain writes.
    final class Sink: Sendable {
        let written = Mutex<[HistoryObservation]>([])
        func write(_ chunk: [HistoryObservation]) { written.withLock { $0 += chunk } }
        var urnsAndTimes: [String] { written.withLock { $0.map { "\($0.urn)@\(Int($0.at.timeIntervalSince1970 - 1_790_000_000))" } } }
    }

    @Test func drainWritesEverythingOldestFirstThenIsEmpty() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = HistorySpool(folder: folder, processID: 101)
        #expect(spool.isEmpty)
        try await spool.append([observation("pass:a", 2), observation("pass:b", 1)])
        try await spool.append([observation("pass:a", 3, "closed")])
        #expect(!spool.isEmpty)
        let sink = Sink()
        let drained = try await spool.drain { sink.write($0) }
        #expect(drained == (3, 0))
        #expect(sink.urnsAndTimes == ["pass:b@1", "pass:a@2", "pass:a@3"])
        // Every field survives the file.
        let last = try #require(sink.written.withLock { $0.last })
        let original = observation("pass:a", 3, "closed")
        #expect(last.status == "closed" && last.key == original.key && last.result == original.result)
        #expect(spool.isEmpty)
        #expect(try Data(contentsOf: spool.file).isEmpty)
        #expect(try await spool.drain { sink.write($0) } == (0, 0))
    }

    @Test func aFailedWriteKeepsEverythingForTheNextDrain() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        struct Down: Error {}
        let spool = HistorySpool(folder: folder, processID: 102)
        try await spool.append([observation("pass:a", 1), observation("pass:a", 2, "closed")])
        await #expect(throws: Down.self) { try await spool.drain { _ in throw Down() } }
        #expect(!spool.isEmpty)
        let sink = Sink()
        #expect(try await spool.drain { sink.write($0) }.written == 2)
        #expect(sink.urnsAndTimes == ["pass:a@1", "pass:a@2"])
    }

    @Test func whatIsAppendedDuringADrainIsKeptForTheNext() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = HistorySpool(folder: folder, processID: 103)
        try await spool.append([observation("pass:a", 1)])
        let sink = Sink()
        try await spool.drain { chunk in
            sink.write(chunk)
            // The store took the first batch; meanwhile a poll saw something new.
            try await spool.append([self.observation("pass:a", 5, "closed")])
        }
        #expect(sink.urnsAndTimes == ["pass:a@1"])
        #expect(!spool.isEmpty)
        // Appends after the drain go to the file that replaced the spool.
        try await spool.append([observation("pass:a", 6, "open")])
        let next = Sink()
        #expect(try await spool.drain { next.write($0) }.written == 2)
        #expect(next.urnsAndTimes == ["pass:a@5", "pass:a@6"])
        #expect(!FileManager.default.fileExists(atPath: spool.file.path + ".next"))
    }

    @Test func aSpoolOfAProcessThatIsGoneIsAdoptedAndATornLineSkipped() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // What a replica killed mid-append leaves: two whole lines and half of a third.
        let dead = folder.appendingPathComponent("history-spool.999.ndjson")
        let lines = [HistorySpool.line(observation("pass:z", 4)), HistorySpool.line(observation("pass:z", 7, "closed"))]
        let half = String(HistorySpool.line(observation("pass:z", 9)).prefix(20))
        try Data((lines.joined(separator: "\n") + "\n" + half).utf8).write(to: dead)

        let spool = HistorySpool(folder: folder, processID: 104)
        try await spool.append([observation("pass:a", 5)])
        let sink = Sink()
        let drained = try await spool.drain { sink.write($0) }
        #expect(drained == (3, 1))
        #expect(sink.urnsAndTimes == ["pass:z@4", "pass:a@5", "pass:z@7"])
        #expect(!FileManager.default.fileExists(atPath: dead.path))
    }

    @Test func aLiveProcessesSpoolIsLeftToIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // flock locks belong to open files, so a second spool in this process stands in for
        // another live replica: its lock holds.
        let alive = HistorySpool(folder: folder, processID: 201)
        try await alive.append([observation("pass:b", 1)])
        let spool = HistorySpool(folder: folder, processID: 202)
        try await spool.append([observation("pass:a", 2)])
        let sink = Sink()
        #expect(try await spool.drain { sink.write($0) }.written == 1)
        #expect(sink.urnsAndTimes == ["pass:a@2"])
        let theirs = Sink()
        #expect(try await alive.drain { theirs.write($0) }.written == 1)
        #expect(theirs.urnsAndTimes == ["pass:b@1"])
    }

    @Test func aSpoolThatCannotBeCreatedIsAnErrorNamingIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder)  // a file where the folder should be
        let spool = HistorySpool(folder: folder, processID: 105)
        await #expect { try await spool.append([observation("pass:a", 1)]) } throws: { error in
            "\(error)".contains(folder.path)
        }
    }
}
