import ConditionsKit
import Foundation
import Logging

/// Resolves URNs against the runtime's router: concurrently, each failure confined to its
/// own URN, results returned in the order asked.
struct Resolver: Sendable {
    let runtime: Runtime
    let now: Date
    let http: @Sendable (HTTPLimits) -> any HTTPClient
    /// At most this many URNs are in flight at once, so a 1,000-URN report does not open
    /// a thousand files or requests together (HTTP adds its own per-host limit).
    var maximumConcurrency = 32

    func resolve(_ urns: [String]) async -> [ResultRecord] {
        await withTaskGroup(of: (Int, ResultRecord).self) { group in
            var results = [ResultRecord?](repeating: nil, count: urns.count)
            var next = 0
            func startNext() {
                guard next < urns.count else { return }
                let index = next
                let urn = urns[index]
                group.addTask { (index, await resolve(urn)) }
                next += 1
            }
            for _ in 0..<min(maximumConcurrency, urns.count) { startNext() }
            while let (index, record) = await group.next() {
                results[index] = record
                startNext()
            }
            return results.enumerated().map { $1 ?? ResultRecord(urn: urns[$0], outcome: .failure(kind: "internal", message: "not resolved", suggestions: [])) }
        }
    }

    func resolve(_ text: String) async -> ResultRecord {
        do {
            let urn = try URN(text)
            let (location, instance) = try runtime.router.match(urn)
            let context = SourceContext(now: now, place: runtime.configuration.place, logger: instance.logger, http: http(instance.http))
            instance.logger.debug("resolving \(urn) via \(location.pattern)")
            let result = try await instance.source.resolve(location, context: context)
            return ResultRecord(urn: text, outcome: .success(route: location.pattern.text, source: instance.id,
                                                              fetchedAt: result.fetchedAt ?? now, data: result.data))
        } catch {
            let report = ConditionsError.report(error)
            let suggestions = (error as? ConditionsError)?.suggestions ?? []
            return ResultRecord(urn: text, outcome: .failure(kind: report.kind, message: redact(report.message), suggestions: suggestions))
        }
    }

    func redact(_ message: String) -> String {
        runtime.secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: Redaction.mask) }
    }
}
