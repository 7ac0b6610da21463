import ConditionsText
import ConditionsKit
import Foundation
import Logging

/// Resolves URNs against the runtime's router: concurrently, each failure confined to its
/// own URN, results returned in the order asked, with the on-disk cache in front of sources.
package struct Resolver: Sendable {
    /// How the resolver uses the result cache (`--offline`, `--refresh`, `--no-cache`).
    package struct CachePolicy: Sendable {
        /// nil: no cache at all (`--no-cache` or `"cache": {"enabled": false}`).
        package var store: ResultCache?
        /// `--offline`: no network. Cached sources answer from the cache only; local sources
        /// (TTL 0) answer as usual, with an HTTP client that refuses every request.
        package var offline = false
        /// `--refresh`: fetch even when a fresh entry exists.
        package var refresh = false

        /// A policy: `store` nil means no cache at all.
        package init(store: ResultCache? = nil, offline: Bool = false, refresh: Bool = false) {
            self.store = store
            self.offline = offline
            self.refresh = refresh
        }
    }

    /// The loaded configuration and router.
    package let runtime: Runtime
    /// The report's instant, given to every source.
    package let now: Date
    /// Whether `now` was pinned with `--now`; pinned reports are cached under their instant.
    package let pinned: Bool
    /// Makes each source's HTTP client from its limits.
    package let http: @Sendable (HTTPLimits) -> any HTTPClient
    /// The cache policy; none by default.
    package var cache = CachePolicy()
    /// A long-lived process's upstream documents (`conditions serve`): when set, sources'
    /// requests go through them instead of `http`, so one document answers every URN that
    /// reads it while fresh. nil: `http` alone (a run's request sharing).
    package var documents: UpstreamDocuments?
    /// At most this many URNs are in flight at once, so a 1,000-URN report does not open
    /// a thousand files or requests together (HTTP adds its own per-host limit).
    package var maximumConcurrency = 32
    /// Called after each URN resolves with (done, total), for progress display.
    package var progress: (@Sendable (Int, Int) -> Void)?
    /// The URNs whose sources asked for this resolution, outermost first, when a source
    /// combines others (`SourceContext.resolve`): asking for one of them again is a cycle.
    package var path: [String] = []
    /// How many combinations deep a URN may be resolved (a source combining a source that
    /// combines another is two).
    package static let maximumDepth = 4

    /// A resolver over `runtime`'s router at the instant `now` (`pinned` when `--now` set it),
    /// with `http` making each source's client from its limits (`HTTPClients.make`).
    package init(runtime: Runtime, now: Date, pinned: Bool, http: @escaping @Sendable (HTTPLimits) -> any HTTPClient) {
        self.runtime = runtime
        self.now = now
        self.pinned = pinned
        self.http = http
    }

    /// Resolves `urns`; a URN asked twice is resolved once and printed twice.
    package func resolve(_ urns: [String]) async -> [ResultRecord] {
        var records: [ResultRecord] = []
        records.reserveCapacity(urns.count)
        await resolve(urns) { records.append($0) }
        return records
    }

    /// Resolves `urns`, handing each record to `emit` in the order asked as soon as it and
    /// every earlier one are done. At most `maximumConcurrency` URNs are in flight and none is
    /// started more than `window` positions past the first one not yet emitted, so memory stays
    /// bounded however long the list: 100,000 URNs cost what a few hundred do. A URN asked
    /// twice is resolved once; its record is kept only until its last position is emitted.
    package func resolve(_ urns: [String], emit: (ResultRecord) -> Void) async {
        // For each position, the index of its URN among the distinct URNs (in first-seen order).
        var distinct: [String] = []
        var distinctIndex: [String: Int] = [:]
        var positions: [Int] = []
        positions.reserveCapacity(urns.count)
        for urn in urns {
            if let index = distinctIndex[urn] {
                positions.append(index)
            } else {
                distinctIndex[urn] = distinct.count
                positions.append(distinct.count)
                distinct.append(urn)
            }
        }
        distinctIndex = [:]
        var firstPosition = [Int](repeating: 0, count: distinct.count)
        var lastPosition = [Int](repeating: 0, count: distinct.count)
        for (position, index) in positions.enumerated().reversed() { firstPosition[index] = position }
        for (position, index) in positions.enumerated() { lastPosition[index] = position }

        let window = maximumConcurrency * 4
        await withTaskGroup(of: (Int, ResultRecord).self) { group in
            var ready: [Int: ResultRecord] = [:]
            var next = 0, inFlight = 0, done = 0, emitted = 0
            while emitted < urns.count {
                while next < distinct.count, inFlight < maximumConcurrency, firstPosition[next] < emitted + window {
                    let index = next
                    let urn = distinct[index]
                    group.addTask {
                        // Await first, then build the tuple: Swift 6.3's -O corrupts a tuple half built before a suspension (swiftlang/swift#91911).
                        let record = await resolve(urn)
                        return (index, record)
                    }
                    next += 1
                    inFlight += 1
                }
                guard let (index, record) = await group.next() else { break }
                inFlight -= 1
                done += 1
                progress?(done, distinct.count)
                ready[index] = record
                while emitted < urns.count, let record = ready[positions[emitted]] {
                    emit(record)
                    if lastPosition[positions[emitted]] == emitted { ready[positions[emitted]] = nil }
                    emitted += 1
                }
            }
        }
    }

    func resolve(_ text: String) async -> ResultRecord {
        do {
            if path.contains(text) {
                throw ConditionsError(.configuration, "\(text) is combined from itself: \((path + [text]).joined(separator: " → "))")
            }
            if path.count > Self.maximumDepth {
                throw ConditionsError(.configuration, "\(text) is combined more than \(Self.maximumDepth) levels deep: \((path + [text]).joined(separator: " → "))")
            }
            let urn = try URN(text)
            let (location, chain) = try runtime.router.match(urn)
            let named = location.pattern.literalCount == location.pattern.segments.count
            return try await resolveJoined(text, urn: urn, chain: chain, everyChain: named)
        } catch {
            return failure(text, error)
        }
    }

    /// A joined route's chains (`{"join": [...]}`), asked in order: the first answer that is
    /// not `notFound` wins (`pass:donner`: WSDOT's chain knows no such pass, Caltrans's does).
    /// A chain failing upstream passes the URN on, and its error is the answer when no later
    /// chain answers; any other verdict (`invalidArguments`) is the answer. When every chain
    /// says `notFound`, the answer says each one's words and merges their suggestions.
    ///
    /// `everyChain`: the URN matched a pattern of literals only (`pass:all`, not `pass:{name}`),
    /// something each chain may have a whole answer for, so every chain is asked and each one's
    /// answer, or failure, is a result of its own in order (`ResultRecord.joined`); only a chain
    /// saying `notFound` is left out. When every chain says `notFound`, the answer is as above. Since each is
    /// asked anyway, they are asked at once (scenario 19: both states in the time of the slower).
    private func resolveJoined(_ text: String, urn: URN, chain: RouteChain, everyChain: Bool) async throws -> ResultRecord {
        guard !chain.joined.isEmpty else { return try await resolve(text, urn: urn, chain: chain) }
        let members = chain.all
        var asked: [Result<ResultRecord, any Error>?] = Array(repeating: nil, count: members.count)
        if everyChain {
            await withTaskGroup(of: (Int, Result<ResultRecord, any Error>).self) { group in
                for (index, member) in members.enumerated() {
                    group.addTask {
                        let outcome: Result<ResultRecord, any Error>
                        do { outcome = .success(try await resolve(text, urn: urn, chain: member)) } catch { outcome = .failure(error) }
                        return (index, outcome)
                    }
                }
                for await (index, outcome) in group { asked[index] = outcome }
            }
        }
        var answers: [ResultRecord] = []
        var notFound: [ConditionsError] = []
        var upstream: (any Error)?
        for (index, member) in members.enumerated() {
            do {
                let record: ResultRecord
                if let outcome = asked[index] { record = try outcome.get() } else { record = try await resolve(text, urn: urn, chain: member) }
                guard everyChain else { return record }
                answers.append(record)
            } catch {
                let report = ConditionsError.report(error)
                if report.kind == .notFound {
                    notFound.append(error as? ConditionsError ?? ConditionsError(.notFound, report.message))
                } else if everyChain {
                    // Said beside another chain's answer, it names its source (a longer
                    // chain's failure names each of its instances already).
                    let named = member.links.count == 1 ? ConditionsError(report.kind, "\(member.first.id): \(report.message)",
                                                                          suggestions: (error as? ConditionsError)?.suggestions ?? []) : error
                    answers.append(failure(text, named))
                } else if report.kind.fallsBack {
                    if upstream == nil { upstream = error }
                } else {
                    throw error
                }
            }
        }
        // Every chain asked: each one's answer or failure, however many failed.
        if !answers.isEmpty {
            var first = answers[0]
            first.joined = Array(answers.dropFirst())
            return first
        }
        if let upstream { throw upstream }
        var suggestions: [String] = []
        for error in notFound { for suggestion in error.suggestions where !suggestions.contains(suggestion) { suggestions.append(suggestion) } }
        var messages: [String] = []
        for error in notFound where !messages.contains(error.message) { messages.append(error.message) }
        throw ConditionsError(.notFound, messages.joined(separator: "; "), suggestions: Array(suggestions.prefix(5)))
    }

    /// Each instance of the chain `text` routes to (every joined chain's; only `ids` when
    /// given), asked directly in turn with nothing cached (whatever this resolver's policy):
    /// `conditions doctor`'s live request. Throws only when
    /// `text` is no URN or no route matches it.
    package func probeEach(_ text: String, only ids: [String]? = nil) async throws -> [(instance: SourceInstance, outcome: Result<ResultRecord, any Error>, duration: Duration)] {
        let urn = try URN(text)
        let (_, chain) = try runtime.router.match(urn)
        var uncached = self
        uncached.cache = CachePolicy()
        var outcomes: [(instance: SourceInstance, outcome: Result<ResultRecord, any Error>, duration: Duration)] = []
        for link in chain.all.flatMap(\.links) where ids?.contains(link.instance.id) ?? true {
            guard let location = link.location(of: urn) else { continue }
            let started = ContinuousClock.now
            let outcome: Result<ResultRecord, any Error>
            do {
                switch try await uncached.attempt(text, location: location, instance: link.instance) {
                case .answered(let record): outcome = .success(record)
                case .failed(let error, _): outcome = .failure(error)
                }
            } catch {
                outcome = .failure(error)
            }
            outcomes.append((link.instance, outcome, started.duration(to: .now)))
        }
        return outcomes
    }

    /// The cache key of `text` from `instance`: a hash, so a key (stored in its entry to catch
    /// file-name collisions) never holds a URN, an option or a secret in clear text.
    func cacheKey(_ text: String, instance: SourceInstance) -> String {
        CacheKey.digest("\(instance.fingerprint)|\(text)" + (pinned ? "|\(Timestamp.string(from: now))" : ""))
    }

    /// What one link of a chain did with a URN: answered, or why the next one is asked.
    private enum Attempt {
        case answered(ResultRecord)
        /// Failed upstream (or, `--offline`, has no entry); `entry` is its cached result, if any.
        case failed(any Error, entry: ResultCache.Entry?)
    }

    /// Asks the chain's instances in order. An instance answers from a fresh cache entry or a
    /// fetch; one failing upstream passes the URN on to the next. When all fail upstream, the
    /// earliest instance's cached entry answers, stale; with none, the error names each
    /// instance's failure. Any other error (`notFound`, `invalidArguments`, configuration) is
    /// the answer: as it is from the first instance, with the earlier failures from a later one.
    private func resolve(_ text: String, urn: URN, chain: RouteChain) async throws -> ResultRecord {
        var failures: [(instance: SourceInstance, error: any Error)] = []
        var stale: (instance: SourceInstance, entry: ResultCache.Entry)?
        for (index, link) in chain.links.enumerated() {
            // Every link's pattern has the shape the router matched, so this only fails on a bug.
            guard let location = link.location(of: urn) else {
                throw ConditionsError(.internal, "\(text): route \(link.pattern) of \(link.instance.id) does not match")
            }
            let outcome: Attempt
            do {
                outcome = try await attempt(text, location: location, instance: link.instance)
            } catch {
                // A verdict (notFound, invalidArguments, a configuration error) ends the chain;
                // after an earlier instance failed upstream it is said with that failure, so
                // "the feed is down and no browser is installed" reads as both.
                guard !failures.isEmpty else { throw error }
                failures.append((link.instance, error))
                break
            }
            switch outcome {
            case .answered(let record):
                return record
            case .failed(let error, let entry):
                failures.append((link.instance, error))
                if stale == nil, let entry { stale = (link.instance, entry) }
                if index + 1 < chain.links.count, !Self.isCacheMiss(error) {
                    let next = chain.links[index + 1].instance.id
                    link.instance.logger.warning("\(text): \(link.instance.id) failed (\(ConditionsError.report(error).message)); trying \(next)")
                }
            }
        }
        // The last good answer beats no answer when every upstream fails. (Only a failed
        // fetch leaves an entry behind: one found offline has answered already.)
        if let (instance, entry) = stale {
            let reasons = failures.filter { !Self.isCacheMiss($0.error) }
                .map { "\($0.instance.id): \(ConditionsError.report($0.error).message)" }.joined(separator: "; ")
            instance.logger.warning("\(text): \(reasons); using the cached result of \(instance.id) from \(Timestamp.string(from: entry.fetchedAt))")
            return cached(text, entry, stale: true, instance: instance)
        }
        if failures.allSatisfy({ Self.isCacheMiss($0.error) }) {
            let names = failures.map(\.instance.id)
            let of = names.count > 1 ? " of " + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : ""
            throw ConditionsError(.notFound, "\(text) is not in the cache\(of) (--offline answers from the cache only)")
        }
        if failures.count == 1 { throw failures[0].error }
        // A verdict keeps its suggestions ("did you mean scheme:name?"), which the record
        // shows after the message, so they are not in the message too.
        if let last = failures.last, let verdict = last.error as? ConditionsError, !verdict.suggestions.isEmpty {
            let earlier = ChainFailure(failures: failures.dropLast().map { ($0.instance.id, $0.error) })
            throw ConditionsError(verdict.kind, "\(earlier.message); \(last.instance.id): \(verdict.message)", suggestions: verdict.suggestions)
        }
        throw ChainFailure(failures: failures.map { ($0.instance.id, $0.error) })
    }

    private func cached(_ text: String, _ entry: ResultCache.Entry, stale: Bool, instance: SourceInstance) -> ResultRecord {
        ResultRecord(urn: text, outcome: .success(route: entry.route, source: entry.source, fetchedAt: entry.fetchedAt,
                                                  data: entry.data, staleAge: stale ? max(0, now.timeIntervalSince(entry.fetchedAt)) : nil),
                     kind: entry.kind, ttl: instance.freshness(of: entry.ttl), inputs: entry.inputs)
    }

    /// One instance's try: its fresh cache entry, or a fetch (cached when it succeeds).
    /// Throws what must not pass on to the next instance.
    private func attempt(_ text: String, location: Location, instance: SourceInstance) async throws -> Attempt {
        // A local source (TTL 0) is never cached, under --offline too: it needs no network,
        // so it answers as usual (its HTTP client below refuses, should it try).
        let store = instance.ttl > 0 ? cache.store : nil
        let key = store == nil ? "" : cacheKey(text, instance: instance)
        let entry = store?.load(key: key, logger: instance.logger)
        if let entry {
            let age = now.timeIntervalSince(entry.fetchedAt)
            // The result's own TTL (an upstream's Cache-Control), unless sources.json set one.
            let freshness = instance.freshness(of: entry.ttl)
            // A pinned clock may lie before the entry; such an entry is still the answer for that instant.
            if !cache.refresh, age < freshness || (pinned && age < 0) {
                instance.logger.debug("cache hit for \(text) (age \(Int(age)) s)")
                return .answered(cached(text, entry, stale: false, instance: instance))
            }
            if cache.offline { return .answered(cached(text, entry, stale: age >= freshness, instance: instance)) }
        } else if cache.offline, store != nil {
            return .failed(CacheMiss(), entry: nil)
        }

        // What the cache would serve, a source may share (its memo, its module memory, upstream
        // documents): nothing when bypassed (`--refresh`) or, in a run, with the cache off. A
        // long-lived process (`serve`, which has `documents`) keeps them for the TTL in memory
        // with or without a disk cache, so a memory-only server polls no more often than one
        // with a writable disk.
        let maxAge = !cache.refresh && (store != nil || documents != nil) ? instance.ttl : 0
        let lifetime = UpstreamDocuments.Lifetime(configured: maxAge > 0 ? instance.configuredTTL : 0, standard: maxAge)
        let reader = cache.offline ? nil : documents?.reader(limits: instance.http, lifetime: lifetime)
        let client: any HTTPClient
        if cache.offline {
            client = UnavailableHTTPClient(reason: "--offline: no network requests")
        } else if let reader {
            client = reader
        } else {
            client = http(instance.http)
        }
        let memo = instance.memo(store: cache.store, refresh: cache.refresh)
        var nested = self
        nested.path.append(text)
        nested.progress = nil
        let context = SourceContext(now: now, place: runtime.configuration.place, places: runtime.configuration.places, logger: instance.logger,
                                    http: client, limits: instance.http, maxAge: maxAge, memo: memo, urns: NestedURNs(resolver: nested))
        instance.logger.debug("resolving \(text) via \(location.pattern)")
        do {
            let result = try await instance.source.resolve(location, context: context)
            var fetchedAt = result.fetchedAt ?? now
            // A result read from a document kept since an earlier URN is as old as that
            // document, so it stays fresh only for what is left of the document's TTL.
            if !pinned, let oldest = reader?.oldestDocument, oldest < fetchedAt { fetchedAt = oldest }
            let ttl = result.ttl.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            if let store {
                store.store(key: key, entry: .init(urn: text, source: instance.id, route: location.pattern.text, fetchedAt: fetchedAt, data: result.data,
                                                   kind: result.kind, ttl: ttl, inputs: result.inputs),
                            logger: instance.logger)
            }
            // A result made from a stale input is stale by as much as its stalest one.
            let staleAge = result.inputs.compactMap(\.staleAge).max()
            return .answered(ResultRecord(urn: text, outcome: .success(route: location.pattern.text, source: instance.id,
                                                                       fetchedAt: fetchedAt, data: result.data, staleAge: staleAge),
                                          kind: result.kind, ttl: instance.freshness(of: ttl), inputs: result.inputs))
        } catch {
            // A request the source rejects (bad arguments, unknown name) gets its error, not
            // stale data nor another instance's answer.
            guard Self.isUpstreamFailure(error) else { throw error }
            return .failed(error, entry: entry)
        }
    }

    /// `--offline` and an instance with no cache entry: the next instance may have one.
    private struct CacheMiss: ReportableError {
        var kind: ErrorKind { .notFound }
        var message: String { "not in the cache (--offline answers from the cache only)" }
    }

    private static func isCacheMiss(_ error: any Error) -> Bool { error is CacheMiss }

    static func isUpstreamFailure(_ error: any Error) -> Bool {
        ConditionsError.report(error).kind.fallsBack
    }

    private func failure(_ text: String, _ error: any Error) -> ResultRecord {
        let report = ConditionsError.report(error)
        let suggestions = (error as? ConditionsError)?.suggestions ?? []
        return ResultRecord(urn: text, outcome: .failure(kind: report.kind, message: redact(report.message), suggestions: suggestions))
    }

    func redact(_ message: String) -> String {
        runtime.secrets.reduce(message) { $0.replacingOccurrences(of: $1, with: Redaction.mask) }
    }
}

/// The host's answer to a source that combines others (`SourceContext.resolve`): the same
/// resolver, cache and HTTP clients as the URN that asked, one level deeper.
struct NestedURNs: URNResolving {
    let resolver: Resolver

    /// One answer per URN, in the order asked, as the contract promises: for a URN several
    /// chains answered (`ResultRecord.joined`), the first chain's (docs/configuration.md).
    func resolve(_ urns: [String]) async -> [ResolvedURN] {
        await resolver.resolve(urns).map(\.resolved)
    }
}

extension ResultRecord {
    /// The record as a combining source receives it.
    var resolved: ResolvedURN {
        switch outcome {
        case .success(_, let source, let fetchedAt, let data, let staleAge):
            return ResolvedURN(urn: urn, source: source, result: .success(SourceResult(data: data, kind: kind, fetchedAt: fetchedAt, ttl: ttl, inputs: inputs)),
                               staleAge: staleAge)
        case .failure(let kind, let message, let suggestions):
            let error = ConditionsError(kind, message, suggestions: suggestions)
            return ResolvedURN(urn: urn, source: nil, result: .failure(error))
        }
    }
}
