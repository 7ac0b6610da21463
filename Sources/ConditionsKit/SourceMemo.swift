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
///
/// A test that wants values kept hands its source `FreshValues<JSONValue>().memo`
/// (`ConditionsMemo`), the memory the host keeps.
public struct SourceMemo: Sendable {
    /// What `value(for:maxAge:now:make:)` does: the keeper's own.
    public typealias Keep = @Sendable (_ key: String, _ maxAge: Double, _ now: Date,
                                       _ make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue

    private let keep: Keep

    /// A memo that keeps values as `keep` does.
    public init(_ keep: @escaping Keep) {
        self.keep = keep
    }

    /// The value kept under `key` if it was made less than `maxAge` seconds before `now`;
    /// otherwise the value `make()` returns, which is kept. Callers asking for one key at the
    /// same time share one `make()`; a `make()` that throws keeps nothing.
    public func value(for key: String, maxAge: Double, now: Date, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue {
        try await keep(key, maxAge, now, make)
    }

    /// As `value(for:maxAge:now:make:)` within what `context` allows: when fresh data is
    /// asked for (`context.maxAge` 0: `--refresh`), nothing kept is used, and the value made
    /// is kept for the calls after.
    public func value(for key: String, maxAge: Double, in context: SourceContext, make: @escaping @Sendable () async throws -> JSONValue) async throws -> JSONValue {
        try await keep(key, context.maxAge > 0 ? maxAge : 0, context.now, make)
    }

    /// The memo of a context made without one: it keeps nothing, so every call makes its value.
    public static let unkept = SourceMemo { _, _, _, make in try await make() }
}
