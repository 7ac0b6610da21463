import ConditionsKit
import Synchronization

/// Stands in for the host's side of `SourceContext.resolve(_:)`, for a source that combines
/// other URNs: answers from a dictionary by URN (as asked), and records what was asked.
/// A URN it has no answer for fails with `notFound`.
///
/// ```swift
/// let urns = StubURNs([
///     "tide:seattle": .success(SourceResult(data: ["height": 1.2], kind: "tide")),
///     "wind:seattle": .failure(.upstream("HTTP 503 from wind.example.org")),
/// ])
/// let result = try await source.resolve("coast:seattle", context: SourceContextBuilder(urns: urns).build())
/// #expect(urns.asked == [["tide:seattle", "wind:seattle"]])
/// #expect(result.inputs.map(\.failed) == [false, true])
/// ```
public final class StubURNs: URNResolving {
    private let answers: [String: ResolvedURN]
    private let log = Mutex<[[String]]>([])

    /// Answers each URN with its result, as answered by the instance `source`.
    public init(_ results: [String: Result<SourceResult, ConditionsError>], source: String = "stub") {
        var answers: [String: ResolvedURN] = [:]
        for (urn, result) in results {
            let answered: String? = if case .success = result { source } else { nil }
            answers[urn] = ResolvedURN(urn: urn, source: answered, result: result)
        }
        self.answers = answers
    }

    /// Answers each URN with the `ResolvedURN` given for it (a stale one, say).
    public init(resolved: [String: ResolvedURN]) {
        answers = resolved
    }

    /// The lists of URNs asked for, one per `resolve(_:)` call, in order.
    public var asked: [[String]] { log.withLock { $0 } }

    public func resolve(_ urns: [String]) async -> [ResolvedURN] {
        log.withLock { $0.append(urns) }
        return urns.map { urn in
            answers[urn] ?? ResolvedURN(urn: urn, source: nil, result: .failure(.notFound("StubURNs has no answer for \(urn)")))
        }
    }
}
