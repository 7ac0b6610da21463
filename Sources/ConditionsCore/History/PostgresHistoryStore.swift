import Foundation
import Logging
// With NIO and NIOSSL, which it exports.
import PostgresNIO
import SQLiteNIO
import Synchronization

/// Every change `watch` and `serve` saw, in a PostgreSQL database several processes (replicas
/// of `serve` on other machines) may write at once: the same rows and rules as the SQLite
/// `HistoryStore` (docs/history.md).
///
/// One connection, opened with the store and opened again on the next call after it is lost
/// (a server restarting). Each write is one statement calling `conditions_history_record`
/// (History/Resources/postgres-1.sql), so a write commits whole or not at all and callers
/// sharing the connection need no lock of their own.
package final class PostgresHistoryStore: HistoryStoring {
    package let database: HistoryDatabase
    package let retain: Double
    package var location: String { database.displayURL }
    let logger: Logger
    /// The connection, or the attempt to make it; nil once it failed or was lost.
    private let connection = Mutex<Task<PostgresConnection, any Error>?>(nil)
    private let closed = Mutex(false)
    /// When the next write packs settled changes (`PostgresHistoryStore+Packing`).
    let nextPacking = Mutex(Date.distantPast)

    /// The schema's migrations: `migrations[n]` takes the database from version n to n + 1.
    static let migrations: [[UInt8]] = [PackageResources.postgres_1_sql, PackageResources.postgres_2_sql, PackageResources.postgres_3_sql,
                                           PackageResources.postgres_4_sql]
    /// The version this program writes.
    static var latest: Int { migrations.count }
    /// The advisory lock migrations hold: "COND" "HIST".
    static let migrationLock: Int64 = 0x434F_4E44_4849_5354
    /// At most this many observations in one statement.
    static let observationsPerStatement = 500

    private init(database: HistoryDatabase, retain: Double, logger: Logger) {
        self.database = database
        self.retain = retain
        self.logger = logger
    }

    /// Connects to `database` and brings its schema up to date. Throws `.refused` when the
    /// server turns the login down (a wrong password, an unknown database: the configuration's
    /// fault), `.unreachable` when it cannot be reached.
    package static func open(_ database: HistoryDatabase, retain: Double = Configuration.HistorySettings.defaultRetain,
                             logger: Logger) async throws(HistoryError) -> PostgresHistoryStore {
        let store = PostgresHistoryStore(database: database, retain: retain, logger: logger)
        do {
            try await store.migrate()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Logs in to `database` and out again, changing nothing: whether the server accepts the
    /// configured login.
    package static func logIn(_ database: HistoryDatabase, logger: Logger) async throws(HistoryError) {
        do {
            await close(try await connect(database, logger: logger))
        } catch {
            throw failure(error, location: database.displayURL)
        }
    }

    package func close() async {
        closed.withLock { $0 = true }
        let task = connection.withLock { task in defer { task = nil }; return task }
        if let open = try? await task?.value { await Self.close(open) }
    }

    /// Every connection not yet closed. A store dropped without `close()` (a command ending by
    /// an error it throws) keeps its connection here until the process exits, instead of
    /// postgres-nio's deinit assertion stopping a debug build, as `HistoryStore` does.
    private static let unclosed = Mutex<[ObjectIdentifier: PostgresConnection]>([:])

    private static func close(_ connection: PostgresConnection) async {
        try? await connection.close()
        _ = unclosed.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    // MARK: Writing

    @discardableResult
    package func record(_ observations: [HistoryObservation]) async throws(HistoryError) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(observations.count)
        var start = 0
        while start < observations.count {
            let chunk = observations[start..<min(start + Self.observationsPerStatement, observations.count)]
            start += chunk.count
            let urns = chunk.map(\.urn)
            let at = chunk.map { Self.milliseconds($0.at) }
            let keys = chunk.map { ByteBuffer(bytes: $0.key) }
            let statuses = chunk.map(\.status)
            let results = chunk.map { $0.result.serialized() }
            let retainMilliseconds = Int64(retain * 1000)
            let pruned = Int32(HistorySchema.prunedPerObservation)
            let query: PostgresQuery = """
                SELECT conditions_history_record(\(urns), \(at), \(keys), \(statuses), \(results), \(retainMilliseconds), \(pruned))
                """
            let written: [[Int64]] = try await rows(query, as: [Int64].self)
            ids += written.first ?? []
        }
        await packIfDue(now: Date())
        return ids
    }

    // MARK: Reading

    /// The columns of a change, times in milliseconds.
    private static let columns = """
        id, urn, round(extract(epoch FROM first_seen) * 1000)::bigint, round(extract(epoch FROM last_seen) * 1000)::bigint, \
        observations, status, result
        """

    package func changes(urn: String, from: Date, to: Date, limit: Int?) async throws(HistoryError) -> (changes: [HistoryChange], truncated: Bool) {
        let fromMilliseconds = Self.milliseconds(from), toMilliseconds = Self.milliseconds(to)
        // Without a limit, Int64.max: the same statement either way.
        let capped = Int64(limit.map { $0 + 1 } ?? Int.max)
        let query = PostgresQuery(unsafeSQL: """
            SELECT \(Self.columns) FROM conditions_history_changes
             WHERE urn = $1 AND last_seen >= to_timestamp($2 / 1000.0) AND first_seen <= to_timestamp($3 / 1000.0)
             ORDER BY last_seen DESC, id DESC LIMIT $4
            """, binds: try binds(urn, fromMilliseconds, toMilliseconds, capped))
        var changes = try await changeRows(query)
        var truncated = false
        if let limit, changes.count > limit {
            truncated = true
            changes.removeLast(changes.count - limit)
        }
        changes.sort { ($0.firstSeen, $0.lastSeen) < ($1.firstSeen, $1.lastSeen) }
        return (changes, truncated)
    }

    package func changes(afterID: Int64, urns: [String], limit: Int) async throws(HistoryError) -> [HistoryChange] {
        let query = PostgresQuery(unsafeSQL: """
            SELECT \(Self.columns) FROM conditions_history_changes
             WHERE id > $1 AND (cardinality($2::text[]) = 0 OR urn = ANY($2::text[]))
             ORDER BY id LIMIT $3
            """, binds: try binds(afterID, urns, Int64(max(0, limit))))
        return try await changeRows(query)
    }

    package func count() async throws(HistoryError) -> Int {
        Int(try await rows("SELECT count(*) FROM conditions_history_changes", as: Int64.self).first ?? 0)
    }

    /// Prunes every expired change, packs every settled one, then `VACUUM`s the table: its
    /// space is reused by later writes, without `VACUUM FULL`'s lock that would stop every other
    /// writer meanwhile. The sizes are the table's with its indexes.
    package func vacuum(now: Date) async throws(HistoryError) -> (pruned: Int, before: Int64, after: Int64) {
        let size: PostgresQuery = "SELECT pg_total_relation_size('conditions_history_changes')"
        let before = try await rows(size, as: Int64.self).first ?? 0
        let cutoff = Self.milliseconds(now) - Int64(retain * 1000)
        let pruned = try await rows("""
            WITH gone AS (DELETE FROM conditions_history_changes WHERE last_seen < to_timestamp(\(cutoff) / 1000.0) RETURNING 1)
            SELECT count(*) FROM gone
            """, as: Int64.self).first ?? 0
        // Every settled change together by URN before the table is vacuumed (`+Packing`), a
        // pass at a time: a writer of a URN being moved waits for one pass, not for all of them.
        while try await pack(settledBefore: now.addingTimeInterval(-Self.settledAfter), most: Self.packedPerPass) == Self.packedPerPass {}
        _ = try await rows("VACUUM (ANALYZE) conditions_history_changes", as: Int64.self)
        return (Int(pruned), before, try await rows(size, as: Int64.self).first ?? 0)
    }

    // MARK: Schema

    /// Runs the migrations the database lacks, in one transaction holding an advisory lock, so
    /// replicas starting at once migrate it once: the others wait, then find it done.
    private func migrate() async throws(HistoryError) {
        let connection = try await connected()
        do {
            try await connection.query("BEGIN", logger: logger)
            do {
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS conditions_history_migrations (
                        version integer PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """, logger: logger)
                var version = 0
                for try await found in try await connection.query("SELECT coalesce(max(version), 0) FROM conditions_history_migrations", logger: logger)
                    .decode(Int32.self) { version = Int(found) }
                if version > Self.latest {
                    throw HistoryError(store: location, kind: .newerSchema,
                                       reason: "written by a newer conditions (history schema \(version); this one knows up to \(Self.latest)); upgrade conditions, or point \"history\": {\"url\"} at another database")
                }
                while version < Self.latest {
                    for statement in Self.statements(String(decoding: Self.migrations[version], as: UTF8.self)) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    version += 1
                    try await connection.query("INSERT INTO conditions_history_migrations (version) VALUES (\(Int32(version)))", logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        } catch {
            throw failure(error)
        }
    }

    /// A migration file's statements: split at each `;` ending a line outside a `$$` body
    /// (postgres-nio sends one statement per query); comments alone are no statement.
    static func statements(_ text: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inBody = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            current += line + "\n"
            if line.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody, line.trimmingCharacters(in: .whitespaces).hasSuffix(";") {
                statements.append(current)
                current = ""
            }
        }
        statements.append(current)
        return statements.filter { statement in
            statement.split(separator: "\n").contains { line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return !trimmed.isEmpty && !trimmed.hasPrefix("--")
            }
        }
    }

    // MARK: Statements

    private func changeRows(_ query: PostgresQuery) async throws(HistoryError) -> [HistoryChange] {
        let connection = try await connected()
        do {
            var changes: [HistoryChange] = []
            // Each column decoded as its own type, not the row as one tuple: postgres-nio's
            // tuple decoding is generic over a parameter pack the compiler does not specialize,
            // and looked up type metadata per row, ~37 % of a week's read (docs/performance.md, issue 35).
            for try await row in try await connection.query(query, logger: logger) {
                let cells = row.makeRandomAccess()
                changes.append(HistoryChange(id: try cells[0].decode(Int64.self), urn: try cells[1].decode(String.self),
                                             firstSeen: Self.date(try cells[2].decode(Int64.self)), lastSeen: Self.date(try cells[3].decode(Int64.self)),
                                             observations: Int(try cells[4].decode(Int32.self)), status: try cells[5].decode(String.self),
                                             resultText: try cells[6].decode(String.self)))
            }
            return changes
        } catch {
            throw await failure(error, on: connection)
        }
    }

    func rows<Value: PostgresDecodable & Sendable>(_ query: PostgresQuery, as: Value.Type) async throws(HistoryError) -> [Value] {
        let connection = try await connected()
        do {
            var values: [Value] = []
            for try await value in try await connection.query(query, logger: logger).decode(Value.self) { values.append(value) }
            return values
        } catch {
            throw await failure(error, on: connection)
        }
    }

    /// Runs `query`, its rows (if any) read and dropped.
    func execute(_ query: PostgresQuery) async throws(HistoryError) {
        let connection = try await connected()
        do {
            for try await _ in try await connection.query(query, logger: logger) {}
        } catch {
            throw await failure(error, on: connection)
        }
    }

    /// Rows of (text, int4, int8), each column decoded as its own type.
    func triples(_ query: PostgresQuery) async throws(HistoryError) -> [(String, Int32, Int64)] {
        let connection = try await connected()
        do {
            var triples: [(String, Int32, Int64)] = []
            for try await row in try await connection.query(query, logger: logger) {
                let cells = row.makeRandomAccess()
                triples.append((try cells[0].decode(String.self), try cells[1].decode(Int32.self), try cells[2].decode(Int64.self)))
            }
            return triples
        } catch {
            throw await failure(error, on: connection)
        }
    }

    private func binds(_ values: any PostgresEncodable...) throws(HistoryError) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        do { for value in values { try bindings.append(value) } } catch { throw failure(error) }
        return bindings
    }

    /// The open connection, connecting when there is none (first use, or lost).
    private func connected() async throws(HistoryError) -> PostgresConnection {
        let task: Task<PostgresConnection, any Error> = connection.withLock { task in
            if let task { return task }
            let made = Task { [database, logger] in try await Self.connect(database, logger: logger) }
            task = made
            return made
        }
        do {
            let open = try await task.value
            if !open.isClosed { return open }
        } catch {
            connection.withLock { if $0 == task { $0 = nil } }
            throw failure(error)
        }
        // Lost since it was made: the next call connects again.
        connection.withLock { if $0 == task { $0 = nil } }
        if let lost = try? await task.value { await Self.close(lost) }
        if closed.withLock({ $0 }) { throw HistoryError(store: location, kind: .other, reason: "the store is closed") }
        return try await connected()
    }

    private static let connectionIDs = Atomic<Int>(0)

    private static func connect(_ database: HistoryDatabase, logger: Logger) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(host: database.host, port: database.port, username: database.user,
                                                             password: database.password, database: database.database, tls: try tls(database))
        configuration.options.connectTimeout = .seconds(10)
        let id = connectionIDs.add(1, ordering: .relaxed).newValue
        let connection = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
        unclosed.withLock { $0[ObjectIdentifier(connection)] = connection }
        return connection
    }

    /// libpq's `sslmode` as postgres-nio's TLS settings.
    static func tls(_ database: HistoryDatabase) throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = try tlsConfiguration(database) else { return .disable }
        let context = try NIOSSLContext(configuration: configuration)
        return database.sslmode == .prefer ? .prefer(context) : .require(context)
    }

    /// What `sslmode` asks of TLS (nil: none), for this store's connection and the fleet's pool.
    static func tlsConfiguration(_ database: HistoryDatabase) throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch database.sslmode {
        case .disable:
            return nil
        case .prefer, .require:
            // libpq's prefer and require encrypt without verifying whom they talk to.
            configuration.certificateVerification = .none
        case .verifyFull:
            // NIOSSL checks a certificate against a host name (SNI), never an IP address: with an
            // address nothing would check whom the chain was issued to.
            if database.host.isIPAddressLiteral {
                throw Refused(reason: "sslmode verify-full needs the server's host name in the URL, not the address \(database.host)")
            }
            configuration.certificateVerification = .fullVerification
            if let root = database.sslrootcert { configuration.trustRoots = .file(root.path) }
        }
        return configuration
    }

    /// Milliseconds since 1970, as both stores keep times.
    static func milliseconds(_ date: Date) -> Int64 { Int64(HistoryStore.milliseconds(date)) }

    static func date(_ milliseconds: Int64) -> Date { HistoryStore.date(SQLiteInt64(milliseconds)) }

    /// A configuration that cannot connect as asked.
    struct Refused: Error { let reason: String }

    // MARK: Errors

    /// `error` as a `HistoryError` naming the URL without the password; a lost connection is
    /// dropped so the next call connects again.
    private func failure(_ error: any Error) -> HistoryError {
        Self.failure(error, location: location)
    }

    /// `error` of a statement on `used`; a connection that is lost (or whose server cannot be
    /// reached) is closed and forgotten, so the next call connects again.
    private func failure(_ error: any Error, on used: PostgresConnection) async -> HistoryError {
        let failure = Self.failure(error, location: location)
        guard failure.kind == .unreachable || used.isClosed else { return failure }
        if let current = connection.withLock({ $0 }), (try? await current.value) === used {
            connection.withLock { if $0 == current { $0 = nil } }
        }
        await Self.close(used)
        return failure
    }

    static func failure(_ error: any Error, location: String) -> HistoryError {
        if let error = error as? HistoryError { return error }
        if let error = error as? Refused { return HistoryError(store: location, kind: .refused, reason: error.reason) }
        if let error = error as? NIOSSLError { return HistoryError(store: location, kind: .refused, reason: "TLS: \(error)") }
        if let error = error as? BoringSSLError { return HistoryError(store: location, kind: .refused, reason: "TLS: \(error)") }
        guard let error = error as? PSQLError else {
            return HistoryError(store: location, kind: .unreachable, reason: String(describing: error))
        }
        // postgres-nio's own description of its error hides the server's message (it could
        // echo a query's values); the server's message and SQLSTATE name no password.
        let message = error.serverInfo?[.message]
        let state = error.serverInfo?[.sqlState] ?? ""
        switch error.code {
        case .server:
            // 28xxx: the login was refused (password, role, pg_hba.conf); 3D000: no such database.
            let refused = state.hasPrefix("28") || state == "3D000"
            return HistoryError(store: location, kind: refused ? .refused : .other, reason: message ?? "the server reported \(state)")
        case .authMechanismRequiresPassword:
            return HistoryError(store: location, kind: .refused, reason: "the server asks for a password and none is configured (${ENV} in the URL, history.passwordFile or ~/.pgpass)")
        case .sslUnsupported:
            return HistoryError(store: location, kind: .refused, reason: "the server does not offer TLS, which sslmode require and verify-full need")
        case .unsupportedAuthMechanism, .saslError:
            return HistoryError(store: location, kind: .refused, reason: "the server's authentication cannot be done (\(error.code))")
        case .failedToAddSSLHandler:
            return HistoryError(store: location, kind: .refused, reason: "TLS could not be set up\(error.underlying.map { ": \($0)" } ?? "")")
        default:
            if let underlying = error.underlying {
                if underlying is NIOSSLError || underlying is BoringSSLError {
                    return HistoryError(store: location, kind: .refused, reason: "TLS: \(underlying)")
                }
                return HistoryError(store: location, kind: .unreachable, reason: "cannot reach the server: \(underlying)")
            }
            return HistoryError(store: location, kind: .unreachable, reason: "cannot reach the server (\(error.code))")
        }
    }
}

extension String {
    /// Whether this is an IPv4 or IPv6 address rather than a host name.
    var isIPAddressLiteral: Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, self, &v4) == 1 || inet_pton(AF_INET6, self, &v6) == 1
    }
}
