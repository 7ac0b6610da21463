import ConditionsJSON
import Crypto
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// What replicas of `conditions serve` share through PostgreSQL besides history: upstream
/// documents one replica fetched (so the others need not), the leases saying who is fetching
/// one now, and announcements of changes any replica recorded (made by the history store's
/// record function when a change commits, `postgres-2.sql`; heard here).
///
/// No request may wait on PostgreSQL for long or fail because of it: every call here is
/// bounded (`deadline`, 2 s by default) and answers "nothing shared" when the database is slow
/// or down, and the caller goes on alone. Whether the database answers is tracked by a
/// health loop (`availability`, for `/readyz`), which logs once when it goes and once when
/// it comes back, retrying with a backoff in between.
package final class FleetDatabase: SharedDocuments, ChangeFeed {
    /// A change another replica (or this one) recorded, or word that announcements may have
    /// been missed (the listening connection was lost and is back), so a listener catches up
    /// from history.
    package enum Announcement: Sendable, Equatable {
        case change(id: Int64, urn: String)
        case resumed
    }

    /// Whether the database answers.
    package enum Availability: Sendable, Equatable {
        case unknown
        case ready
        case unavailable(reason: String)
    }

    /// How long any one call on a request's path may wait for the database before the caller
    /// goes on without it.
    package let deadline: Duration
    /// How long storing or releasing a document may take: nobody waits for it (the caller runs
    /// it in the background), and giving up early would leave the others waiting out a lease.
    static let backgroundDeadline: Duration = .seconds(30)
    /// The channel announcements travel on.
    static let channel = "conditions_changes"

    private let client: PostgresClient
    /// The URL without its password, for log lines.
    package let shownURL: String
    /// Who holds a lease: this process, told apart from every other replica.
    package let holder: String
    private let logger: Logger
    private let state = Mutex<Availability>(.unknown)
    private let listeners = Mutex<[Int: AsyncStream<Announcement>.Continuation]>([:])
    private let nextListener = Mutex(0)
    /// The highest change id announced so far: where catching up after a lost connection starts.
    private let lastAnnounced = Mutex<Int64>(0)

    /// A fleet database reached through `configuration`; nothing is connected until `run`.
    /// `deadline`: how long a call on a request's path may wait for the database (tests that
    /// check what the database answers, not how fast, give it longer).
    package init(configuration: PostgresClient.Configuration, shownURL: String, logger: Logger, deadline: Duration = .seconds(2)) {
        var configuration = configuration
        // A connection attempt to a database that is down must not outlive a request's patience.
        configuration.options.connectTimeout = deadline
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.deadline = deadline
        self.shownURL = shownURL
        self.logger = logger
        holder = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))"
    }

    /// The fleet database of `database` (history's), with its TLS as `sslmode` says, each call
    /// on a request's path waiting at most `deadline` (`"history": {"fleetTimeout"}`).
    package convenience init(database: HistoryDatabase, logger: Logger, deadline: Duration = .seconds(2)) throws {
        self.init(configuration: .init(host: database.host, port: database.port, username: database.user, password: database.password,
                                       database: database.database, tls: try Self.tls(database)),
                  shownURL: database.displayURL, logger: logger, deadline: deadline)
    }

    /// libpq's `sslmode` as the pool's TLS settings (`PostgresHistoryStore.tlsConfiguration`).
    static func tls(_ database: HistoryDatabase) throws -> PostgresClient.Configuration.TLS {
        guard let configuration = try PostgresHistoryStore.tlsConfiguration(database) else { return .disable }
        return database.sslmode == .prefer ? .prefer(configuration) : .require(configuration)
    }

    /// Whether the database answered its last check.
    package var availability: Availability { state.withLock { $0 } }

    /// Runs the connection pool, the health loop and the announcement listener until cancelled.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.watchHealth() }
            group.addTask { await self.listen() }
            await group.next()
            group.cancelAll()
        }
        listeners.withLock { listeners in
            for listener in listeners.values { listener.finish() }
            listeners = [:]
        }
    }

    /// Creates the tables this needs, once across replicas (an advisory lock serializes it).
    package func prepare() async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(FleetSchema.lockKey))", logger: logger)
            for statement in FleetSchema.statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    // MARK: Documents

    /// A digest of `request` (what the tests key documents by; `UpstreamDocuments` makes its
    /// own keys, digests too, so no URL, header or credential is a key in clear).
    package static func key(_ request: String) -> String {
        SHA256.hash(data: Data(request.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A copy of `key` some replica stored that is still fresh at `now`; nil when none is, or
    /// the database does not answer in time.
    package func fresh(_ key: String, now: Date = Date()) async -> StoredDocument? {
        guard isUsable else { return nil }
        return await bounded { [client, logger] in
            let rows = try await client.query("""
                SELECT status, headers, body, url, fetched_at, fresh_until FROM fleet_documents
                 WHERE key = \(key) AND fresh_until > \(now)
                """, logger: logger)
            for try await (status, headers, body, url, fetchedAt, freshUntil) in rows.decode((Int, String, ByteBuffer, String, Date, Date).self) {
                guard let url = URL(string: url) else { return nil }
                return StoredDocument(status: status, headers: Self.headers(headers), body: Data(buffer: body), url: url,
                                      fetchedAt: fetchedAt, freshUntil: freshUntil)
            }
            return nil
        } ?? nil
    }

    /// Takes the lease on `key` for `seconds` (by the database's clock); false when another
    /// replica holds one that has not expired, or the database does not answer.
    package func lease(_ key: String, for seconds: Double) async -> Bool {
        guard isUsable else { return false }
        return await bounded { [client, logger, holder] in
            let rows = try await client.query("""
                INSERT INTO fleet_leases (key, holder, expires_at)
                     VALUES (\(key), \(holder), now() + make_interval(secs => \(seconds)))
                ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                      WHERE fleet_leases.expires_at < now()
                RETURNING holder
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        } ?? false
    }

    /// Takes the lease on `key` for `seconds`, or extends it when this replica holds it: true
    /// when this replica holds it now, false when another does, nil when the database does not
    /// answer (a long-lived role, as publishing to Home Assistant: renewed while alive).
    package func hold(_ key: String, for seconds: Double) async -> Bool? {
        guard isUsable else { return nil }
        return await bounded { [client, logger, holder] in
            let rows = try await client.query("""
                INSERT INTO fleet_leases (key, holder, expires_at)
                     VALUES (\(key), \(holder), now() + make_interval(secs => \(seconds)))
                ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                      WHERE fleet_leases.expires_at < now() OR fleet_leases.holder = EXCLUDED.holder
                RETURNING holder
                """, logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    /// Extends this replica's lease on `key` to `seconds` from now (by the database's clock).
    package func renew(_ key: String, for seconds: Double) async {
        guard isUsable else { return }
        _ = await bounded { [client, logger, holder] in
            try await client.query("""
                UPDATE fleet_leases SET expires_at = now() + make_interval(secs => \(seconds))
                 WHERE key = \(key) AND holder = \(holder)
                """, logger: logger)
        }
    }

    /// Whether another replica's lease on `key` is still alive.
    func isLeased(_ key: String) async -> Bool {
        await bounded { [client, logger] in
            let rows = try await client.query("SELECT 1 FROM fleet_leases WHERE key = \(key) AND expires_at > now()", logger: logger)
            for try await _ in rows { return true }
            return false
        } ?? false
    }

    /// False while the health loop finds the database away: calls then answer "nothing
    /// shared" at once instead of each waiting out the deadline.
    private var isUsable: Bool {
        if case .unavailable = availability { return false }
        return true
    }

    /// Stores what this replica fetched for `key` and releases its lease, in one transaction.
    package func store(_ key: String, _ document: StoredDocument) async {
        _ = await bounded(within: Self.backgroundDeadline) { [client, logger, holder] in
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("""
                    INSERT INTO fleet_documents (key, status, headers, body, url, fetched_at, fresh_until)
                         VALUES (\(key), \(document.status), \(Self.headersText(document.headers)), \(ByteBuffer(data: document.body)),
                                 \(document.url.absoluteString), \(document.fetchedAt), \(document.freshUntil))
                    ON CONFLICT (key) DO UPDATE SET status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body,
                                                   url = EXCLUDED.url, fetched_at = EXCLUDED.fetched_at, fresh_until = EXCLUDED.fresh_until
                    """, logger: logger)
                try await connection.query("DELETE FROM fleet_leases WHERE key = \(key) AND holder = \(holder)", logger: logger)
            }
        }
    }

    /// Gives up this replica's lease on `key` without storing (its fetch failed), so another
    /// may try at once rather than when the lease expires.
    package func release(_ key: String) async {
        _ = await bounded(within: Self.backgroundDeadline) { [client, logger, holder] in
            try await client.query("DELETE FROM fleet_leases WHERE key = \(key) AND holder = \(holder)", logger: logger)
        }
    }

    /// Waits up to `timeout` for another replica to store a fresh `key`; nil when none did (its
    /// holder may have died: the lease then expires and the caller fetches itself).
    package func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument? {
        // Polled: a waiter exists only while one replica fetches a document the others need,
        // a few times per TTL, and polling needs no notification that a restart could lose.
        // Every half second it also looks whether the holder still renews its lease.
        let clock = ContinuousClock()
        let end = clock.now + timeout
        var nextLeaseCheck = clock.now + .milliseconds(500)
        while clock.now < end, isUsable {
            if let document = await fresh(key) { return document }
            if clock.now >= nextLeaseCheck {
                guard await isLeased(key) else { return await fresh(key) }
                nextLeaseCheck = clock.now + .milliseconds(500)
            }
            do { try await Task.sleep(for: .milliseconds(50)) } catch { return nil }
        }
        return nil
    }

    /// Deletes documents that stopped being fresh more than `age` ago and expired leases.
    package func prune(olderThan age: TimeInterval = 3600) async {
        _ = await bounded { [client, logger] in
            try await client.query("DELETE FROM fleet_documents WHERE fresh_until < \(Date().addingTimeInterval(-age))", logger: logger)
            try await client.query("DELETE FROM fleet_leases WHERE expires_at < now()", logger: logger)
        }
    }

    // MARK: Announcements

    /// Every announcement from now on, until `run` ends or the stream is dropped.
    package func announcements() -> AsyncStream<Announcement> {
        let (stream, continuation) = AsyncStream<Announcement>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let id = nextListener.withLock { id in defer { id += 1 }; return id }
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }

    /// The changes any replica stored, as event streams hear of them (after the listening
    /// connection was lost, those stored meanwhile are read from history and told first).
    package func changes() -> AsyncStream<RecordedChange> {
        let announcements = announcements()
        return AsyncStream(bufferingPolicy: .bufferingNewest(4096)) { continuation in
            let forwarding = Task {
                for await announcement in announcements {
                    if case .change(let id, let urn) = announcement { continuation.yield(RecordedChange(urn: urn, id: id)) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    /// `"17 pass:stevens"` as a change announcement.
    static func announcement(_ payload: String) -> Announcement? {
        guard let space = payload.firstIndex(of: " "), let id = Int64(payload[..<space]) else { return nil }
        let urn = String(payload[payload.index(after: space)...])
        return urn.isEmpty ? nil : .change(id: id, urn: urn)
    }

    private func broadcast(_ announcement: Announcement) {
        if case .change(let id, _) = announcement { lastAnnounced.withLock { $0 = max($0, id) } }
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield(announcement) }
    }

    /// The changes history holds after `id` (at most 1,000, oldest first), as announcements:
    /// what a replica missed while its listening connection was down. None before any
    /// announcement was heard (nothing to catch up from).
    private func changesStored(after id: Int64) async -> [Announcement] {
        guard id > 0 else { return [] }
        return await bounded { [client, logger] in
            let rows = try await client.query("""
                SELECT id, urn FROM conditions_history_changes WHERE id > \(id) ORDER BY id LIMIT 1000
                """, logger: logger)
            var missed: [Announcement] = []
            for try await (id, urn) in rows.decode((Int64, String).self) { missed.append(.change(id: id, urn: urn)) }
            return missed
        } ?? []
    }

    /// Holds one connection listening on the channel; when it is lost, waits (with a backoff)
    /// and listens again, announces what history stored meanwhile, then says `resumed`.
    private func listen() async {
        var backoff = Backoff()
        var listenedBefore = false
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if listenedBefore {
                            // What was stored while this replica was not listening, from history.
                            for missed in await self.changesStored(after: self.lastAnnounced.withLock { $0 }) { self.broadcast(missed) }
                            self.broadcast(.resumed)
                        }
                        listenedBefore = true
                        backoff.reset()
                        for try await notification in notifications {
                            if let announcement = Self.announcement(notification.payload) { self.broadcast(announcement) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.debug("fleet: listening on \(shownURL) stopped: \(Self.describe(error))")
            }
            do { try await Task.sleep(for: backoff.next()) } catch { return }
        }
    }

    // MARK: Health

    /// Asks the database every few seconds whether it answers; logs when that changes.
    private func watchHealth() async {
        var backoff = Backoff()
        var checks = 0
        while !Task.isCancelled {
            let wasReady = state.withLock { $0 == .ready }
            // Becoming ready includes having the shared tables (made once, by whichever replica
            // gets there first).
            let failure: String? = await bounded { [self] in
                if wasReady {
                    try await client.query("SELECT 1", logger: logger)
                } else {
                    try await prepare()
                }
                return nil
            } ?? "no answer within \(deadline.components.seconds) s"
            let wait: Duration
            if let failure {
                let before = state.withLock { state in defer { state = .unavailable(reason: failure) }; return state }
                if case .unavailable = before {} else {
                    logger.error("fleet: PostgreSQL at \(shownURL) is unavailable (\(failure)); serving on alone, history spooled, retrying")
                }
                wait = backoff.next()
            } else {
                let before = state.withLock { state in defer { state = .ready }; return state }
                if case .unavailable = before { logger.notice("fleet: PostgreSQL at \(shownURL) answers again") }
                backoff.reset()
                wait = .seconds(5)
                checks += 1
                // Documents long stale and expired leases go every 5 minutes or so.
                if checks % 60 == 0 { await prune() }
            }
            do { try await Task.sleep(for: wait) } catch { return }
        }
    }

    /// Runs `work` for at most `deadline`; nil when it failed or took longer (it is then
    /// cancelled and left to end on its own, never waited for).
    private func bounded<T: Sendable>(within limit: Duration? = nil,
                                      _ work: @escaping @Sendable () async throws -> T) async -> T? {
        let logger = logger
        let outcome: T?? = await withinDeadline(limit ?? deadline) {
            do { return try await work() } catch {
                logger.debug("fleet: \(Self.describe(error))")
                return nil
            }
        }
        return outcome ?? nil
    }

    /// One line for a PostgreSQL error: the server's message when it sent one.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return String(describing: error)
    }

    private static func headers(_ text: String) -> [String: String] {
        guard let object = (try? JSONValue.parse(text))?.objectValue else { return [:] }
        var headers: [String: String] = [:]
        for (name, value) in object { if let value = value.stringValue { headers[name] = value } }
        return headers
    }

    private static func headersText(_ headers: [String: String]) -> String {
        JSONValue.object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })).serialized()
    }
}

/// Waits that double from half a second to 30 s.
struct Backoff {
    private var current: Double = 0.5

    mutating func next() -> Duration {
        defer { current = min(30, current * 2) }
        return .milliseconds(Int64(current * 1000))
    }

    mutating func reset() { current = 0.5 }
}
