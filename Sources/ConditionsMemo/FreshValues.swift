import ConditionsJSON
import ConditionsKit
import Foundation
import Synchronization

/// Values by key, made once and handed out again while fresh: the memory behind most layers of
/// docs/caching.md.
///
/// - Callers asking for a key at the same time share one `make()`; a `make()` that throws keeps
///   nothing.
/// - A value is handed out while it is younger than the caller's `maxAge` (measured on the
///   caller's clock, the report clock: tests pin it) and before its own `keptUntil`, if it has one.
/// - At most `Limits.entries` keys and about `Limits.bytes` bytes: values no longer fresh go
///   first, then the least recently used. A value larger than the whole budget is handed out
///   but not kept.
///
/// One type for every in-memory layer: the source memo (each instance's `SourceMemo`, with the
/// result cache's folder read through), a module's memory (WSDOT's parsed feed), the upstream
/// documents, and `conditions serve`'s answer memory, which its event loops read with
/// `kept(for:now:)`.
public final class FreshValues<Value: Sendable>: Sendable {
    /// A value, the instant it was made at (the caller's clock), and how long it may be kept.
    public struct Made: Sendable {
        public let value: Value
        public let madeAt: Date
        /// Never handed out from memory at or after this instant; nil: as long as callers'
        /// `maxAge` allows.
        public let keptUntil: Date?
        /// What keeping it costs, counted against `Limits.bytes`.
        public let bytes: Int

        public init(value: Value, madeAt: Date, keptUntil: Date? = nil, bytes: Int = 0) {
            self.value = value
            self.madeAt = madeAt
            self.keptUntil = keptUntil
            self.bytes = bytes
        }

        func isFresh(at now: Date, maxAge: Double) -> Bool {
            let age = now.timeIntervalSince(madeAt)
            return age >= 0 && age < maxAge && keptUntil.map { now < $0 } ?? true
        }
    }

    /// How much is kept.
    public struct Limits: Sendable, Equatable {
        /// At most this many keys.
        public var entries: Int
        /// At most about this many bytes (the sum of the kept values' `Made.bytes`).
        public var bytes: Int

        public init(entries: Int, bytes: Int = .max) {
            self.entries = entries
            self.bytes = bytes
        }
    }

    /// How a call was answered: from memory, by joining a `make()` in flight, or by making.
    public enum Answer: Sendable { case kept, joined, made }

    /// What is kept now, for a server's gauges.
    public struct Usage: Sendable, Equatable {
        public var entries = 0
        public var bytes = 0
        /// Values dropped so far to stay within the limits or because they were no longer fresh.
        public var evictions = 0
    }

    private struct Entry {
        /// nil for a value kept with `keep(_:for:)`.
        let task: Task<Made, any Error>?
        /// Set once `task` succeeded.
        var made: Made?
        var lastUsed: UInt64
    }

    private enum Step { case kept(Made), join(Task<Made, any Error>), started(Task<Made, any Error>) }

    private struct State {
        var entries: [String: Entry] = [:]
        var usage = Usage()
        var tick: UInt64 = 0
        var nextSweep: Date?
    }

    private let state = Mutex(State())
    /// The limits given.
    public let limits: Limits
    private let changed: (@Sendable (Usage) -> Void)?

    /// Values no longer fresh are swept at most this often, on any call, so one past its
    /// `keptUntil` does not stay in memory until the limits happen to need the room.
    static var sweepInterval: Double { 30 }

    /// Keeps at most `limits`; `changed` (a server's gauges) hears the usage after each change,
    /// under the memory's lock: it must be quick and must not call back.
    public init(limits: Limits, changed: (@Sendable (Usage) -> Void)? = nil) {
        self.limits = Limits(entries: max(0, limits.entries), bytes: max(0, limits.bytes))
        self.changed = changed
    }

    /// Keeps at most `capacity` keys (values keyed by what clients send must not grow
    /// without bound).
    public convenience init(capacity: Int = 1024) {
        self.init(limits: Limits(entries: max(1, capacity)))
    }

    /// The value kept under `key` while fresh, the one being made, or what `make()` makes.
    public func made(for key: String, maxAge: Double = .infinity, now: Date,
                     make: @escaping @Sendable () async throws -> Made) async throws -> Made {
        try await answer(for: key, maxAge: maxAge, now: now, make: make).made
    }

    /// As `made(for:maxAge:now:make:)` within what `context` allows: when fresh data is asked
    /// for (`context.maxAge` 0: `--refresh`), nothing kept is used and nothing in flight is
    /// joined; otherwise a value is kept for `maxAge` (the context's when nil).
    public func made(for key: String, in context: SourceContext, maxAge: Double? = nil,
                     make: @escaping @Sendable () async throws -> Made) async throws -> Made {
        guard context.maxAge > 0 else { return try await make() }
        return try await made(for: key, maxAge: maxAge ?? context.maxAge, now: context.now, make: make)
    }

    /// As `made(for:…)`, saying how the call was answered.
    public func answer(for key: String, maxAge: Double = .infinity, now: Date,
                       make: @escaping @Sendable () async throws -> Made) async throws -> (made: Made, answer: Answer) {
        let step: Step = update(now: now) { state in
            if let current = state.entries[key] {
                if current.made == nil, let task = current.task { return .join(task) }
                if let made = current.made, made.isFresh(at: now, maxAge: maxAge) {
                    state.tick += 1
                    state.entries[key]?.lastUsed = state.tick
                    return .kept(made)
                }
                Self.remove(key, from: &state)
                state.usage.evictions += 1
            }
            // Unstructured, so one caller's cancellation does not fail the others sharing it.
            let task = Task { try await make() }
            state.tick += 1
            state.entries[key] = Entry(task: task, made: nil, lastUsed: state.tick)
            return .started(task)
        }
        let (task, started): (Task<Made, any Error>, Bool)
        switch step {
        case .kept(let made): return (made, .kept)
        case .join(let joined): (task, started) = (joined, false)
        case .started(let new): (task, started) = (new, true)
        }
        do {
            let made = try await task.value
            if started {
                update(now: now) { state in
                    guard state.entries[key]?.task == task else { return }
                    guard Self.isWorthKeeping(made, within: limits) else {
                        Self.remove(key, from: &state)
                        return
                    }
                    state.entries[key]?.made = made
                    state.usage.entries += 1
                    state.usage.bytes += made.bytes
                    Self.enforce(limits, on: &state, now: now)
                }
            }
            return (made, started ? .made : .joined)
        } catch {
            update(now: now) { state in
                if state.entries[key]?.task == task { Self.remove(key, from: &state) }
            }
            throw error
        }
    }

    /// Keeps `made` under `key`, as if a call had made it: for a value made elsewhere.
    public func keep(_ made: Made, for key: String) {
        update(now: made.madeAt) { state in
            Self.remove(key, from: &state)
            guard Self.isWorthKeeping(made, within: limits) else { return }
            state.tick += 1
            state.entries[key] = Entry(task: nil, made: made, lastUsed: state.tick)
            state.usage.entries += 1
            state.usage.bytes += made.bytes
            Self.enforce(limits, on: &state, now: made.madeAt)
        }
    }

    /// The value kept under `key` while fresh at `now`, without waiting or making: what a
    /// server's event loop answers from.
    public func kept(for key: String, maxAge: Double = .infinity, now: Date) -> Made? {
        update(now: now) { state in
            guard let made = state.entries[key]?.made else { return nil }
            guard made.isFresh(at: now, maxAge: maxAge) else {
                // Past its own lifetime it is of no use to anyone; one merely older than this
                // caller's maxAge may still serve another.
                if let keptUntil = made.keptUntil, now >= keptUntil {
                    Self.remove(key, from: &state)
                    state.usage.evictions += 1
                }
                return nil
            }
            state.tick += 1
            state.entries[key]?.lastUsed = state.tick
            return made
        }
    }

    /// What is kept now.
    public var usage: Usage { state.withLock { $0.usage } }

    /// Runs `body` under the lock, sweeps when it is time, and tells `changed` of any change
    /// (under the lock too, so a server's gauges hear the changes in order).
    private func update<Result>(now: Date, _ body: (inout State) -> Result) -> Result {
        state.withLock { state in
            let before = state.usage
            if let nextSweep = state.nextSweep, now >= nextSweep { Self.sweep(&state, now: now) }
            let result = body(&state)
            if state.nextSweep == nil, !state.entries.isEmpty { state.nextSweep = now.addingTimeInterval(Self.sweepInterval) }
            if state.usage != before, let changed { changed(state.usage) }
            return result
        }
    }

    /// A value made with no lifetime (an error, a stale answer) or larger than the whole
    /// budget is handed out, not kept.
    private static func isWorthKeeping(_ made: Made, within limits: Limits) -> Bool {
        (made.keptUntil.map { $0 > made.madeAt } ?? true) && made.bytes <= limits.bytes
    }

    private static func remove(_ key: String, from state: inout State) {
        guard let made = state.entries.removeValue(forKey: key)?.made else { return }
        state.usage.entries -= 1
        state.usage.bytes -= made.bytes
    }

    /// Drops values past their `keptUntil`, then the least recently used, until within
    /// `limits`. Values still being made take no room: they are as many as the callers.
    private static func enforce(_ limits: Limits, on state: inout State, now: Date) {
        guard state.usage.entries > limits.entries || state.usage.bytes > limits.bytes else { return }
        sweep(&state, now: now)
        while state.usage.entries > limits.entries || state.usage.bytes > limits.bytes {
            // A scan: paid only when a new value meets full limits (a few microseconds at 4,096).
            let made = state.entries.lazy.filter { $0.value.made != nil }
            guard let oldest = made.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return }
            remove(oldest.key, from: &state)
            state.usage.evictions += 1
        }
    }

    private static func sweep(_ state: inout State, now: Date) {
        let expired = state.entries.filter { entry in entry.value.made?.keptUntil.map { now >= $0 } ?? false }.keys
        for key in expired { remove(key, from: &state) }
        state.usage.evictions += expired.count
        state.nextSweep = state.entries.isEmpty ? nil : now.addingTimeInterval(sweepInterval)
    }
}

/// Each source instance's memo, as a source sees it (`SourceContext.memo`).
extension FreshValues where Value == JSONValue {
    /// This memory as a `SourceMemo`: what a test hands a source, and what the host puts its
    /// disk cache behind.
    public var memo: SourceMemo {
        SourceMemo { key, maxAge, now, make in
            try await self.made(for: key, maxAge: maxAge, now: now) { Made(value: try await make(), madeAt: now) }.value
        }
    }
}
