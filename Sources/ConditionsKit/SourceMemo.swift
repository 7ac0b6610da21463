import ConditionsJSON
import Foundation

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

/// The memo of a context made without one: it keeps nothing, so every call makes its value.
struct UnkeptMemo: SourceMemo {
    func value(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue {
        try await make()
    }
}
