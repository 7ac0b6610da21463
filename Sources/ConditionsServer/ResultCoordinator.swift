import ConditionsCore
import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Foundation
import Logging
import NIOCore
import Synchronization

/// The one resolver every client shares, with the answer memory (docs/caching.md): a URN being
/// resolved is resolved once however many clients ask meanwhile, and a fresh result is
/// answered from memory (`FreshValues`) until its TTL runs out. Memory holds fresh results only (errors and stale answers are answered and
/// forgotten), within `ServerSettings.memoryCache`. A local source's result (TTL 0) is reused
/// only until the wall clock's second changes: its `fetchedAt` has one-second resolution, so a
/// result computed again within the same second would say the same (docs/server.md).
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

    /// How much the server keeps in memory (`"serve": {"cacheEntries", "cacheBytes"}`).
    package typealias Limits = FreshValues<RenderedResult>.Limits

    private let runtime: Runtime
    /// The registered modules, whose presentations say what a change is.
    var catalog: SourceCatalog { runtime.catalog }
    private let cachePolicy: Resolver.CachePolicy
    private let logger: Logger
    private let metrics: ServerMetrics
    /// Fresh results of sources with a TTL, within the configured limits.
    private let answers: FreshValues<RenderedResult>
    /// Results of local sources (TTL 0), each kept until the wall clock's second changes; apart,
    /// so that a burst of distinct local URNs never pushes an upstream's answer out of memory.
    private let localAnswers = FreshValues<RenderedResult>(capacity: 1024)
    /// Where each fresh resolution is recorded; nil with `--no-history`.
    private let history: HistoryRecorder?
    /// The upstream documents every resolution reads through: one fetch for all the URNs
    /// that need a document while it is fresh, however many are resolved at once.
    package let documents: UpstreamDocuments

    /// A coordinator over `runtime`, using `cachePolicy`'s on-disk cache behind its memory,
    /// which keeps at most `limits`, reading upstreams through `documents`; nil: documents of
    /// its own, asking `share` (replicas' store) first, counted in `metrics`.
    package init(runtime: Runtime, cachePolicy: Resolver.CachePolicy, limits: Limits = .standard,
                 logger: Logger, metrics: ServerMetrics, history: HistoryRecorder? = nil,
                 share: (any SharedDocuments)? = nil, documents: UpstreamDocuments? = nil) {
        self.runtime = runtime
        self.documents = documents ?? UpstreamDocuments(share: share, logger: logger, observe: { observation in
            switch observation {
            case .waiting(let count): metrics.documentWaits.set(to: Double(count))
            case .answered(.kept): metrics.documentsKept.increment()
            case .answered(.joined): metrics.documentsJoined.increment()
            case .answered(.made): metrics.documentsFetched.increment()
            }
        })
        self.history = history
        self.cachePolicy = cachePolicy
        self.logger = logger
        self.metrics = metrics
        let evictions = Mutex(0)
        answers = FreshValues(limits: limits) { usage in
            metrics.memoryCacheEntries.set(to: Double(usage.entries))
            metrics.memoryCacheBytes.set(to: Double(usage.bytes))
            let evicted = evictions.withLock { seen in
                defer { seen = max(seen, usage.evictions) }
                return usage.evictions - seen
            }
            if evicted > 0 { metrics.memoryCacheEvictions.increment(by: Int64(evicted)) }
        }
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
        let now = Date()
        if let local = localAnswers.kept(for: urn, now: now) {
            metrics.cacheHits.increment()
            return Self.answer(local, at: now)
        }
        // Not cancelled with its client: others may be waiting on it, and it ends within the
        // source's timeout. resolveNow never throws, so neither does this.
        guard let found = try? await answers.answer(for: urn, now: now, make: { await self.resolveNow(urn) }) else {
            return Self.answer(await resolveNow(urn))
        }
        let (made, how) = found
        switch how {
        case .kept: metrics.cacheHits.increment()
        case .joined: metrics.coalesced.increment()
        case .made: metrics.cacheMisses.increment()
        }
        // Every client of one resolution hears the same answer; memory's is counted from now.
        return Self.answer(made, at: how == .kept ? now : made.madeAt)
    }

    /// The answer memory holds for `urn` while it is fresh, without waiting or resolving: what
    /// `CachedAnswerHandler` answers on the event loop. Nil when `resolve` has work to do.
    package func remembered(_ urn: String) -> Answer? {
        let now = Date()
        guard let made = localAnswers.kept(for: urn, now: now) ?? answers.kept(for: urn, now: now) else { return nil }
        metrics.cacheHits.increment()
        return Self.answer(made, at: now)
    }

    /// `made` as answered at `instant` (by default when it was made): fresh for what is left
    /// of its lifetime, in whole seconds.
    private static func answer(_ made: FreshValues<RenderedResult>.Made, at instant: Date? = nil) -> Answer {
        let left = made.keptUntil.map { $0.timeIntervalSince(instant ?? made.madeAt) } ?? 0
        // A local result, kept until its second ends, has less than a second left: max-age=0.
        return Answer(rendered: made.value, maxAge: max(0, Int(left.rounded(.down))))
    }

    private func resolveNow(_ urn: String) async -> FreshValues<RenderedResult>.Made {
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let now = Date()
        var resolver = Resolver(runtime: runtime, now: now, pinned: false,
                                // Never asked while `documents` is set; it makes nothing until asked.
                                http: HTTPClients.make(version: Version.current, logger: logger))
        resolver.cache = cachePolicy
        resolver.documents = documents
        let record = await resolver.resolve([urn])[0]
        // Committed before any client is answered: a change already shown is never lost.
        let changeID = await history?.record([record], at: now).first ?? nil
        var ttl = ttl(of: urn)
        // Kept until: errors and stale answers not at all; a fresh result until its TTL runs
        // out; a local one until the wall clock's second changes, apart (`localAnswers`).
        var keptUntil = now
        var local = false
        if case .success(_, let source, let fetchedAt, _, let staleAge) = record.outcome {
            // A fallback's answer stays fresh for as long as its own instance says, or the
            // result itself (an upstream's Cache-Control).
            ttl = record.ttl ?? runtime.instance(source)?.ttl ?? ttl
            if staleAge == nil, ttl > 0 {
                keptUntil = now.addingTimeInterval(max(0, (ttl - now.timeIntervalSince(fetchedAt)).rounded(.down)))
            }
            local = staleAge == nil && ttl == 0
            // An answer fetched just now counts as an upstream fetch; one the disk cache gave does not.
            if staleAge != nil { metrics.staleAnswers.increment() }
            if ttl > 0, staleAge == nil, now.timeIntervalSince(fetchedAt) < 1 { metrics.upstreamFetch(source: source) }
        }
        // Several chains' answers (`pass:all` of two states) are kept while all are fresh:
        // not at all when one failed or is stale, at most as long as the shortest-lived.
        for joined in record.joined {
            guard case .success(_, let source, let fetchedAt, _, nil) = joined.outcome else { keptUntil = now; break }
            let joinedTTL = joined.ttl ?? runtime.instance(source)?.ttl ?? ttl
            keptUntil = min(keptUntil, now.addingTimeInterval(max(0, (joinedTTL - now.timeIntervalSince(fetchedAt)).rounded(.down))))
            if joinedTTL > 0, now.timeIntervalSince(fetchedAt) < 1 { metrics.upstreamFetch(source: source) }
        }
        let rendered = RenderedResult(record, changeID: changeID)
        if local {
            let nextSecond = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 1).rounded(.down))
            localAnswers.keep(.init(value: rendered, madeAt: now, keptUntil: nextSecond), for: urn)
        }
        return .init(value: rendered, madeAt: now, keptUntil: keptUntil, bytes: rendered.memoryCost)
    }

    /// The TTL of the instance answering `urn` first (a fallback's may differ); 0 when none
    /// does (the record says why).
    package func ttl(of urn: String) -> Double {
        guard let parsed = try? URN(urn), let match = try? runtime.router.match(parsed) else { return 0 }
        return match.handler.first.ttl
    }
}

extension FreshValues<RenderedResult>.Limits {
    /// 4,096 URNs and 16 MiB: a typical result is ~1 KB, one listing every item of a source ~15 KB.
    package static let standard = Self(entries: 4096, bytes: 16 << 20)
}

/// A record serialized once, with its validators, so a cached answer costs no serializing or
/// hashing per request (docs/performance.md, scenario 9).
package final class RenderedResult: Sendable {
    /// The record, exactly as the CLI would print it.
    package let record: ResultRecord
    /// Its JSON object on one line, with a final newline: the body of `/v1/urn/{urn}` and a
    /// line of NDJSON.
    let line: ByteBuffer
    /// `line` alone, or for a URN several chains answered, each answer's own line (without
    /// `joined`): what a list of results (`/v1/resolve`) holds.
    let answerLines: [ByteBuffer]
    /// The strong ETag of `line`.
    let etag: String
    /// `fetchedAt` as an HTTP date, for results.
    let lastModified: String?
    /// The history store's change this record was recorded in (an event stream's event id);
    /// nil without history, or when it was not recorded.
    let changeID: Int64?

    init(_ record: ResultRecord, changeID: Int64? = nil) {
        self.record = record
        self.changeID = changeID
        let bytes = Array((record.json.serialized() + "\n").utf8)
        line = ByteBuffer(bytes: bytes)
        answerLines = record.joined.isEmpty ? [line] : record.answers.map { ByteBuffer(string: $0.json.serialized() + "\n") }
        etag = HTTPCaching.etag(bytes)
        if case .success(_, _, let fetchedAt, _, _) = record.outcome {
            lastModified = HTTPCaching.httpDate(fetchedAt)
        } else {
            lastModified = nil
        }
    }

    /// What keeping it costs, roughly: the serialized line and the record's values, which take
    /// about as much again.
    var memoryCost: Int { 2 * line.readableBytes + (answerLines.count > 1 ? answerLines.reduce(0) { $0 + $1.readableBytes } : 0) + 256 }
}
