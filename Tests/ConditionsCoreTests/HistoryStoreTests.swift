import ConditionsJSON
import ConditionsKit
import Foundation
import HostTestSupport
import Logging
import SQLiteNIO
import Testing
@testable import ConditionsCore

/// The history store on real SQLite files: collapsing, windows, pruning, migrations and the
/// files it refuses. (Two processes writing at once: `HistoryCLITests`.)
@Suite struct HistoryStoreTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("state/conditions/history.sqlite") }
    let logger = Logger(label: "test")
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// A pass result whose status is `status`, observed `minutes` after `start`.
    static func observation(_ urn: String, _ status: String, minutes: Double, detail: String = "", extra: String = "") -> HistoryObservation {
        let at = start.addingTimeInterval(minutes * 60)
        let result: JSONValue = ["urn": .string(urn), "data": ["status": .string(status), "note": .string(extra)]]
        return HistoryObservation(urn: urn, at: at, state: ResultState(status: status, detail: detail), result: result)
    }

    @Test func observationsWithTheSameKeyCollapseIntoOneChange() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        try await store.record([Self.observation("pass:stevens", "open", minutes: 0, extra: "first")])
        try await store.record([Self.observation("pass:stevens", "open", minutes: 5, extra: "second")])
        try await store.record([Self.observation("pass:stevens", "open", minutes: 10)])
        try await store.record([Self.observation("pass:stevens", "closed", minutes: 15)])
        // Same status, other detail (restriction texts): news, so a change of its own.
        try await store.record([Self.observation("pass:stevens", "closed", minutes: 20, detail: "chains required")])
        try await store.record([Self.observation("pass:stevens", "open", minutes: 25)])
        try await store.record([Self.observation("pass:white", "open", minutes: 25)])
        let (changes, truncated) = try await store.changes(urn: "pass:stevens", from: Self.start, to: Self.start.addingTimeInterval(3600))
        #expect(!truncated)
        #expect(changes.map(\.status) == ["open", "closed", "closed", "open"])
        #expect(changes[0].observations == 3)
        #expect(changes[0].firstSeen == Self.start)
        #expect(changes[0].lastSeen == Self.start.addingTimeInterval(600))
        #expect(changes[0].result["data"]?["note"]?.stringValue == "first", "a change keeps the result that showed it first, in full")
        #expect(changes[1].observations == 1)
        #expect(try await store.count() == 5)
        await store.close()
    }

    @Test func aWindowHoldsTheChangesCurrentDuringIt() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        // open 0–50 min, closed 60–110, open 120–…
        var batch: [HistoryObservation] = []
        for minute in stride(from: 0.0, through: 150, by: 10) {
            batch.append(Self.observation("pass:snoqualmie", (60...110).contains(minute) ? "closed" : "open", minutes: minute))
        }
        try await store.record(batch)
        let at = { (minutes: Double) in Self.start.addingTimeInterval(minutes * 60) }
        // The change that began before the window and lasted into it counts.
        #expect(try await store.changes(urn: "pass:snoqualmie", from: at(70), to: at(200)).changes.map(\.status) == ["closed", "open"])
        #expect(try await store.changes(urn: "pass:snoqualmie", from: at(52), to: at(58)).changes.isEmpty, "between two observations nothing was seen")
        #expect(try await store.changes(urn: "pass:snoqualmie", from: at(0), to: at(0)).changes.map(\.status) == ["open"])
        let latest = try await store.changes(urn: "pass:snoqualmie", from: at(0), to: at(200), limit: 2)
        #expect(latest.changes.map(\.status) == ["closed", "open"], "a limit keeps the latest, oldest first")
        #expect(latest.truncated)
        #expect(try await store.changes(urn: "pass:unknown", from: at(0), to: at(200)).changes.isEmpty)
        await store.close()
    }

    @Test func writesPruneExpiredChangesAFewAtATime() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, retain: 3600, logger: logger)
        // 20 changes of a URN no one watches any more, a day old.
        try await store.record((0..<20).map { Self.observation("pass:old", $0 % 2 == 0 ? "open" : "closed", minutes: Double($0)) })
        #expect(try await store.count() == 20)
        let later = 24 * 60.0
        try await store.record([Self.observation("pass:new", "open", minutes: later)])
        #expect(try await store.count() == 20 - HistorySchema.prunedPerObservation + 1, "bounded: only a few per observation")
        try await store.record([Self.observation("pass:new", "open", minutes: later + 1), Self.observation("pass:new", "open", minutes: later + 2)])
        #expect(try await store.count() == 1, "the rest go with the next writes")
        // A change that began long ago but is still seen is kept.
        let kept = try await store.changes(urn: "pass:new", from: Self.start, to: Self.start.addingTimeInterval(later * 60 + 600)).changes
        #expect(kept.count == 1 && kept[0].observations == 3)
        await store.close()
    }

    @Test func vacuumPrunesEverythingExpiredAndShrinksTheFile() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, retain: 3600, logger: logger)
        let padding = String(repeating: "x", count: 4000)
        try await store.record((0..<500).map { Self.observation("pass:\($0 % 50)", "s\($0)", minutes: Double($0) / 10, extra: padding) })
        let (pruned, before, after) = try await store.vacuum(now: Self.start.addingTimeInterval(86400))
        #expect(pruned == 500)
        #expect(try await store.count() == 0)
        #expect(before > 1_000_000, "\(before)")
        #expect(after < before / 10, "\(before) → \(after)")
        await store.close()
    }

    @Test func reopeningKeepsEverythingAndSaysItsSchema() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        try await store.record([Self.observation("moon:now", "full moon", minutes: 0)])
        await store.close()
        let again = try await HistoryStore.open(file, logger: logger)
        #expect(try await again.count() == 1)
        await again.close()
        let raw = try await Self.raw(file)
        #expect(try await raw.query("PRAGMA user_version").first?.column("user_version")?.integer == HistorySchema.latest)
        #expect(try await raw.query("PRAGMA journal_mode").first?.column("journal_mode")?.string == "wal")
        #expect(try await raw.query("PRAGMA application_id").first?.column("application_id")?.integer == 0x434F_4E44)
        try await raw.close()
        let permissions = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(permissions == 0o700, "the folder it made is private")
    }

    @Test func anEmptyFileBecomesAStore() async throws {
        defer { remove() }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
        let store = try await HistoryStore.open(file, logger: logger)
        try await store.record([Self.observation("moon:now", "new moon", minutes: 0)])
        #expect(try await store.count() == 1)
        await store.close()
    }

    /// Both convert the new file to WAL at once, and SQLite answers one of them SQLITE_BUSY
    /// without waiting (issue 46's third loaded run lost a write to it): each must still open.
    @Test func twoOpeningANewStoreAtOnceBothOpenIt() async throws {
        defer { remove() }
        for round in 0..<40 {
            let file = folder.appendingPathComponent("new-\(round).sqlite")
            async let first = HistoryStore.open(file, logger: logger)
            async let second = HistoryStore.open(file, logger: logger)
            let (a, b) = try await (first, second)
            try await a.record([Self.observation("moon:now", "new moon", minutes: 0)])
            try await b.record([Self.observation("moon:now", "full moon", minutes: 1)])
            #expect(try await a.count() == 2)
            await a.close()
            await b.close()
        }
    }

    @Test func queryingCreatesNoStore() async throws {
        defer { remove() }
        #expect(try await HistoryStore.openIfPresent(file, logger: logger) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    // MARK: Files it refuses

    @Test func aNewerSchemaIsAClearError() async throws {
        defer { remove() }
        let store = try await HistoryStore.open(file, logger: logger)
        await store.close()
        let raw = try await Self.raw(file)
        _ = try await raw.query("PRAGMA user_version = \(HistorySchema.latest + 1)")
        try await raw.close()
        let error = await #expect(throws: HistoryError.self) { try await HistoryStore.open(file, logger: logger) }
        #expect(error?.kind == .newerSchema)
        #expect(error?.description == "\(file.path): written by a newer conditions (history schema \(HistorySchema.latest + 1); this one knows up to \(HistorySchema.latest)); upgrade conditions, or set \"history\": {\"path\"} to another file")
    }

    @Test func aCorruptFileIsUnreadableAndNamed() async throws {
        defer { remove() }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: file)
        let error = await #expect(throws: HistoryError.self) { try await HistoryStore.open(file, logger: logger) }
        #expect(error?.kind == .unreadable)
        #expect(error?.description == "\(file.path): file is not a database")
        #expect(try Data(contentsOf: file) == Data(repeating: 0x5A, count: 8192), "left as it was")
    }

    @Test func anotherProgramsDatabaseIsLeftAlone() async throws {
        defer { remove() }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let raw = try await Self.raw(file)
        _ = try await raw.query("CREATE TABLE notes (text TEXT)")
        try await raw.close()
        let error = await #expect(throws: HistoryError.self) { try await HistoryStore.open(file, logger: logger) }
        #expect(error?.kind == .unreadable)
        #expect(error?.reason.contains("not a conditions history store") == true, "\(String(describing: error))")
    }

    @Test func aFolderWhereTheFileShouldBeIsUnreadable() async throws {
        defer { remove() }
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let error = await #expect(throws: HistoryError.self) { try await HistoryStore.open(file, logger: logger) }
        #expect(error?.description == "\(file.path): is a folder, not a history store")
    }

    /// A plain SQLite connection to `file`, for what the store itself never does.
    static func raw(_ file: URL) async throws -> SQLiteConnection {
        try await SQLiteConnection.open(storage: .file(path: file.path))
    }
}
