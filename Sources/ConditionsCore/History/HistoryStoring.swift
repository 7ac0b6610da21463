import Foundation
import Logging

/// What `watch`, `serve`, `conditions history`, `/v1/history`, the MCP tool and the dashboard
/// ask of a history store, whichever keeps it: an SQLite file (`HistoryStore`, the default) or a
/// PostgreSQL database (`PostgresHistoryStore`, `"history": {"url"}`). Both keep the same rows
/// with the same rules (docs/history.md): one row per change, observations with the change key
/// of their URN's latest change collapse into it, and a few expired changes go with each write.
package protocol HistoryStoring: Sendable {
    /// The store as messages name it: the file's path, or the URL without its password.
    var location: String { get }
    /// Changes last seen longer ago than this are pruned as new ones are written.
    var retain: Double { get }

    /// Records `observations`, each extending its URN's latest change or starting a new one,
    /// and returns, for each, the id of the change it now belongs to. Returns once committed.
    @discardableResult
    func record(_ observations: [HistoryObservation]) async throws(HistoryError) -> [Int64]

    /// `urn`'s changes current at some time between `from` and `to`, oldest first; with
    /// `limit`, only the latest `limit`, and `truncated` says whether any were left out.
    func changes(urn: String, from: Date, to: Date, limit: Int?) async throws(HistoryError) -> (changes: [HistoryChange], truncated: Bool)

    /// The changes with an id above `afterID` of `urns` (every URN when empty), in id order,
    /// at most `limit`: what a client that last saw change `afterID` has not seen started.
    func changes(afterID: Int64, urns: [String], limit: Int) async throws(HistoryError) -> [HistoryChange]

    /// How many changes the store holds.
    func count() async throws(HistoryError) -> Int

    /// Prunes every change last seen more than `retain` before `now` and compacts the store;
    /// how many went and its size before and after.
    func vacuum(now: Date) async throws(HistoryError) -> (pruned: Int, before: Int64, after: Int64)

    /// Closes the store; it is unusable afterwards.
    func close() async
}

extension HistoryStoring {
    /// Every change of `urn` current between `from` and `to`.
    package func changes(urn: String, from: Date, to: Date) async throws(HistoryError) -> (changes: [HistoryChange], truncated: Bool) {
        try await changes(urn: urn, from: from, to: to, limit: nil)
    }

    /// Prunes and compacts as of now.
    package func vacuum() async throws(HistoryError) -> (pruned: Int, before: Int64, after: Int64) {
        try await vacuum(now: Date())
    }
}

/// Where the history is kept, as the settings and the environment select it.
package enum HistoryLocation: Sendable, CustomStringConvertible {
    /// An SQLite file.
    case file(URL)
    /// A PostgreSQL database.
    case postgres(HistoryDatabase)

    /// The file's path, or the URL without the password.
    package var description: String {
        switch self {
        case .file(let file): file.path
        case .postgres(let database): database.displayURL
        }
    }

    /// Opens the store, creating it (and its schema) when missing.
    package func open(retain: Double, logger: Logger) async throws(HistoryError) -> any HistoryStoring {
        switch self {
        case .file(let file): try await HistoryStore.open(file, retain: retain, logger: logger)
        case .postgres(let database): try await PostgresHistoryStore.open(database, retain: retain, logger: logger)
        }
    }

    /// For a database, logs in and out (`PostgresHistoryStore.logIn`); a file is not touched.
    package func logIn(logger: Logger) async throws(HistoryError) {
        if case .postgres(let database) = self { try await PostgresHistoryStore.logIn(database, logger: logger) }
    }

    /// Opens the store for reading: nil when an SQLite file does not exist yet (a query
    /// creates none); a database is always opened.
    package func openIfPresent(retain: Double, logger: Logger) async throws(HistoryError) -> (any HistoryStoring)? {
        switch self {
        case .file(let file): try await HistoryStore.openIfPresent(file, retain: retain, logger: logger)
        case .postgres(let database): try await PostgresHistoryStore.open(database, retain: retain, logger: logger)
        }
    }
}
