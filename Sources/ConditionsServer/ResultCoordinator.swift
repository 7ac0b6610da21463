import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import NIOCore
import Synchronization

/// The one resolver every client shares: a URN being resolved is resolved once however many
/// clients ask meanwhile, and a fresh result is answered from memory until its TTL runs out.
/// Memory holds fresh results only (errors and stale answers are answered and forgotten),
/// within `MemoryCache.Limits`. A local source's result (TTL 0) is reused only until the wall
/// clock's second changes: its `fetchedAt` has one-second resolution, so a result computed
/// again within the same second would say the same (docs/server.md).
package final class ResultCoordinator: Sendable {
    /// A record with what HTTP caching needs to know about it.
    package struct Answer: Sendable {
        /// The record and its serialized form.
        package let rendered: RenderedResult
        /// Seconds the answer stays fresh; 0 for errors, stale answers and local sources.
        package let maxAge: Int
        /// The record, exactly as the CLI would print it.
        package var record: ResultRecord { rendered.record }
    }

    private struct State {
        var cache: MemoryCache<RenderedResult>
        var resolving: [String: Task<Answer, Never>] = [:]
        /// Local results of the current wall-clock second, forgotten when it changes.
        var local = LocalSecond()
    }

    /// The results of local sources computed during one whole second of the wall clock.
    private struct LocalSecond {
        var second = Int.min
        var answers: [String: RenderedResult] = [:]
        /// More distinct local URNs than this within one second are resolved, not kept.
        static let limit = 1024
    }

    private let runtime: Runtime
    /// The registered modules, whose presentations say what a change is.
    var catalog: SourceCatalog { runtime.catalog }
    private let cachePolicy: Resolver.CachePolicy
    private let logger: Logger
    private let metrics: ServerMetrics
    private let state: Mutex<State>
    /// Where each fresh resolution is recorded; nil with `--no-history`.
    private let history: HistoryRecorder?

    /// A coordinator over `runtime`, using `cachePolicy`'s on-disk cache behind its memory,
    /// which keeps at most `limits`.
    package init(runtime: Runtime, cachePolicy: Resolver.CachePolicy, limits: MemoryCacheLimits = .standard,
                 logger: Logger, metrics: ServerMetrics, history: HistoryRecorder? = nil) {
        self.runtime = runtime
        self.history = history
        self.cachePolicy = cachePolicy
        self.logger = logger
        self.metrics = metrics
        state = Mutex(State(cache: MemoryCache(limits: limits)))
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
        let second = Self.wholeSecond(Date())
        enum Step: Sendable { case answer(Answer), join(Task<Answer, Never>) }
        let step: Step = state.withLock { state in
            if let answer = remembered(urn, in: &state, now: now, second: second) { return .answer(answer) }
            if let task = state.resolving[urn] {
                metrics.coalesced.increment()
                return .join(task)
            }
            metrics.cacheMisses.increment()
            let task = Task { await self.resolveNow(urn) }
            state.resolving[urn] = task
            return .join(task)
        }
        switch step {
        case .answer(let answer): return answer
        // Not cancelled with its client: others may be waiting on it, and it ends within the source's timeout.
        case .join(let task): return await task.value
        }
    }

    /// The answer memory holds for `urn` while it is fresh, without waiting or resolving: what
    /// `CachedAnswerHandler` answers on the event loop. Nil when `resolve` has work to do.
    package func remembered(_ urn: String) -> Answer? {
        let now = ContinuousClock.now
        let second = Self.wholeSecond(Date())
        return state.withLock { remembered(urn, in: &$0, now: now, second: second) }
    }

    private func remembered(_ urn: String, in state: inout State, now: ContinuousClock.Instant, second: Int) -> Answer? {
        if state.local.second != second {
            if !state.local.answers.isEmpty { state.local = LocalSecond() }
        } else if let rendered = state.local.answers[urn] {
            metrics.cacheHits.increment()
            return Answer(rendered: rendered, maxAge: 0)
        }
        let evictions = state.cache.evictions
        let hit = state.cache.value(for: urn, now: now)
        if state.cache.evictions != evictions { report(state.cache, evictedSince: evictions) }
        guard let hit else { return nil }
        metrics.cacheHits.increment()
        return Answer(rendered: hit.value, maxAge: max(0, Int((hit.expires - now) / .seconds(1))))
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
        // Committed before any client is answered: a change already shown is never lost.
        await history?.record([record], at: now)
        var ttl = ttl(of: urn)
        var maxAge = 0
        if case .success(_, let source, let fetchedAt, _, let staleAge) = record.outcome {
            // A fallback's answer stays fresh for as long as its own instance says, or the
            // result itself (an upstream's Cache-Control).
            ttl = record.ttl ?? runtime.instance(source)?.ttl ?? ttl
            if staleAge == nil, ttl > 0 {
                maxAge = max(0, Int((ttl - now.timeIntervalSince(fetchedAt)).rounded(.down)))
            }
            // An answer fetched just now counts as an upstream fetch; one the disk cache gave does not.
            if staleAge != nil { metrics.staleAnswers.increment() }
            if ttl > 0, staleAge == nil, now.timeIntervalSince(fetchedAt) < 1 { metrics.upstreamFetch(source: source) }
        }
        let answer = Answer(rendered: RenderedResult(record), maxAge: maxAge)
        let instant = ContinuousClock.now
        var local = false
        if ttl == 0, case .success(_, _, _, _, nil) = record.outcome { local = true }
        let second = Self.wholeSecond(now)
        state.withLock { state in
            state.resolving[urn] = nil
            if local, second >= state.local.second {
                if second > state.local.second { state.local = LocalSecond(second: second) }
                if state.local.answers.count < LocalSecond.limit { state.local.answers[urn] = answer.rendered }
            }
            let evictions = state.cache.evictions
            if maxAge > 0 {
                state.cache.insert(answer.rendered, for: urn, bytes: answer.rendered.memoryCost, expires: instant + .seconds(maxAge), now: instant)
            } else {
                state.cache.remove(urn)
            }
            report(state.cache, evictedSince: evictions)
        }
        return answer
    }

    private func report(_ cache: MemoryCache<RenderedResult>, evictedSince before: Int) {
        metrics.memoryCacheEntries.set(to: Double(cache.count))
        metrics.memoryCacheBytes.set(to: Double(cache.bytes))
        if cache.evictions > before { metrics.memoryCacheEvictions.increment(by: Int64(cache.evictions - before)) }
    }

    private static func wholeSecond(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    /// The TTL of the instance answering `urn` first (a fallback's may differ); 0 when none
    /// does (the record says why).
    package func ttl(of urn: String) -> Double {
        guard let parsed = try? URN(urn), let match = try? runtime.router.match(parsed) else { return 0 }
        return match.handler.first.ttl
    }
}

/// A record serialized once, with its validators, so a cached answer costs no serializing or
/// hashing per request (docs/performance.md, scenario 9).
package final class RenderedResult: Sendable {
    /// The record, exactly as the CLI would print it.
    package let record: ResultRecord
    /// Its JSON object on one line, with a final newline: the body of `/v1/urn/{urn}` and a
    /// line of NDJSON.
    let line: ByteBuffer
    /// The strong ETag of `line`.
    let etag: String
    /// `fetchedAt` as an HTTP date, for results.
    let lastModified: String?

    init(_ record: ResultRecord) {
        self.record = record
        let bytes = Array((record.json.serialized() + "\n").utf8)
        line = ByteBuffer(bytes: bytes)
        etag = HTTPCaching.etag(bytes)
        if case .success(_, _, let fetchedAt, _, _) = record.outcome {
            lastModified = HTTPCaching.httpDate(fetchedAt)
        } else {
            lastModified = nil
        }
    }

    /// What keeping it costs, roughly: the serialized line and the record's values, which take
    /// about as much again.
    var memoryCost: Int { 2 * line.readableBytes + 256 }
}
