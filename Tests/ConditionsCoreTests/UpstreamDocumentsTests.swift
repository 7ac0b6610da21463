import ConditionsKitTesting
import ConditionsKit
import Foundation
import Logging
import LoopbackServer
import Synchronization
import Testing
@testable import ConditionsCore

/// `UpstreamDocuments`, the documents a long-lived process shares between resolutions, with
/// the real HTTP client against a loopback upstream and a clock the test moves.
@Suite struct UpstreamDocumentsTests {
    /// A wall clock the test moves by hand.
    final class TestClock: Sendable {
        private let offset = Mutex(0.0)
        private let start = Date()
        var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: Double) { offset.withLock { $0 += seconds } }
    }

    static let logger = Logger(label: "upstream-documents-test")
    static let minute = UpstreamDocuments.Lifetime(configured: nil, standard: 60)

    static func upstream(_ response: LoopbackServer.Response = .json(#"{"passes": []}"#)) throws -> LoopbackServer {
        let server = LoopbackServer()
        server.route("/feed", response)
        try server.start()
        return server
    }

    /// A reader's documents. The store's timeout and the lease default to what no stall of a
    /// loaded machine reaches (the product's 2 s and 10 s would let a slow test run see a
    /// store that "did not answer" or a lease that "expired"); tests of those faults say theirs.
    static func documents(_ clock: TestClock, share: (any SharedDocuments)? = nil, shareTimeout: Duration = .seconds(60), leaseSeconds: Double = 300,
                          shareWait: Duration = .seconds(120)) -> UpstreamDocuments {
        UpstreamDocuments(share: share, shareTimeout: shareTimeout, shareWait: shareWait, leaseSeconds: leaseSeconds, clock: { clock.now }, logger: logger)
    }

    /// Sends `request` through a reader of its own (a resolution of its own), `count` at once.
    static func get(_ documents: UpstreamDocuments, _ request: HTTPRequest, count: Int = 1,
                    lifetime: UpstreamDocuments.Lifetime = minute) async throws -> [HTTPResponse] {
        try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            for _ in 0..<count {
                group.addTask { try await documents.reader(limits: HTTPLimits(), lifetime: lifetime).send(request) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func oneFetchForEveryReaderWhileFreshAndOneMoreAfterTheTTL() async throws {
        // Slow, so most of the readers arrive while the fetch is in flight; the others find it kept.
        let upstream = try Self.upstream(LoopbackServer.Response.json(#"{"passes": []}"#).delayed(0.2))
        defer { upstream.stop() }
        let clock = TestClock()
        let documents = Self.documents(clock)
        let request = HTTPRequest(url: upstream.url("/feed"))
        let answers = try await Self.get(documents, request, count: 16)
        #expect(answers.count == 16 && answers.allSatisfy { $0.status == 200 && $0.body.count == 14 })
        #expect(upstream.requestCount("/feed") == 1)

        // Later, still within the TTL: kept, and the reader knows how old it is.
        clock.advance(59)
        let reader = documents.reader(limits: HTTPLimits(), lifetime: Self.minute)
        #expect(try await reader.send(request).status == 200)
        #expect(upstream.requestCount("/feed") == 1)
        let age = try #require(reader.oldestDocument.map { clock.now.timeIntervalSince($0) })
        #expect(age >= 59 && age < 61)

        // Past the TTL: fetched again, once for everyone.
        clock.advance(2)
        _ = try await Self.get(documents, request, count: 8)
        #expect(upstream.requestCount("/feed") == 2)
        #expect(documents.usage.entries == 1)
    }

    @Test func otherHeadersAreAnotherDocumentAndNoKeyHoldsThem() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let documents = Self.documents(TestClock())
        let alice = HTTPRequest(url: upstream.url("/feed?api_key=alice-secret"), headers: ["Authorization": "Bearer alice-token"])
        let bob = HTTPRequest(url: upstream.url("/feed?api_key=alice-secret"), headers: ["Authorization": "Bearer bob-token"])
        _ = try await Self.get(documents, alice)
        _ = try await Self.get(documents, bob)
        _ = try await Self.get(documents, alice)
        _ = try await Self.get(documents, bob)
        #expect(upstream.requestCount("/feed") == 2, "one fetch per credential")
        #expect(Set(upstream.requests.compactMap { $0.headers["authorization"] }) == ["Bearer alice-token", "Bearer bob-token"])

        let key = UpstreamDocuments.key(for: alice, limits: HTTPLimits())
        #expect(key != UpstreamDocuments.key(for: bob, limits: HTTPLimits()))
        #expect(key.count == 64 && !key.contains("alice") && !key.contains("127.0.0.1"))
    }

    /// One request identity for both sharing layers: header names in any case are the same
    /// request (HTTP reads them so), values and retry policies are not.
    @Test func bothSharingLayersKnowARequestByOneIdentity() {
        let url = URL(string: "https://api.weather.gov/points/\(Place.stevensPoint)")!
        let request = HTTPRequest(url: url, headers: ["Accept": "application/geo+json", "User-Agent": "conditions"])
        let shouted = HTTPRequest(url: url, headers: ["ACCEPT": "application/geo+json", "user-agent": "conditions"])
        #expect(request.identity == shouted.identity)
        #expect(UpstreamDocuments.key(for: request, limits: HTTPLimits()) == UpstreamDocuments.key(for: shouted, limits: HTTPLimits()))
        #expect(request.identity != HTTPRequest(url: url, headers: ["Accept": "application/json", "User-Agent": "conditions"]).identity)
        #expect(request.identity != HTTPRequest(url: url, headers: request.headers, retry: HTTPRetry(statuses: [500, 503], attempts: 2)).identity)
        #expect(request.identity != HTTPRequest(method: "HEAD", url: url, headers: request.headers).identity)
    }

    @Test func anErrorIsNeverKept() async throws {
        let upstream = try Self.upstream(.text("down for maintenance", status: 500))
        defer { upstream.stop() }
        let documents = Self.documents(TestClock())
        let request = HTTPRequest(url: upstream.url("/feed"))
        #expect(try await Self.get(documents, request)[0].status == 500)
        #expect(try await Self.get(documents, request)[0].status == 500)
        #expect(upstream.requestCount("/feed") == 2, "each asks again")
        #expect(documents.usage.entries == 0)

        upstream.route("/feed", .json("{}"))
        #expect(try await Self.get(documents, request)[0].status == 200)
        #expect(try await Self.get(documents, request)[0].status == 200)
        #expect(upstream.requestCount("/feed") == 3, "the first success is kept")
    }

    @Test func cacheControlShortensTheTTLUnlessTheConfigSetsOne() async throws {
        let upstream = try Self.upstream(.init(status: 200, headers: ["Cache-Control": "max-age=10"], body: Data("{}".utf8)))
        defer { upstream.stop() }
        let clock = TestClock()
        let documents = Self.documents(clock)
        let request = HTTPRequest(url: upstream.url("/feed"))
        _ = try await Self.get(documents, request)
        clock.advance(11)
        _ = try await Self.get(documents, request)
        #expect(upstream.requestCount("/feed") == 2, "max-age=10 outlived")

        // "ttl": 60 in sources.json wins over the upstream's max-age.
        let configured = UpstreamDocuments.Lifetime(configured: 60, standard: 300)
        let other = HTTPRequest(url: upstream.url("/feed"), headers: ["Accept": "application/json"])
        _ = try await Self.get(documents, other, lifetime: configured)
        clock.advance(30)
        _ = try await Self.get(documents, other, lifetime: configured)
        #expect(upstream.requestCount("/feed") == 3)

        upstream.route("/feed", .init(status: 200, headers: ["Cache-Control": "no-store"], body: Data("{}".utf8)))
        let third = HTTPRequest(url: upstream.url("/feed"), headers: ["Accept": "*/*"])
        _ = try await Self.get(documents, third)
        _ = try await Self.get(documents, third)
        #expect(upstream.requestCount("/feed") == 5, "no-store is never kept")
    }

    @Test func nothingIsKeptWhenTheLifetimeIsZero() async throws {
        // The cache off or --refresh: the resolver asks for a lifetime of 0.
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let documents = Self.documents(TestClock())
        let request = HTTPRequest(url: upstream.url("/feed"))
        let none = UpstreamDocuments.Lifetime(configured: 0, standard: 0)
        _ = try await Self.get(documents, request, lifetime: none)
        _ = try await Self.get(documents, request, lifetime: none)
        #expect(upstream.requestCount("/feed") == 2)
        #expect(documents.usage.entries == 0)
    }

    // MARK: Replicas sharing a store

    @Test func twoReplicasSharingAStoreFetchOnce() async throws {
        let upstream = try Self.upstream(LoopbackServer.Response.json(#"{"passes": []}"#).delayed(0.3))
        defer { upstream.stop() }
        let clock = TestClock()
        let share = InMemorySharedDocuments()
        let first = Self.documents(clock, share: share), second = Self.documents(clock, share: share)
        let request = HTTPRequest(url: upstream.url("/feed"))
        async let fromFirst = Self.get(first, request, count: 8)
        async let fromSecond = Self.get(second, request, count: 8)
        let answers = try await fromFirst + fromSecond
        #expect(answers.count == 16 && answers.allSatisfy { $0.status == 200 && $0.body.count == 14 })
        #expect(upstream.requestCount("/feed") == 1, "one replica fetched, the other waited for its copy")
        #expect(await share.leasesGranted == 1)

        // A third replica, starting cold, reads the stored copy; it holds no secret of the request.
        let key = UpstreamDocuments.key(for: request, limits: HTTPLimits())
        try await eventually { await share.stored(key) != nil }
        let third = Self.documents(clock, share: share)
        #expect(try await Self.get(third, request)[0].body.count == 14)
        #expect(upstream.requestCount("/feed") == 1)
    }

    /// The race FleetServeTests met under load (two feed requests for three replicas): the
    /// holder stored the document and released its lease between this replica's two calls.
    @Test func aLeaseTakenAfterAnotherReplicaStoredTheDocumentFetchesNothing() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let clock = TestClock()
        let request = HTTPRequest(url: upstream.url("/feed"))
        let stored = StoredDocument(status: 200, headers: ["content-type": "application/json"], body: Data(#"{"passes": [1]}"#.utf8),
                                    url: request.url, fetchedAt: clock.now, freshUntil: clock.now.addingTimeInterval(60))
        let share = StoredAfterAskingSharedDocuments(document: stored)
        let answer = try await Self.get(Self.documents(clock, share: share), request)[0]
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"passes": [1]}"#, "the other replica's copy")
        #expect(upstream.requestCount("/feed") == 0)
        try await eventually { await share.releases == 1 }
    }

    @Test func aReplicaThatTookTheLeaseAndDiedIsWaitedForBriefly() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let share = InMemorySharedDocuments()
        let request = HTTPRequest(url: upstream.url("/feed"))
        // Another replica leased the document, then died: it never stored it, nor renewed the lease.
        #expect(await share.lease(UpstreamDocuments.key(for: request, limits: HTTPLimits()), for: 0.3))
        let documents = Self.documents(TestClock(), share: share, leaseSeconds: 0.3, shareWait: .milliseconds(200))
        #expect(try await Self.get(documents, request)[0].status == 200)
        #expect(upstream.requestCount("/feed") == 1, "fetched here once the wait ran out")
        // Kept here meanwhile.
        _ = try await Self.get(documents, request)
        #expect(upstream.requestCount("/feed") == 1)
    }

    @Test func aStoreThatNeverAnswersCostsNoAnswer() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let documents = Self.documents(TestClock(), share: UnresponsiveSharedDocuments(), shareTimeout: .milliseconds(100),
                                       shareWait: .milliseconds(100))
        let request = HTTPRequest(url: upstream.url("/feed"))
        let answers = try await Self.get(documents, request, count: 4)
        #expect(answers.allSatisfy { $0.status == 200 })
        #expect(upstream.requestCount("/feed") == 1)
    }

    /// A replica waits for its store as long as the store says (`"history": {"fleetTimeout"}`),
    /// not the 2 s it would otherwise: a store answering after 3 s, within its 60 s, still
    /// answers, and nothing is fetched.
    @Test func theStoresOwnDeadlineIsHowLongAReplicaWaitsForIt() async throws {
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let clock = TestClock()
        let stored = StoredDocument(status: 200, headers: ["content-type": "application/json"], body: Data(#"{"passes": ["stored"]}"#.utf8),
                                    url: upstream.url("/feed"), fetchedAt: clock.now, freshUntil: clock.now.addingTimeInterval(60))
        let share = SlowSharedDocuments(deadline: .seconds(60), delay: .seconds(3), document: stored)
        let documents = UpstreamDocuments(share: share, clock: { clock.now }, logger: Self.logger)
        let answers = try await Self.get(documents, HTTPRequest(url: upstream.url("/feed")))
        #expect(answers.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"passes": ["stored"]}"#])
        #expect(upstream.requestCount("/feed") == 0)
    }

    @Test func aFailedFetchReleasesTheLease() async throws {
        let upstream = try Self.upstream(.text("no", status: 503))
        defer { upstream.stop() }
        let share = InMemorySharedDocuments()
        let documents = Self.documents(TestClock(), share: share)
        let request = HTTPRequest(url: upstream.url("/feed"), retry: HTTPRetry(statuses: [], attempts: 0))
        #expect(try await Self.get(documents, request)[0].status == 503)
        try await eventually { await share.releases == 1 }
        #expect(await share.stores == 0)
        #expect(await share.lease(UpstreamDocuments.key(for: request, limits: HTTPLimits()), for: 1), "free for the next replica")
    }

    /// Polls `condition` until it holds, for at most two minutes.
    func eventually(_ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while await !condition() {
            guard ContinuousClock.now < deadline else {  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
