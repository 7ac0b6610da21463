import Foundation
import Synchronization

/// Values made once and shared while fresh, by key: callers asking for a key at the same time
/// share one `make()`, a value made less than `maxAge` seconds before `now` (the report clock)
/// is handed out again, and a `make()` that throws keeps nothing. At most `capacity` keys; the
/// one made longest ago goes first. The machinery under `MemoryMemo` and WSDOT's feed.
package final class FreshValues<Value: Sendable>: Sendable {
    /// A value and the instant (the report clock) it was made at.
    package struct Made: Sendable {
        package let value: Value
        package let madeAt: Date

        package init(value: Value, madeAt: Date) {
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

    /// Keeps at most `capacity` keys (values keyed by what clients send must not grow without bound).
    package init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// The value kept under `key` while fresh, the one being made, or what `make()` makes.
    package func made(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> Made) async throws -> Made {
        let task = entries.withLock { entries -> Task<Made, any Error> in
            if let current = entries[key] {
                guard let madeAt = current.madeAt else { return current.task }
                let age = now.timeIntervalSince(madeAt)
                if age >= 0, age < maxAge { return current.task }
            }
            if entries[key] == nil, entries.count >= capacity { Self.evictOldest(&entries) }
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
    private static func evictOldest(_ entries: inout [String: Entry]) {
        let oldest = entries.min { ($0.value.madeAt ?? .distantFuture) < ($1.value.madeAt ?? .distantFuture) }
        if let oldest { entries[oldest.key] = nil }
    }
}
