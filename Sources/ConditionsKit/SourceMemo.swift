import Foundation
import Synchronization

/// Small answers a source keeps between URNs and between runs: lookups whose answer rarely
/// changes (NWS's point → forecast grid), so they are asked once, not for every URN.
///
/// The host keeps one memo per source instance for the life of the process and, where its
/// result cache is on, in the cache folder across runs (hashed names, like results); with the
/// cache off (`--no-cache`, `"cache": {"enabled": false}`) values last the process only, and
/// `--refresh` ignores what earlier runs kept. Keys are the source's own; instances never see
/// each other's values, and editing an instance's options starts it afresh.
///
/// ```swift
/// let grid = try await context.memo.value(for: "points/47.745,-121.0933", maxAge: 86_400, now: context.now) {
///     try await lookUpGrid()   // a JSONValue
/// }
/// ```
public protocol SourceMemo: Sendable {
    /// The value kept under `key` if it was made less than `maxAge` seconds before `now`;
    /// otherwise the value `make()` returns, which is kept. Callers asking for one key at the
    /// same time share one `make()`; a `make()` that throws keeps nothing.
    func value(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue
}

/// A memo in this process's memory: what the host keeps per instance in front of its cache
/// folder, and what a test hands a source. At most `capacity` keys; the oldest go first.
public final class MemoryMemo: SourceMemo {
    /// A value and the instant (the report clock) it was made at.
    package struct Made: Sendable {
        package let value: JSONValue
        package let madeAt: Date

        package init(value: JSONValue, madeAt: Date) {
            self.value = value
            self.madeAt = madeAt
        }
    }

    private struct Entry {
        let task: Task<Made, any Error>
        /// Set once `task` succeeded.
        var madeAt: Date?
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    /// An empty memo keeping at most `capacity` keys (literal coordinates from a server's
    /// clients must not grow it without bound).
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    public func value(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue {
        try await made(for: key, maxAge: maxAge, now: now) { Made(value: try await make(), madeAt: now) }.value
    }

    /// As `value(for:…)`, for a `make()` that knows when its value was made (one read from the
    /// host's cache folder is older than now).
    package func made(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> Made) async throws -> Made {
        let task = entries.withLock { entries -> Task<Made, any Error> in
            if let current = entries[key] {
                guard let madeAt = current.madeAt else { return current.task }
                let age = now.timeIntervalSince(madeAt)
                if age >= 0, age < maxAge { return current.task }
            }
            if entries[key] == nil, entries.count >= capacity { evictOldest(&entries) }
            // Unstructured, so one caller's cancellation does not fail the others sharing it.
            let task = Task { try await make() }
            entries[key] = Entry(task: task, madeAt: nil)
            return task
        }
        do {
            let made = try await task.value
            entries.withLock { entries in
                if entries[key]?.task == task, entries[key]?.madeAt == nil { entries[key]?.madeAt = made.madeAt }
            }
            return made
        } catch {
            entries.withLock { entries in
                if entries[key]?.task == task { entries[key] = nil }
            }
            throw error
        }
    }

    /// Drops the entry made longest ago (one still being made counts as newest).
    private func evictOldest(_ entries: inout [String: Entry]) {
        let oldest = entries.min { ($0.value.madeAt ?? .distantFuture) < ($1.value.madeAt ?? .distantFuture) }
        if let oldest { entries[oldest.key] = nil }
    }
}
