import ConditionsJSON
import ConditionsKit
import Foundation

/// A memo in this process's memory: what the host keeps per instance in front of its cache
/// folder, and what a test hands a source. At most `capacity` keys; the oldest go first.
public final class MemoryMemo: SourceMemo {
    /// A value and the instant (the report clock) it was made at.
    package typealias Made = FreshValues<JSONValue>.Made

    private let values: FreshValues<JSONValue>

    /// An empty memo keeping at most `capacity` keys (literal coordinates from a server's
    /// clients must not grow it without bound).
    public init(capacity: Int = 1024) {
        values = FreshValues(capacity: capacity)
    }

    public func value(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue {
        try await made(for: key, maxAge: maxAge, now: now) { Made(value: try await make(), madeAt: now) }.value
    }

    /// As `value(for:…)`, for a `make()` that knows when its value was made (one read from the
    /// host's cache folder is older than now).
    package func made(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> Made) async throws -> Made {
        try await values.made(for: key, maxAge: maxAge, now: now, make: make)
    }
}
