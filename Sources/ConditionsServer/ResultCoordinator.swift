import ConditionsCore
import ConditionsKit
import Foundation
import Logging
import Synchronization

/// The one resolver every client shares: a URN being resolved is resolved once however many
/// clients ask meanwhile, and a fresh result is answered from memory until its TTL runs out.
package final class ResultCoordinator: Sendable {
    /// A record with what HTTP caching needs to know about it.
    package struct Answer: Sendable {
        /// The record, exactly as the CLI would print it.
        package let record: ResultRecord
        /// Seconds the answer stays fresh; 0 for errors, stale answers and local sources.
        package let maxAge: Int
    }

    private enum Slot: Sendable {
        case resolving(Task<Answer, Never>)
        case fresh(Answer, expires: ContinuousClock.Instant)
    }

    private let runtime: Runtime
    private let cachePolicy: Resolver.CachePolicy
    private let logger: Logger
    private let metrics: ServerMetrics
    private let slots = Mutex<[String: Slot]>([:])
    /// Beyond this many remembered URNs, expired entries are swept before adding one, so
    /// clients asking for ever new URNs cannot grow memory without bound.
    private static let sweepThreshold = 4096

    /// A coordinator over `runtime`, using `cachePolicy`'s on-disk cache behind its memory.
    package init(runtime: Runtime, cachePolicy: Resolver.CachePolicy, logger: Logger, metrics: ServerMetrics) {
        self.runtime = runtime
        self.cachePolicy = cachePolicy
        self.logger = logger
        self.metrics = metrics
    }

    /// Resolves the URNs concurrently; answers in the order asked.
    package func resolve(_ urns: [String]) async -> [Answer] {
        await withTaskGroup(of: (Int, Answer).self) { group in
            for (index, urn) in urns.enumerated() {
                group.addTask {
                    let answer = await self.resolve(urn)
                    return (index, answer)
                }
            }
            var answers = [Answer?](repeating: nil, count: urns.count)
            for await (index, answer) in group { answers[index] = answer }
            return answers.compactMap { $0 }
        }
    }

    /// One URN: from memory while fresh, joining a resolution in flight, or resolving it.
    package func resolve(_ urn: String) async -> Answer {
        let now = ContinuousClock.now
        enum Step: Sendable { case answer(Answer), join(Task<Answer, Never>) }
        let step: Step = slots.withLock { slots in
            switch slots[urn] {
            case .fresh(let answer, let expires) where expires > now:
                metrics.cacheHits.increment()
                return .answer(Answer(record: answer.record, maxAge: max(0, Int((expires - now) / .seconds(1)))))
            case .resolving(let task):
                metrics.coalesced.increment()
                return .join(task)
            default:
                metrics.cacheMisses.increment()
                if slots.count >= Self.sweepThreshold {
                    slots = slots.filter { if case .fresh(_, let expires) = $0.value { expires > now } else { true } }
                }
                let task = Task { await self.resolveNow(urn) }
                slots[urn] = .resolving(task)
                return .join(task)
            }
        }
        switch step {
        case .answer(let answer): return answer
        // Not cancelled with its client: others may be waiting on it, and it ends within the source's timeout.
        case .join(let task): return await task.value
        }
    }

    private func resolveNow(_ urn: String) async -> Answer {
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let now = Date()
        var resolver = Resolver(runtime: runtime, now: now, pinned: false,
                                // A factory per resolution: its coalescing client keeps what it fetched for as long as it lives.
                                http: HTTPClients.make(version: Version.current, logger: logger))
        resolver.cache = cachePolicy
        let record = await resolver.resolve([urn])[0]
        let ttl = ttl(of: urn)
        var maxAge = 0
        if case .success(_, let source, let fetchedAt, _, let staleAge) = record.outcome {
            if staleAge == nil, ttl > 0 {
                maxAge = max(0, Int((ttl - now.timeIntervalSince(fetchedAt)).rounded(.down)))
            }
            // An answer fetched just now counts as an upstream fetch; one the disk cache gave does not.
            if staleAge != nil { metrics.staleAnswers.increment() }
            if ttl > 0, staleAge == nil, now.timeIntervalSince(fetchedAt) < 1 { metrics.upstreamFetch(source: source) }
        }
        let answer = Answer(record: record, maxAge: maxAge)
        slots.withLock { slots in
            if maxAge > 0 {
                slots[urn] = .fresh(answer, expires: .now + .seconds(maxAge))
            } else {
                slots[urn] = nil
            }
        }
        return answer
    }

    /// The TTL of the instance answering `urn`; 0 when none does (the record says why).
    package func ttl(of urn: String) -> Double {
        guard let parsed = try? URN(urn), let match = try? runtime.router.match(parsed) else { return 0 }
        return match.handler.ttl
    }
}
