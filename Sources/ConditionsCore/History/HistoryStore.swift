import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import SQLiteNIO
import Synchronization

/// Every change `watch` and `serve` saw, in one SQLite file (WAL) that several processes may
/// write at once: the default store (`PostgresHistoryStore` is the other).
///
/// Each call runs its statements on a thread of the store's own (SQLiteNIO), never on a thread
/// of Swift's cooperative pool, and every write is one statement (see `HistorySchema`), so
/// concurrent callers in one process need no lock of their own and writers in other processes
/// wait for the write lock within the busy timeout instead of failing "database is locked".
package final class HistoryStore: HistoryStoring {
    /// The store's file.
    package let file: URL
    package var location: String { file.path }
    /// Changes last seen longer ago than this are pruned as new ones are written.
    package let retain: Double
    private let connection: SQLiteConnection
    /// One thread, running this connection's statements one at a time, each from its first step
    /// to its last. A write that returns rows (`record`'s `RETURNING`) commits only at its last
    /// step; a statement of the same connection stepped in between on another thread would
    /// join its transaction, and its caller would return before that commit.
    private let thread: NIOThreadPool

    /// How long a writer waits for another process's write to finish before giving up.
    static let busyTimeoutMilliseconds = 10_000
    /// How long an opener waits for another connection to finish setting the store up (WAL
    /// mode, migrations) before giving up. Setting up syncs the file to disk a few times, and
    /// with disks busy (three test suites building beside each other, load 13 to 40) that
    /// outlasted 10 s in all three of issue 46's side-by-side runs; it is rare, so waiting
    /// longer costs nothing otherwise.
    static let setupTimeoutSeconds = 60.0
    /// At most this many observations in one INSERT (SQLite binds 7 values per row).
    static let observationsPerStatement = 500

    /// Every connection not yet closed. A store dropped without `close()` (a command ending by
    /// an error it throws) keeps its connection here until the process exits, instead of
    /// SQLiteNIO's deinit assertion stopping a debug build: what it committed is in the file
    /// either way.
    private static let unclosed = Mutex<[ObjectIdentifier: SQLiteConnection]>([:])

    private init(file: URL, retain: Double, connection: SQLiteConnection, thread: NIOThreadPool) {
        self.file = file
        self.retain = retain
        self.connection = connection
        self.thread = thread
        Self.unclosed.withLock { $0[ObjectIdentifier(connection)] = connection }
    }

    /// Opens `file`, creating it and its folder when missing, and brings its schema up to date.
    /// Throws when it is not a store this program can use (corrupt, another program's, a newer
    /// schema's).
    package static func open(_ file: URL, retain: Double = Configuration.HistorySettings.defaultRetain,
                             logger: Logger) async throws(HistoryError) -> HistoryStore {
        let connection: SQLiteConnection
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        do {
            try await NIOThreadPool.singleton.runIfActive {
                try prepareFolder(for: file)
            }
            connection = try await SQLiteConnection.open(storage: .file(path: file.path), threadPool: thread,
                                                         logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            try? await thread.shutdownGracefully()
            throw HistoryError(error, file: file)
        }
        let store = HistoryStore(file: file, retain: retain, connection: connection, thread: thread)
        let lock: StoreOpeningLock?
        do {
            lock = try await thread.runIfActive {
                try StoreOpeningLock.acquire(file.deletingLastPathComponent(), file: file, timeout: Self.setupTimeoutSeconds)
            }
        } catch {
            await store.close()
            throw HistoryError(error, file: file)
        }
        do {
            try await store.configure()
            try await store.migrate()
            lock?.release()
        } catch {
            lock?.release()
            await store.close()
            throw HistoryError(error, file: file)
        }
        return store
    }

    /// Opens `file` if it exists; nil when there is no store yet (a query creates none).
    package static func openIfPresent(_ file: URL, retain: Double = Configuration.HistorySettings.defaultRetain,
                                      logger: Logger) async throws(HistoryError) -> HistoryStore? {
        let exists: Bool
        do {
            exists = try await NIOThreadPool.singleton.runIfActive { FileManager.default.fileExists(atPath: file.path) }
        } catch {
            throw HistoryError(error, file: file)
        }
        guard exists else { return nil }
        return try await open(file, retain: retain, logger: logger)
    }

    /// Closes the connection; the store is unusable afterwards.
    package func close() async {
        do {
            try await connection.close()
        } catch {
            // Kept (see `unclosed`): released with the process.
            return
        }
        _ = Self.unclosed.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
        try? await thread.shutdownGracefully()
    }

    // MARK: Writing

    /// Records `observations` in one transaction per 500: each extends its URN's latest change
    /// when the change key is the same, or starts a new change; a few expired changes are
    /// pruned with each. Returns once the transaction has committed (in the WAL, so a process
    /// killed right after loses nothing), with the id of the change each observation now
    /// belongs to, in the order given.
    @discardableResult
    package func record(_ observations: [HistoryObservation]) async throws(HistoryError) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(observations.count)
        var start = 0
        while start < observations.count {
            let chunk = observations[start..<min(start + Self.observationsPerStatement, observations.count)]
            start += chunk.count
            // This call's notes in `recorded` (HistorySchema, migration 2), apart from any other
            // writer's, in this process or another.
            var binds: [SQLiteData] = []
            binds.reserveCapacity(chunk.count * 7)
            for observation in chunk {
                let at = Self.milliseconds(observation.at)
                binds.append(.text(observation.urn))
                binds.append(.integer(at))
                binds.append(.blob(ByteBuffer(bytes: observation.key)))
                binds.append(.text(observation.status))
                binds.append(.text(observation.result.serialized()))
                binds.append(.integer(at - SQLiteInt64(retain * 1000)))
            }
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
            let returned = try await self.rows("INSERT INTO observations (urn, at, key, status, result, cutoff) VALUES \(rows) \(HistorySchema.returningChange)", binds)
            ids += try Self.changeIDs(returned, for: chunk, file: file)
        }
        return ids
    }

    /// The ids `RETURNING` gave, one per observation of `chunk`, matched by URN, instant and key:
    /// SQLite emits them in the order the rows were inserted, which its documentation does not
    /// promise, so none is taken on trust by its place alone.
    private static func changeIDs(_ rows: [SQLiteRow], for chunk: ArraySlice<HistoryObservation>, file: URL) throws(HistoryError) -> [Int64] {
        var returned: [String: [Int64]] = [:]
        for row in rows {
            guard let urn = row.column("urn")?.string, let at = row.column("at")?.integer, let key = row.column("key")?.blob,
                  let id = row.column("change")?.integer else { continue }
            returned[Self.identity(urn: urn, at: SQLiteInt64(at), key: Array(buffer: key)), default: []].append(Int64(id))
        }
        var ids: [Int64] = []
        ids.reserveCapacity(chunk.count)
        for observation in chunk {
            let identity = Self.identity(urn: observation.urn, at: Self.milliseconds(observation.at), key: observation.key)
            guard let id = returned[identity]?.first else {
                throw HistoryError(file: file, kind: .other, reason: "recorded \(observation.urn), but SQLite returned no change id for it")
            }
            returned[identity]?.removeFirst()
            ids.append(id)
        }
        return ids
    }

    private static func identity(urn: String, at: SQLiteInt64, key: [UInt8]) -> String {
        "\(urn)\u{0}\(at)\u{0}\(key.map { String($0, radix: 16) }.joined(separator: "."))"
    }

    // MARK: Reading

    /// `urn`'s changes that were current at some time between `from` and `to` (a change that
    /// began before `from` and lasted into it included), oldest first. With `limit`, only the
    /// latest `limit` of them; `truncated` says whether any were left out.
    package func changes(urn: String, from: Date, to: Date, limit: Int? = nil) async throws(HistoryError)
        -> (changes: [HistoryChange], truncated: Bool) {
        let capped = limit.map { " ORDER BY last_seen DESC, id DESC LIMIT \($0 + 1)" } ?? ""
        var changes = try await rows("""
            SELECT id, urn, first_seen, last_seen, observations, status, result FROM changes
             WHERE urn = ? AND last_seen >= ? AND first_seen <= ?\(capped)
            """, [.text(urn), .integer(Self.milliseconds(from)), .integer(Self.milliseconds(to))]).map(Self.change)
        var truncated = false
        if let limit, changes.count > limit {
            truncated = true
            changes.removeLast(changes.count - limit)
        }
        changes.sort { ($0.firstSeen, $0.lastSeen) < ($1.firstSeen, $1.lastSeen) }
        return (changes, truncated)
    }

    /// The changes of `urns` with an id greater than `afterID`, oldest (lowest id) first, at most
    /// `limit`: what an event stream missed since the change it last saw (`Last-Event-ID`).
    /// Ids grow in the order changes are committed (one writer at a time holds the write lock,
    /// and a new row takes the highest id yet plus one), so no change committed later can take
    /// an id below one already read; only were the newest change pruned, which takes a whole
    /// `retain` with nothing recorded, would its id be given again.
    /// No URNs: every URN's.
    package func changes(afterID: Int64, urns: [String], limit: Int) async throws(HistoryError) -> [HistoryChange] {
        guard limit > 0 else { return [] }
        let among = urns.isEmpty ? "" : " AND urn IN (\(Array(repeating: "?", count: urns.count).joined(separator: ", ")))"
        return try await rows("""
            SELECT id, urn, first_seen, last_seen, observations, status, result FROM changes
             WHERE id > ?\(among) ORDER BY id LIMIT ?
            """, [.integer(Int(afterID))] + urns.map { .text($0) } + [.integer(limit)]).map(Self.change)
    }

    private static func change(_ row: SQLiteRow) -> HistoryChange {
        HistoryChange(
            id: Int64(row.column("id")?.integer ?? 0),
            urn: row.column("urn")?.string ?? "",
            firstSeen: date(row.column("first_seen")?.integer ?? 0),
            lastSeen: date(row.column("last_seen")?.integer ?? 0),
            observations: row.column("observations")?.integer ?? 1,
            status: row.column("status")?.string ?? "",
            resultText: row.column("result")?.string ?? "null")
    }

    /// How many changes the store holds.
    package func count() async throws(HistoryError) -> Int {
        try await rows("SELECT count(*) AS n FROM changes", []).first?.column("n")?.integer ?? 0
    }

    /// The store's size on disk: the file and its write-ahead log.
    package func bytesOnDisk() async -> Int64 {
        (try? await NIOThreadPool.singleton.runIfActive { [file] in
            [file.path, file.path + "-wal"].reduce(Int64(0)) { total, path in
                total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0)
            }
        }) ?? 0
    }

    // MARK: Upkeep

    /// `conditions history --vacuum`: prunes every change last seen more than `retain` before
    /// `now`, then rewrites the file without its free pages. Returns how many changes went and
    /// the bytes on disk before and after.
    package func vacuum(now: Date = Date()) async throws(HistoryError) -> (pruned: Int, before: Int64, after: Int64) {
        let before = await bytesOnDisk()
        let cutoff = Self.milliseconds(now) - SQLiteInt64(retain * 1000)
        let pruned = try await rows("DELETE FROM changes WHERE last_seen < ? RETURNING id", [.integer(cutoff)]).count
        try await run("VACUUM", [])
        // Folds the log into the file and empties it, so the size printed is what stays.
        try await run("PRAGMA wal_checkpoint(TRUNCATE)", [])
        return (pruned, before, await bytesOnDisk())
    }

    // MARK: Opening

    private func configure() async throws {
        // Replaces SQLiteNIO's busy handler, which retries at once forever, with SQLite's
        // sleeping one, bounded.
        try await run("PRAGMA busy_timeout = \(Self.busyTimeoutMilliseconds)", [])
        let mode = try await enterWriteAheadLog()
        guard mode == "wal" else {
            throw HistoryError(file: file, kind: .unreadable, reason: "cannot use a write-ahead log here (journal mode \(mode ?? "unknown")); put the store on a local file system")
        }
        // In WAL mode NORMAL syncs at checkpoints, not at each commit: a commit is in the log
        // once it returns, so a killed process loses nothing; only a power cut can take the
        // last commits back (docs/history.md).
        try await run("PRAGMA synchronous = NORMAL", [])
        // The log is reused after each checkpoint; this keeps it from staying large after a burst.
        try await run("PRAGMA journal_size_limit = \(8 << 20)", [])
    }

    /// Puts a new store in WAL mode; an existing one already is (the mode is kept in the
    /// file), and is only read. Returns the journal mode SQLite reports.
    private func enterWriteAheadLog() async throws -> String? {
        let current = try await rows("PRAGMA journal_mode", []).first?.column("journal_mode")?.string
        if current == "wal" { return current }
        return try await rows("PRAGMA journal_mode = WAL", []).first?.column("journal_mode")?.string
    }

    private func migrate() async throws {
        var version = try await pragma("user_version")
        if version == HistorySchema.latest { return try await checkApplication(version: version) }
        try await checkApplication(version: version)
        if version > HistorySchema.latest { throw newerSchema(version) }
        // IMMEDIATE takes the write lock first, so two processes opening a new store at once
        // migrate it once: the second waits, then finds it done.
        try await run("BEGIN IMMEDIATE", [])
        do {
            version = try await pragma("user_version")
            if version > HistorySchema.latest { throw newerSchema(version) }
            if version == 0 { try await checkEmpty() }
            while version < HistorySchema.latest {
                for statement in HistorySchema.migrations[version] { try await run(statement, []) }
                version += 1
            }
            try await run("PRAGMA application_id = \(HistorySchema.applicationID)", [])
            try await run("PRAGMA user_version = \(version)", [])
            try await run("COMMIT", [])
        } catch {
            try? await run("ROLLBACK", [])
            throw error
        }
    }

    private func newerSchema(_ version: Int) -> HistoryError {
        HistoryError(file: file, kind: .newerSchema,
                     reason: "written by a newer conditions (history schema \(version); this one knows up to \(HistorySchema.latest)); upgrade conditions, or set \"history\": {\"path\"} to another file")
    }

    /// A file with another application's id is not ours to change.
    private func checkApplication(version: Int) async throws {
        let id = try await pragma("application_id")
        guard id == HistorySchema.applicationID || (id == 0 && version == 0) else {
            throw HistoryError(file: file, kind: .unreadable, reason: "an SQLite database of another program (application id \(id)), not a conditions history store")
        }
    }

    /// Version 0 with tables is someone else's database.
    private func checkEmpty() async throws {
        let tables = try await rows("SELECT count(*) AS n FROM sqlite_schema", []).first?.column("n")?.integer ?? 0
        guard tables == 0 else {
            throw HistoryError(file: file, kind: .unreadable, reason: "an SQLite database with \(tables) objects of another program, not a conditions history store")
        }
    }

    private func pragma(_ name: String) async throws -> Int {
        try await rows("PRAGMA \(name)", []).first?.column(name)?.integer ?? 0
    }

    /// The folder, made private when this creates it; a folder where the file should be is an error.
    private static func prepareFolder(for file: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
            throw HistoryError(file: file, kind: .unreadable, reason: "is a folder, not a history store")
        }
        let folder = file.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw HistoryError(file: file, kind: .unreadable, reason: "cannot create its folder: \((error as NSError).localizedDescription)")
            }
        }
    }

    // MARK: Statements

    func run(_ sql: String, _ binds: [SQLiteData]) async throws(HistoryError) {
        do { try await connection.query(sql, binds) { _ in } } catch { throw HistoryError(error, file: file) }
    }

    func rows(_ sql: String, _ binds: [SQLiteData]) async throws(HistoryError) -> [SQLiteRow] {
        do { return try await connection.query(sql, binds) } catch { throw HistoryError(error, file: file) }
    }

    static func milliseconds(_ date: Date) -> SQLiteInt64 {
        SQLiteInt64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: SQLiteInt64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
