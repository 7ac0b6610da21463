import ConditionsKit
import Foundation
import Logging
import Synchronization

/// How `watch` and `serve` keep history: the store opened on the first observation (a command
/// that records nothing never opens it), every observation recorded, and no fault of the
/// store's ever stopping the command.
///
/// - A store that cannot be opened (corrupt, unreadable, a newer schema's) is logged once;
///   recording is then off for the rest of the run.
/// - With a spool (`watch`, `serve`): a database that cannot be reached, at start or later,
///   and a write that fails for a reason that may pass (a restart, another process holding
///   the store past the busy timeout) cost nothing. The observations go to the spool file
///   (flushed to disk before `record` returns, so a change already answered is never lost),
///   later ones follow them there, and a background task opens the store again with a backoff
///   and writes the spool in order once it can. Logged once when spooling starts, once when
///   the store takes the spool.
/// - Without one, a write that fails is logged, and so is the first write that succeeds again.
package final class HistoryRecorder: Sendable {
    private enum State: Sendable {
        case closed
        case opening(Task<(any HistoryStoring)?, Never>)
        case open(any HistoryStoring)
        /// Not reached (a database down): the drainer opens it again.
        case unreachable(HistoryError)
        case off(HistoryError)
    }

    /// Whether observations go to the spool, and the task writing the spool to the store.
    private struct Spooling {
        var active = false
        var drainer: Task<Void, Never>?
        var closed = false
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
    /// Where observations wait while the store cannot take them; nil: they are not kept.
    package let spool: HistorySpool?
    private let spooling = Mutex(Spooling())
    /// How long a write to a database may take before its observations are spooled instead
    /// (a server that stopped answering must not hold the request being recorded).
    static let databaseWriteDeadline: Duration = .seconds(5)

    /// A recorder for the store at `location` (`HistorySettings.location(environment:)`),
    /// pruning past `retain`; `catalog` says what of a result is a change; `spool` keeps what
    /// the store cannot take yet.
    package init(location: HistoryLocation, retain: Double, catalog: SourceCatalog, logger: Logger, spool: HistorySpool? = nil) {
        self.catalog = catalog
        self.location = location
        self.retain = retain
        self.logger = logger
        self.spool = spool
    }

    /// Records one poll's (or one resolution's) records, observed at `at`; returns once they
    /// are committed, or once the failure is logged. Returns, for each record in the order
    /// given, the id of the stored change it now belongs to (new or extended), nil for one not
    /// recorded (not an observation, or the store failed); each id is told to `changes` too.
    @discardableResult
    package func record(_ records: [ResultRecord], at: Date) async -> [Int64?] {
        var ids = [Int64?](repeating: nil, count: records.count)
        let observed = records.indices.filter { Self.isObservation(records[$0]) }
        guard !observed.isEmpty else { return ids }
        let observations = observed.map { HistoryObservation(records[$0], at: at, catalog: catalog) }
        // Behind what is spooled: in order, after it.
        if spool != nil, spooling.withLock({ $0.active }) {
            await toSpool(observations, because: nil)
            return ids
        }
        guard let store = await store() else {
            if case .unreachable(let error) = state.withLock({ $0 }) { await toSpool(observations, because: error) }
            return ids
        }
        do {
            let stored = try await write(observations, to: store)
            for (index, id) in zip(observed, stored) { ids[index] = id }
            changes.publish(zip(observed, stored).map { RecordedChange(urn: records[$0].urn, id: $1) })
            let failed = failedWrites.withLock { count in defer { count = 0 }; return count }
            if failed > 0 { logger.warning("history: recording again in \(location) after \(failed) failed write\(failed == 1 ? "" : "s")") }
        } catch {
            if spool != nil, Self.mayPass(error) {
                await toSpool(observations, because: error)
                return ids
            }
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

    /// Writes `observations`; to a database within `databaseWriteDeadline` when there is a
    /// spool to fall back on (one the deadline cut off may still commit: the database places an
    /// observation it has seen in its change, so the spooled copy adds nothing but a count).
    private func write(_ observations: [HistoryObservation], to store: any HistoryStoring) async throws(HistoryError) -> [Int64] {
        guard spool != nil, case .postgres = location else { return try await store.record(observations) }
        let outcome = await withinDeadline(Self.databaseWriteDeadline) { () async -> Result<[Int64], HistoryError> in
            do throws(HistoryError) { return .success(try await store.record(observations)) } catch { return .failure(error) }
        }
        guard let outcome else {
            throw HistoryError(store: location.description, kind: .unreachable, reason: "no answer within \(Self.databaseWriteDeadline.components.seconds) s")
        }
        return try outcome.get()
    }

    /// Whether a failure may pass by itself (a restart, a lock held a while), so what failed is
    /// worth spooling; a store this program cannot use never takes the spool either, and a
    /// full disk would refuse the spool (in the same state folder) as well.
    static func mayPass(_ error: HistoryError) -> Bool {
        ![.unreadable, .newerSchema, .refused, .full].contains(error.kind)
    }

    /// Appends `observations` to the spool and makes sure the drainer runs; `because` is the
    /// failure that started spooling, logged once.
    private func toSpool(_ observations: [HistoryObservation], because error: HistoryError?) async {
        guard let spool else { return }
        let started = spooling.withLock { spooling in defer { spooling.active = true }; return !spooling.active }
        if started, let error {
            logger.error("history: \(error); keeping changes in \(spool.file.path) until the store takes them")
        }
        do {
            try await spool.append(observations)
        } catch {
            logger.error("history: could not spool \(observations.count == 1 ? observations[0].urn : "\(observations.count) results"): \(error)")
        }
        startDrainer()
    }

    /// Starts the task that opens the store again and writes the spool, unless it runs.
    private func startDrainer() {
        guard let spool else { return }
        spooling.withLock { spooling in
            guard spooling.drainer == nil, !spooling.closed else { return }
            spooling.drainer = Task { await self.drain(spool) }
        }
    }

    /// Until the spool is written: opens the store if it is not open, writes the spool (its
    /// own and those of processes that are gone), waiting longer after each failure.
    private func drain(_ spool: HistorySpool) async {
        var backoff = Backoff()
        var written = 0
        while !Task.isCancelled {
            if let store = await reopenedStore() {
                do {
                    let result = try await spool.drain { chunk in
                        let ids = try await self.write(chunk, to: store)
                        self.changes.publish(zip(chunk, ids).map { RecordedChange(urn: $0.urn, id: $1) })
                    }
                    written += result.written
                    if result.torn > 0 { logger.warning("history: skipped \(result.torn) unfinished line\(result.torn == 1 ? "" : "s") in spool files of \(spool.folder.path)") }
                    // Whatever was appended meanwhile waits for the next round.
                    let done = spooling.withLock { spooling -> Bool in
                        guard spool.isEmpty else { return false }
                        spooling.active = false
                        spooling.drainer = nil
                        return true
                    }
                    if done {
                        if written > 0 { logger.notice("history: \(location) took \(written) spooled observation\(written == 1 ? "" : "s"); recording directly again") }
                        return
                    }
                    continue
                } catch {
                    logger.debug("history: spool not written yet: \(error)")
                }
            }
            do { try await Task.sleep(for: backoff.next()) } catch { break }
        }
        spooling.withLock { $0.drainer = nil }
    }

    /// The open store, opening it again when it was not reached; nil while it cannot be.
    private func reopenedStore() async -> (any HistoryStoring)? {
        if case .unreachable = state.withLock({ $0 }) { state.withLock { $0 = .closed } }
        return await store()
    }

    /// Whether `record` says something about conditions: a result, or an upstream's failure
    /// (`error: timeout` is a state worth keeping). A URN that is malformed, routes nowhere or
    /// has arguments its source rejects is the asker's mistake, and a server would otherwise
    /// keep one row for every such URN any client sends.
    static func isObservation(_ record: ResultRecord) -> Bool {
        guard case .failure(let kind, _, _) = record.outcome else { return true }
        return kind.isObservation
    }

    /// The open store, opening it on the first call; nil when recording is off because it
    /// could not be opened (logged once).
    package func store() async -> (any HistoryStoring)? {
        enum Step { case ready((any HistoryStoring)?), wait(Task<(any HistoryStoring)?, Never>) }
        let step: Step = state.withLock { state in
            switch state {
            case .open(let store): return .ready(store)
            case .off, .unreachable: return .ready(nil)
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
            // Spools of processes that are gone (a replica killed while its database was away).
            if spool != nil { startDrainer() }
            return store
        } catch {
            if spool != nil, error.kind == .unreachable {
                // Tried again by the drainer; what is seen meanwhile is spooled (and logged then).
                state.withLock { $0 = .unreachable(error) }
                return nil
            }
            state.withLock { $0 = .off(error) }
            logger.error("history: not recording: \(error)")
            return nil
        }
    }

    /// Why recording is off, once opening the store failed; nil otherwise.
    package var failure: HistoryError? {
        state.withLock { if case .off(let error) = $0 { error } else { nil } }
    }

    /// Stops writing the spool (what is left stays in its file for the next run) and closes
    /// the store if it was opened.
    package func close() async {
        let drainer = spooling.withLock { spooling in
            spooling.closed = true
            return spooling.drainer
        }
        drainer?.cancel()
        await drainer?.value
        let opened: Task<(any HistoryStoring)?, Never>? = state.withLock { state in
            switch state {
            case .open(let store): return Task { store }
            case .opening(let task): return task
            case .closed, .off, .unreachable: return nil
            }
        }
        await opened?.value?.close()
    }
}
