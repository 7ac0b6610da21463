import Foundation

/// Another URN's answer, resolved by the host for a source that combines others
/// (`SourceContext.resolve(_:)`): the same answer a report would print for it, from the
/// same cache, with the same request coalescing and limits.
public struct ResolvedURN: Sendable {
    /// The URN as asked.
    public let urn: String
    /// The instance that answered, when one did.
    public let source: String?
    /// The result, or why the URN failed.
    public let result: Result<SourceResult, ConditionsError>
    /// Seconds since the fetch when every upstream failed and a cached result stands in; nil: fresh.
    public let staleAge: Double?

    /// An answer; the host makes these, tests may too.
    public init(urn: String, source: String?, result: Result<SourceResult, ConditionsError>, staleAge: Double? = nil) {
        self.urn = urn
        self.source = source
        self.result = result
        self.staleAge = staleAge
    }

    /// The input a combined result names (`SourceResult.inputs`): this URN and when it was fetched.
    public var input: SourceResult.Input {
        let fetchedAt = if case .success(let result) = result { result.fetchedAt } else { Date?.none }
        return SourceResult.Input(urn: urn, source: source, fetchedAt: fetchedAt, staleAge: staleAge, failed: !isSuccess)
    }

    private var isSuccess: Bool { if case .success = result { true } else { false } }
}

/// The host's side of `SourceContext.resolve(_:)`.
public protocol URNResolving: Sendable {
    /// Resolves `urns` in the order asked; each failure is confined to its URN.
    func resolve(_ urns: [String]) async -> [ResolvedURN]
}

extension SourceResult {
    /// A URN a combined result was made from: which, who answered, when it was fetched, and
    /// whether it was stale or failed. The host prints them with the result, and a result
    /// with a stale input is stale.
    public struct Input: Sendable, Equatable {
        /// The URN as the combining source asked it.
        public var urn: String
        /// The instance that answered; nil when none did.
        public var source: String?
        /// When its answer was fetched; nil when it failed.
        public var fetchedAt: Date?
        /// Seconds old when a cached answer stood in for a failed fetch; nil: fresh.
        public var staleAge: Double?
        /// Whether the URN failed, so the result was made without it.
        public var failed: Bool

        /// An input; `ResolvedURN.input` makes one from an answer.
        public init(urn: String, source: String?, fetchedAt: Date?, staleAge: Double? = nil, failed: Bool = false) {
            self.urn = urn
            self.source = source
            self.fetchedAt = fetchedAt
            self.staleAge = staleAge
            self.failed = failed
        }
    }
}
