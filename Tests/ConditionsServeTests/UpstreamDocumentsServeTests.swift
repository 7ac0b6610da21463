import ConditionsCore
import ConditionsKit
import ConditionsModules
import Foundation
import Logging
import LoopbackServer
import Synchronization
import TestHarness
import TestSources
import Testing
@testable import ConditionsServer

/// `conditions serve` reads an upstream document once for every URN that needs it: identical
/// requests of concurrent resolutions share one fetch, and a document answers later URNs while
/// fresh, with the disk cache on or off (`UpstreamDocuments`).
@Suite struct UpstreamDocumentsServeTests {
    /// The registered modules and `Document`, whose every URN reads one document and which
    /// keeps nothing itself.
    static let catalog = SourceCatalog(RegisteredModules.all + [DocumentSource.self])
    static let feedPath = "/feed"

    /// A loopback upstream serving `/feed`, and a config routing `doc:` to it (`ttl` seconds).
    static func documentSetUp(ttl: Int = 60, cache: String = #""cache": {"directory": "cache"}"#) throws -> (LoopbackServer, URL) {
        let upstream = LoopbackServer()
        upstream.route(feedPath, LoopbackServer.Response.json(#"{"passes": []}"#).delayed(0.2))
        try upstream.start()
        let dir = try Upstream.config(sources: #""doc": {"module": "Document", "ttl": \#(ttl), "options": {"url": "\#(upstream.url(feedPath).absoluteString)"}}"#,
                                      routes: #""doc": "doc""#, extra: ", " + cache)
        return (upstream, dir)
    }

    /// `count` GETs of each path at once, each on a connection of its own (an HTTP client's
    /// pool would hold all but a few back).
    static func statuses(_ server: some ServedHTTP, _ paths: [String], count: Int) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for path in paths {
                for _ in 0..<count {
                    group.addTask {
                        let connection = try await RawConnection.open(port: server.port)
                        defer { connection.close() }
                        return try await connection.exchange([RawConnection.get(path)])[0].status
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func sixteenDistinctURNsReadingOneDocumentCostOneRequest() async throws {
        let (upstream, dir) = try Self.documentSetUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, catalog: Self.catalog) { server in
            let statuses = try await Self.statuses(server, (1...16).map { "/v1/urn/doc:d\($0)" }, count: 3)
            #expect(statuses.count == 48 && statuses.allSatisfy { $0 == 200 })
            #expect(upstream.requestCount(Self.feedPath) == 1)
            // A URN asked later, while the document is fresh, reads it too.
            let late = try await server.request("/v1/urn/doc:late")
            #expect(late.status == 200)
            #expect((late.object["data"] as? [String: Any])?["bytes"] as? Int == 14)
            #expect(upstream.requestCount(Self.feedPath) == 1)
            let metrics = try await server.request("/metrics").body
            #expect(metrics.contains(#"conditions_upstream_documents_total{answer="fetched"} 1"#), "\(metrics)")
        }
    }

    @Test func afterTheTTLTheDocumentIsFetchedOnceMore() async throws {
        let (upstream, dir) = try Self.documentSetUp(ttl: 60)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let offset = Mutex(0.0)
        let start = Date()
        let documents = UpstreamDocuments(clock: { start.addingTimeInterval(offset.withLock { $0 }) }, logger: Logger(label: "test"))
        let coordinator = try Self.coordinator(in: dir, documents: documents)

        let first = await coordinator.resolve((1...16).map { "doc:a\($0)" })
        #expect(first.allSatisfy { $0.record.isSuccess })
        #expect(upstream.requestCount(Self.feedPath) == 1)
        offset.withLock { $0 = 61 }
        let second = await coordinator.resolve((1...16).map { "doc:b\($0)" })
        #expect(second.allSatisfy { $0.record.isSuccess })
        #expect(upstream.requestCount(Self.feedPath) == 2, "one more fetch for the next TTL, shared by every URN")
    }

    @Test func aResultFromAKeptDocumentIsAsOldAsTheDocument() async throws {
        let (upstream, dir) = try Self.documentSetUp(ttl: 60)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let documents = UpstreamDocuments(clock: { Date().addingTimeInterval(-40) }, logger: Logger(label: "test"))
        let coordinator = try Self.coordinator(in: dir, documents: documents)
        // Fetched "40 s ago" by the documents' clock: the result is dated then, and kept for
        // the 20 s left of its TTL, not for a whole minute from now.
        let before = Date()
        let answer = await coordinator.resolve("doc:x")
        let after = Date()
        guard case .success(_, _, let fetchedAt, _, _) = answer.record.outcome else {
            Issue.record("doc:x failed: \(answer.record)")
            return
        }
        #expect(fetchedAt >= before.addingTimeInterval(-41) && fetchedAt <= after.addingTimeInterval(-40))
        // Whatever a stall of this test added to the call, never the minute of a fresh fetch.
        #expect(answer.maxAge <= 20 + Int(after.timeIntervalSince(before).rounded(.up)), "max-age \(answer.maxAge)")
    }

    @Test func errorsAreNotKept() async throws {
        let (upstream, dir) = try Self.documentSetUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        upstream.route(Self.feedPath, .text("down", status: 500))
        try await InProcessServer.with(in: dir, catalog: Self.catalog) { server in
            let failed = [try await server.request("/v1/urn/doc:one"), try await server.request("/v1/urn/doc:two")]
            #expect(failed.map(\.status) == [502, 502])
            #expect(upstream.requestCount(Self.feedPath) == 2, "a failed fetch answers no other URN")
            upstream.route(Self.feedPath, .json("{}"))
            let answered = [try await server.request("/v1/urn/doc:three"), try await server.request("/v1/urn/doc:four")]
            #expect(answered.map(\.status) == [200, 200])
            #expect(upstream.requestCount(Self.feedPath) == 3)
        }
    }

    /// WSDOT's feed with the cache off and `--refresh`: nothing is kept, but the sixteen
    /// passes' resolutions, all waiting at once, share the one fetch in flight.
    @Test func concurrentResolutionsShareAFetchInFlightUnderRefresh() async throws {
        let gate = Gate()
        let upstream = LoopbackServer()
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json")
        upstream.route(FeedModeServeTests.feedPath) { _ in
            gate.wait(atMost: 120)
            return .json(feed)
        }
        try upstream.start()
        defer { gate.open(); upstream.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot-feed": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\#(upstream.url("/mobile").absoluteString)"}}"#,
            routes: #""pass": "wsdot-feed""#, extra: #", "cache": {"enabled": false}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, refresh: true) { server in
            async let statuses = Self.statuses(server, Upstream.passSlugs.map { "/v1/urn/pass:\($0)" }, count: 2)
            // Every pass's request is waiting for the feed before it is let through.
            try await Self.eventually { try await MemoryBoundTests.metric("conditions_upstream_document_waits", in: server) == 16 }
            gate.open()
            let answered = try await statuses
            #expect(answered.count == 32 && answered.allSatisfy { $0 == 200 })
            #expect(upstream.requestCount(FeedModeServeTests.feedPath) == 1)
        }
    }

    /// Through the binary: WSDOT's API feed with the cache off and `--refresh` (nothing kept, so
    /// what is shared is the fetch in flight), sixteen URNs (every pass and `pass:all`) asked by
    /// four clients each at once, cold: one feed request.
    @Test func theBinaryFetchesTheFeedOnceForSixteenColdURNs() async throws {
        let gate = Gate()
        let upstream = LoopbackServer()
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        upstream.route("/api/GetMountainPassConditionsAsJson") { _ in
            gate.wait(atMost: 120)
            return .json(feed)
        }
        try upstream.start()
        defer { gate.open(); upstream.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": 60, "options": {"mode": "api", "baseURL": "\#(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#, extra: #", "cache": {"enabled": false}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let urns = Upstream.passSlugs.filter { $0 != "tiger-mountain" }.map { "pass:\($0)" } + ["pass:all"]
        #expect(urns.count == 16)
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--refresh"], in: dir, environment: ServeTests.environment) { server in
            async let statuses = Self.statuses(server, urns.map { "/v1/urn/\($0)" }, count: 4)
            try await Self.eventually { try await MemoryBoundTests.metric("conditions_upstream_document_waits", in: server) == 16 }
            gate.open()
            let answered = try await statuses
            #expect(answered.count == 64 && answered.allSatisfy { $0 == 200 })
            #expect(upstream.requestCount("/api/GetMountainPassConditionsAsJson") == 1)
            let metrics = try await server.request("/metrics").body
            #expect(metrics.contains(#"conditions_upstream_documents_total{answer="fetched"} 1"#))
            #expect(metrics.contains(#"conditions_upstream_documents_total{answer="joined"} 15"#))
            #expect(!metrics.contains(ServeTests.secret))
        }
        #expect(ended.status == 0)
        #expect(!ended.stderr.contains(ServeTests.secret))
    }

    /// How a server goes without a disk cache (issue 45), and `--refresh`.
    enum DiskCache: String, CaseIterable, CustomTestStringConvertible {
        case disabled = "\"cache\": {\"enabled\": false}"
        case noCacheFlag = "--no-cache"
        case unwritableFolder = "a cache folder that cannot be made"
        case refresh = "--refresh"
        var testDescription: String { rawValue }
    }

    /// Through the binary: WSDOT's API feed, a 60 s TTL, and no disk cache to keep anything in:
    /// passes asked one after another (each answered before the next is asked, so nothing is in
    /// flight to share) cost one feed request, the document kept in memory for the TTL; under
    /// `--refresh` each URN fetches it.
    @Test(arguments: DiskCache.allCases)
    func aServerWithoutADiskCacheKeepsEachDocumentForItsTTL(_ way: DiskCache) async throws {
        let upstream = LoopbackServer()
        upstream.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try upstream.start()
        defer { upstream.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": 60, "options": {"mode": "api", "baseURL": "\#(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#,
            routes: #""pass": "wsdot""#, extra: way == .disabled ? #", "cache": {"enabled": false}"# : "")
        defer { try? FileManager.default.removeItem(at: dir) }
        var arguments = ["--listen", "127.0.0.1:0"]
        switch way {
        case .disabled: break
        case .noCacheFlag: arguments.append("--no-cache")
        case .refresh: arguments.append("--refresh")
        case .unwritableFolder:
            // A regular file where a folder would go: no user (root included) can make the cache there.
            let blocker = dir.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: blocker)
            arguments += ["--cache-dir", blocker.appendingPathComponent("cache").path]
        }
        let urns = ["pass:snoqualmie", "pass:stevens", "pass:white", "pass:all"]
        let ended = try await ServeProcess.with(arguments, in: dir, environment: ServeTests.environment) { server in
            for urn in urns {
                let answer = try await server.request("/v1/urn/\(urn)")
                #expect(answer.status == 200, "\(urn): \(answer.body)")
            }
            let expected = way == .refresh ? urns.count : 1
            #expect(upstream.requestCount("/api/GetMountainPassConditionsAsJson") == expected)
            let metrics = try await server.request("/metrics").body
            #expect(metrics.contains(#"conditions_upstream_documents_total{answer="fetched"} \#(expected)"#), "\(metrics)")
        }
        #expect(ended.status == 0, "\(ended.stderr)")
        // The default cache folder ($HOME is `dir`): written only where a cache is on (`--refresh`).
        let defaultCache = dir.appendingPathComponent(".cache/conditions").path
        #expect(FileManager.default.fileExists(atPath: defaultCache) == (way == .refresh), "\(defaultCache)")
    }

    static func coordinator(in dir: URL, documents: UpstreamDocuments) throws -> ResultCoordinator {
        let logger = Logger(label: "upstream-documents-serve-test")
        let environment = ["HOME": dir.path, "TZ": "UTC"]
        let configuration = try Configuration.load(try ConfigFile.read(dir.appendingPathComponent("sources.json")), profile: nil, catalog: catalog)
        let runtime = try Runtime(configuration, catalog: catalog, environment: environment, logger: logger)
        let cache = try Resolver.CachePolicy(settings: configuration.cache, offline: false, refresh: false, noCache: false,
                                             directory: nil, environment: environment)
        return ResultCoordinator(runtime: runtime, cachePolicy: cache, logger: logger, metrics: ServerMetrics(), documents: documents)
    }

    /// Polls `condition` until it holds, for at most two minutes.
    static func eventually(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            guard ContinuousClock.now < deadline else {  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension ResultRecord {
    var isSuccess: Bool {
        if case .success = outcome { return true }
        return false
    }
}
