import ConditionsKit
import Foundation
import Logging
import Synchronization

/// How `watch` and `serve` keep history: the store opened on the first observation (a command
/// that records nothing never opens it), every observation recorded, and no fault of the
/// store's ever stopping the command.
///
/// - A store that cannot be opened (corrupt, unreadable, a newer schema's, a database that
///   cannot be reached) is logged once; recording is then off for the rest of the run.
/// - A write that fails (disk full, another process holding the store past the busy timeout)
///   is logged, and so is the first write that succeeds again.
package final class HistoryRecorder: Sendable {
    private enum State: Sendable {
        case closed
        case opening(Task<(any HistoryStoring)?, Never>)
        case open(any HistoryStoring)
        case off(HistoryError)
    }

    /// The store: an SQLite file or a PostgreSQL database, as the settings select.
    package let location: HistoryLocation
    /// Changes last seen longer ago than this are pruned.
    package let retain: Double
    private let logger: Logger
    private let catalog: SourceCatalog
    private let state = Mutex<State>(.closed)
    /// Writes that failed since the last one that succeeded.
    private let failedWrites = Mutex(0)
    /// Every change this recorder commits, as it commits it.
    package let changes = LocalChangeFeed()

    /// A recorder for the store at `location` (`HistorySettings.location(environment:)`),
    /// pruning past `retain`; `catalog` says what of a result is a change.
    package init(location: HistoryLocation, retain: Double, catalog: SourceCatalog, logger: Logger) {
        self.catalog = catalog
        self.location = location
        self.retain = retain
        self.logger = logger
    }

    /// Records one poll's (or one resolution's) records, observed at `at`; returns once they
    /// are committed, or once the failure is logged. Returns, for each record in the order
    /// given, the id of the stored change it now belongs to (new or extended), nil for one not
    /// recorded (not an observation, or the store failed); each id is told to `changes` too.
    @discardableResult
    package func record(_ records: [ResultRecord], at: Date) async -> [Int64?] {
        var ids = [Int64?](repeating: nil, count: records.count)
        let observed = records.indices.filter { Self.isObservation(records[$0]) }
        guard !observed.isEmpty, let store = await store() else { return ids }
        do {
            let stored = try await store.record(observed.map { HistoryObservation(records[$0], at: at, catalog: catalog) })
            for (index, id) in zip(observed, stored) { ids[index] = id }
            changes.publish(zip(observed, stored).map { RecordedChange(urn: records[$0].urn, id: $1) })
            let failed = failedWrites.withLock { count in defer { count = 0 }; return count }
            if failed > 0 { logger.warning("history: recording again in \(location) after \(failed) failed write\(failed == 1 ? "" : "s")") }
        } catch {
            let failed = failedWrites.withLock { count in count += 1; return count }
            let what = observed.count == 1 ? records[observed[0]].urn : "\(observed.count) results"
            if failed == 1 {
                logger.error("history: could not record \(what): \(error); going on without recording until a write succeeds")
            } else {
                logger.debug("history: could not record \(what): \(error.reason) (\(failed) failed writes)")
            }
        }
        return ids
    }

    /// Whether `record` says something about conditions: a result, or an upstream's failure
    /// (`error: timeout` is a state worth keeping). A URN that is malformed, routes nowhere or
    /// has arguments its source rejects is the asker's mistake, and a server would otherwise
    /// keep one row for every such URN any client sends.
    static func isObservation(_ record: ResultRecord) -> Bool {
        guard case .failure(let kind, _, _) = record.outcome else { return true }
        return !["invalidURN", "notFound", "invalidArguments", "configuration"].contains(kind)
    }

    /// The open store, opening it on the first call; nil when recording is off because it
    /// could not be opened (logged once).
    package func store() async -> (any HistoryStoring)? {
        enum Step { case ready((any HistoryStoring)?), wait(Task<(any HistoryStoring)?, Never>) }
        let step: Step = state.withLock { state in
            switch state {
            case .open(let store): return .ready(store)
            case .off: return .ready(nil)
            case .opening(let task): return .wait(task)
            case .closed:
                let task = Task { await self.openNow() }
                state = .opening(task)
                return .wait(task)
            }
        }
        switch step {
        case .ready(let store): return store
        case .wait(let task): return await task.value
        }
    }

    private func openNow() async -> (any HistoryStoring)? {
        do {
            let store = try await location.open(retain: retain, logger: logger)
            state.withLock { $0 = .open(store) }
            return store
        } catch {
            state.withLock { $0 = .off(error) }
            logger.error("history: not recording: \(error)")
            return nil
        }
    }

    /// Why recording is off, once opening the store failed; nil otherwise.
    package var failure: HistoryError? {
        state.withLock { if case .off(let error) = $0 { error } else { nil } }
    }

    /// Closes the store if it was opened.
    package func close() async {
        let opened: Task<(any HistoryStoring)?, Never>? = state.withLock { state in
            switch state {
            case .open(let store): return Task { store }
            case .opening(let task): return task
            case .closed, .off: return nil
            }
        }
        await opened?.value?.close()
    }
}
