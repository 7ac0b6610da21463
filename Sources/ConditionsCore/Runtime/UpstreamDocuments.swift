import ConditionsKit
import ConditionsMemo
import ConditionsText
import Foundation
import Logging
import Synchronization

/// The upstream documents layer (docs/caching.md): the documents a long-lived process
/// (`conditions serve`) has read, shared by every
/// resolution in it: identical GET requests in flight share one fetch, and a successful (2xx)
/// answer answers the same request again while it is fresh for the instance asking, so one
/// feed that answers sixteen URNs is fetched once per TTL, not once per URN.
///
/// - Identical means the same URL, header fields (credentials among them), retry policy and
///   limits; keys are SHA-256 digests, so no URL or secret is held as a key or handed to a
///   shared store in clear.
/// - Fresh means younger than the asking instance's TTL (`Lifetime`) and, unless `"ttl"` in
///   `sources.json` says otherwise, within the upstream's `Cache-Control`. Kept with the disk
///   cache on or off (a memory-only server is as gentle upstream as one with a disk); the
///   resolver asks for a TTL of 0 only under `--refresh`: then only requests in flight are
///   shared. Errors, failed transfers and other statuses are
///   handed to the requests sharing them and never kept.
/// - At most `Limits.entries` documents and about `Limits.bytes` bytes: those past their TTL
///   first, then the least recently used (`FreshValues`).
/// - With a `SharedDocuments` store (a fleet of replicas), a document missing from memory is
///   asked of the store, and only the replica holding its lease fetches it, renewing the
///   short lease while it does; the others wait for its copy as long as the fetch may take on
///   its limits (plus `shareWait`), and take the lease over once its holder stops renewing it
///   (it died). A store that fails or is slow only costs requests, never an answer.
///
/// A one-shot run (a report, an MCP call) uses `HTTPClients.make` instead: request sharing
/// for the length of the run, nothing kept beyond it.
package final class UpstreamDocuments: Sendable {
    /// How much is kept.
    package typealias Limits = FreshValues<HTTPResponse>.Limits

    /// One source instance's TTL as this layer applies it to a document.
    package struct Lifetime: Sendable, Equatable {
        /// `"ttl"` in `sources.json`, which wins over the upstream's `Cache-Control`.
        package var configured: Double?
        /// The instance's TTL (its module's default, or the configured one).
        package var standard: Double

        package init(configured: Double?, standard: Double) {
            self.configured = configured
            self.standard = standard
        }

        /// The oldest document this instance accepts, in seconds.
        var maxAge: Double { max(0, configured ?? standard) }

        /// Seconds `response`, fetched just now, stays fresh: the instance's TTL, shortened by
        /// the upstream's `Cache-Control` (`no-store`, `no-cache`: not kept), unless configured.
        func seconds(for response: HTTPResponse) -> Double {
            guard (200..<300).contains(response.status) else { return 0 }
            if let configured { return max(0, configured) }
            return max(0, min(standard, response.freshness ?? standard))
        }
    }

    /// What a server's metrics hear.
    package enum Observation: Sendable {
        /// How many GETs wait for their document now (fetching it, or joined to its fetch).
        case waiting(Int)
        /// How a GET was answered: kept, joined to a fetch in flight, or made (fetched, or
        /// taken from the shared store).
        case answered(FreshValues<HTTPResponse>.Answer)
    }

    /// 1,024 documents and 32 MiB: a feed answering every pass is ~100 KB, an NWS forecast ~20 KB.
    package static let standardLimits = Limits(entries: 1024, bytes: 32 << 20)

    private let kept: FreshValues<HTTPResponse>
    private let waiting = Mutex(0)
    private let observe: (@Sendable (Observation) -> Void)?
    private let clients: @Sendable (HTTPLimits) -> any HTTPClient
    private let share: (any SharedDocuments)?
    private let shareTimeout: Duration
    private let shareWait: Duration
    /// A lease's length: how soon a holder that died is noticed.
    private let leaseSeconds: Double
    private let clock: @Sendable () -> Date
    private let logger: Logger

    /// Documents fetched through `clients` (each source's limits to its client; by default
    /// the process's libcurl client, retried: `HTTPClients.direct`), kept within `limits`,
    /// with `share` asked before any fetch. A call into `share` taking longer than
    /// `shareTimeout` (by default the store's own `deadline`) counts as no answer (the store is
    /// then left out for that request); a replica waits for another holding a document's lease
    /// as long as that one's fetch may take, plus `shareWait`, or until it stops renewing its
    /// lease of `leaseSeconds`. `clock` says what time it is (tests move it); `observe` (a
    /// server's metrics) hears each answer and the number waiting; it must be quick and must
    /// not call back.
    package init(limits: Limits = UpstreamDocuments.standardLimits, share: (any SharedDocuments)? = nil,
                 shareTimeout: Duration? = nil, shareWait: Duration = .seconds(5), leaseSeconds: Double = 10,
                 clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
                 clients: (@Sendable (HTTPLimits) -> any HTTPClient)? = nil,
                 observe: (@Sendable (Observation) -> Void)? = nil) {
        kept = FreshValues(limits: limits)
        self.observe = observe
        self.clients = clients ?? HTTPClients.direct(version: Version.current, logger: logger)
        self.share = share
        self.shareTimeout = shareTimeout ?? share?.deadline ?? .seconds(2)
        self.shareWait = shareWait
        self.leaseSeconds = leaseSeconds
        self.clock = clock
        self.logger = logger
    }

    /// The client one source instance gets for one resolution: its GETs go through these
    /// documents, and it remembers how old the oldest one it was given is.
    package func reader(limits: HTTPLimits, lifetime: Lifetime) -> DocumentReader {
        DocumentReader(documents: self, limits: limits, lifetime: lifetime)
    }

    /// What is kept now.
    package var usage: FreshValues<HTTPResponse>.Usage { kept.usage }

    /// The key of `request` made under `limits`: a digest of everything that can change the
    /// answer (method, URL, header fields, retry policy, limits), never any of it in clear.
    package static func key(for request: HTTPRequest, limits: HTTPLimits) -> String {
        CacheKey.digest("document|\(request.identity)"
            + "|\(limits.connectTimeout) \(limits.timeout) \(limits.maxBodyBytes) \(limits.maxRedirects)")
    }

    /// `request`'s answer: kept, joined in flight, from the shared store, or fetched.
    func document(for request: HTTPRequest, limits: HTTPLimits, lifetime: Lifetime) async throws -> FreshValues<HTTPResponse>.Made {
        let key = Self.key(for: request, limits: limits)
        let now = clock()
        countWaiting(+1)
        defer { countWaiting(-1) }
        let (made, how) = try await kept.answer(for: key, maxAge: lifetime.maxAge, now: now) {
            try await self.obtain(request, key: key, limits: limits, lifetime: lifetime)
        }
        observe?(.answered(how))
        if how == .kept {
            logger.debug("GET \(Redaction.redact(request.url)): kept \(Int(now.timeIntervalSince(made.madeAt))) s")
        }
        return made
    }

    /// Counts a GET starting or ending its wait; told under the lock, so a gauge hears the
    /// counts in order.
    private func countWaiting(_ change: Int) {
        waiting.withLock { waiting in
            waiting += change
            observe?(.waiting(waiting))
        }
    }

    /// Sends a request that is not a GET: nothing of it is shared or kept.
    func send(_ request: HTTPRequest, limits: HTTPLimits) async throws -> HTTPResponse {
        try await clients(limits).send(request)
    }

    /// A document not in memory: from the shared store, by the replica holding its lease, or
    /// fetched here.
    private func obtain(_ request: HTTPRequest, key: String, limits: HTTPLimits, lifetime: Lifetime) async throws -> FreshValues<HTTPResponse>.Made {
        // Nothing to share when nothing may be kept (`--refresh`): in flight only.
        guard let share, lifetime.maxAge > 0 else { return try await fetch(request, limits: limits, lifetime: lifetime) }
        let shown = Redaction.redact(request.url)
        // A store that does not answer in time is left out of this request altogether.
        guard let asked = await withinDeadline(shareTimeout, { [clock] in await share.fresh(key, now: clock()) }) else {
            return try await fetch(request, limits: limits, lifetime: lifetime)
        }
        if let stored = asked, let made = usable(stored, lifetime: lifetime) {
            logger.debug("GET \(shown): from the shared store, fetched \(Timestamp.string(from: stored.fetchedAt))")
            return made
        }
        // How long the holder's fetch may take on its own limits: each attempt, and the waits
        // between. Its lease is much shorter and renewed meanwhile, so a holder that died is
        // noticed within `leaseSeconds`, a slow one waited for.
        let patience = limits.timeout * Double(2 + request.retry.attempts) + 5 * Double(request.retry.attempts)
        let giveUp = ContinuousClock.now + .seconds(patience) + shareWait
        // A few rounds of "take the lease, or wait for its holder": a round ends early when the
        // holder goes, and the next takes the lease over. A store that cannot answer ends each
        // round at once, so it costs a few quick calls, then this replica fetches.
        let leaseSeconds = leaseSeconds
        for _ in 0..<Self.shareRounds {
            guard let leased = await withinDeadline(shareTimeout, { await share.lease(key, for: leaseSeconds) }) else { break }
            if leased {
                // The holder before may have stored it and released its lease between this
                // replica asking the store and taking the lease: without this second look, a
                // replica asking at that moment fetched the document again.
                if let stored = await withinDeadline(shareTimeout, { [clock] in await share.fresh(key, now: clock()) }) ?? nil,
                   let made = usable(stored, lifetime: lifetime) {
                    settle { await share.release(key) }
                    logger.debug("GET \(shown): from the shared store, stored as the lease was taken")
                    return made
                }
                let renewing = renewLease(key, share: share)
                let made: FreshValues<HTTPResponse>.Made
                do {
                    made = try await fetch(request, limits: limits, lifetime: lifetime)
                } catch {
                    renewing.cancel()
                    settle { await share.release(key) }
                    throw error
                }
                renewing.cancel()
                if let stored = made.keptUntil.flatMap({ Self.stored(made.value, fetchedAt: made.madeAt, freshUntil: $0) }) {
                    settle { await share.store(key, stored) }
                } else {
                    settle { await share.release(key) }
                }
                return made
            }
            let left = ContinuousClock.now.duration(to: giveUp)
            guard left > .zero else { break }
            guard let waited = await withinDeadline(left + shareTimeout, { await share.awaitStored(key, timeout: left) }) else { break }
            if let stored = waited, let made = usable(stored, lifetime: lifetime) {
                logger.debug("GET \(shown): stored by another replica")
                return made
            }
        }
        logger.debug("GET \(shown): no other replica stored it; fetching it here")
        return try await fetch(request, limits: limits, lifetime: lifetime)
    }

    /// How long storing (or releasing) a document may take in the background.
    static let settleTimeout: Duration = .seconds(30)
    /// Rounds of taking the lease or waiting for its holder before fetching regardless.
    static let shareRounds = 3

    /// Renews this replica's lease on `key` every third of its length until cancelled.
    private func renewLease(_ key: String, share: any SharedDocuments) -> Task<Void, Never> {
        let timeout = shareTimeout
        let leaseSeconds = leaseSeconds
        return Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(leaseSeconds / 3)) } catch { return }
                _ = await withinDeadline(timeout) { await share.renew(key, for: leaseSeconds) }
            }
        }
    }

    /// Tells the store in the background, within `settleTimeout`: the answer is ready, and a
    /// slow store must not hold it.
    private func settle(_ call: @escaping @Sendable () async -> Void) {
        // Nobody waits on it, and a store cut short leaves the others waiting out the lease
        // and fetching again: a loaded database gets longer here than on a request's path.
        let timeout = max(shareTimeout, Self.settleTimeout)
        Task { _ = await withinDeadline(timeout, call) }
    }

    private func fetch(_ request: HTTPRequest, limits: HTTPLimits, lifetime: Lifetime) async throws -> FreshValues<HTTPResponse>.Made {
        let fetchedAt = clock()
        let started = ContinuousClock.now
        let shown = Redaction.redact(request.url)
        logger.debug("GET \(shown)")
        do {
            let response = try await clients(limits).send(request)
            logger.debug("HTTP \(response.status), \(response.body.count) bytes in \(started.duration(to: .now).formatted(.units(allowed: [.milliseconds]))): \(shown)")
            return .init(value: response, madeAt: fetchedAt, keptUntil: fetchedAt.addingTimeInterval(lifetime.seconds(for: response)),
                         bytes: Self.cost(of: response))
        } catch {
            logger.debug("failed after \(started.duration(to: .now).formatted(.units(allowed: [.milliseconds]))): \(shown): \(ConditionsError.report(error).message)")
            throw error
        }
    }

    /// `stored` as this instance may use it: a success, fresh by the store and by `lifetime`.
    private func usable(_ stored: StoredDocument, lifetime: Lifetime) -> FreshValues<HTTPResponse>.Made? {
        let now = clock()
        guard (200..<300).contains(stored.status), now < stored.freshUntil, now.timeIntervalSince(stored.fetchedAt) < lifetime.maxAge else { return nil }
        let response = HTTPResponse(status: stored.status, headers: stored.headers, body: stored.body, url: stored.url)
        let fetchedAt = min(stored.fetchedAt, now)
        let keptUntil = min(stored.freshUntil, fetchedAt.addingTimeInterval(lifetime.seconds(for: response)))
        return .init(value: response, madeAt: fetchedAt, keptUntil: keptUntil, bytes: Self.cost(of: response))
    }

    /// `response` as a store keeps it, nil when it is not to be kept; its URL and header
    /// fields with secrets masked, as other processes read the store.
    private static func stored(_ response: HTTPResponse, fetchedAt: Date, freshUntil: Date) -> StoredDocument? {
        guard (200..<300).contains(response.status), freshUntil > fetchedAt else { return nil }
        let url = URL(string: Redaction.redact(response.url)) ?? response.url
        return StoredDocument(status: response.status, headers: Redaction.redact(headers: response.headers), body: response.body,
                              url: url, fetchedAt: fetchedAt, freshUntil: freshUntil)
    }

    /// What keeping `response` costs, roughly: its body and header fields.
    private static func cost(of response: HTTPResponse) -> Int {
        response.body.count + response.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + 256
    }
}

/// One source instance's client for one resolution (`UpstreamDocuments.reader`): its GETs
/// share the process's documents, and it remembers when the oldest one it was given was
/// fetched, so the result made from it is dated no later (`Resolver`).
package final class DocumentReader: HTTPClient {
    private let documents: UpstreamDocuments
    private let limits: HTTPLimits
    private let lifetime: UpstreamDocuments.Lifetime
    private let oldest = Mutex<Date?>(nil)

    init(documents: UpstreamDocuments, limits: HTTPLimits, lifetime: UpstreamDocuments.Lifetime) {
        self.documents = documents
        self.limits = limits
        self.lifetime = lifetime
    }

    /// When the oldest document this reader handed out was fetched; nil: none yet.
    package var oldestDocument: Date? { oldest.withLock { $0 } }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.method.uppercased() == "GET" else { return try await documents.send(request, limits: limits) }
        let made = try await documents.document(for: request, limits: limits, lifetime: lifetime)
        oldest.withLock { $0 = min($0 ?? made.madeAt, made.madeAt) }
        return made.value
    }
}
