import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import HostTestSupport
import LoopbackServer
import Logging
import Synchronization
import Testing
@testable import ConditionsCore

/// Route fallback in the resolver (issue 24, item 3): a chain's instances, each reading its own
/// loopback upstream through the real HTTP client, tried in order. Upstream failures move on;
/// `notFound`, `invalidArguments` and configuration errors do not; the cache is per instance;
/// a stale entry answers only when every instance fails; `--offline` takes the first entry.
@Suite struct RouteFallbackTests {
    typealias Response = LoopbackServer.Response

    /// A source reading `{upstream}/{scheme}/{name}`: a JSON object is its result, a JSON
    /// `{"error": {"kind", "message"}}` the upstream's own verdict, anything else a bad response.
    struct UpstreamSource: ConditionsSource {
        static let moduleName = "Upstream"
        static let summary = "a loopback upstream"
        let routes: [RoutePattern]
        let upstream: URL

        init(configuration: SourceConfiguration) throws { throw ConditionsError.configuration("made by the tests only") }

        init(upstream: URL, routes: [RoutePattern]) {
            self.upstream = upstream
            self.routes = routes
        }

        func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
            let name = location.arguments.values.sorted().joined(separator: "-")
            let url = upstream.appendingPathComponent(location.urn.scheme).appendingPathComponent(name)
            let response = try await context.http.get(url)
            try response.requireSuccess()
            guard let value = try? JSONValue.parse(response.body), let object = value.objectValue else {
                throw ConditionsError.badResponse("\(url.absoluteString): not a JSON object")
            }
            if let error = object["error"]?.objectValue, let kind = error["kind"]?.stringValue.flatMap(ErrorKind.init(rawValue:)) {
                throw ConditionsError(kind, error["message"]?.stringValue ?? "?", suggestions: ["\(location.urn.scheme):other"])
            }
            return SourceResult(data: value)
        }
    }

    /// Every warning and error logged, message by message.
    final class Messages: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let messages: Messages
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            messages.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }

    /// Upstreams `a`, `b` and `c`, instances of the same names reading them, `pass` routed to
    /// `chain`, and a cache folder; removed by `stop()`.
    final class Setup: Sendable {
        let servers: [String: LoopbackServer]
        let instances: [SourceInstance]
        let runtime: Runtime
        let cache: ResultCache
        let messages: Messages
        static let start = Timestamp.parse("2026-11-21T14:00:00Z")!

        /// `timeouts`: an instance's request timeout, if not 30 s. A short one belongs only to an
        /// instance whose upstream hangs: one that answers must have time to on a loaded machine.
        init(chain: [String] = ["a", "b"], joined: [[String]]? = nil, ttl: Double = 300, timeouts: [String: Double] = [:]) throws {
            var servers: [String: LoopbackServer] = [:]
            var instances: [SourceInstance] = []
            let messages = Messages()
            for id in ["a", "b", "c"] {
                let server = LoopbackServer()
                try server.start()
                servers[id] = server
                var logger = Logger(label: "test") { _ in Capture(messages: messages) }
                logger[metadataKey: "source"] = "\(id)"
                instances.append(SourceInstance(
                    id: id, module: UpstreamSource.moduleName,
                    // `c` writes the placeholder its own way: its link reads its own arguments.
                    source: UpstreamSource(upstream: server.baseURL, routes: id == "c" ? ["pass:{pass}"] : ["pass:{name}", "pass:all"]),
                    http: HTTPLimits(connectTimeout: 30, timeout: timeouts[id] ?? 30), logger: logger, ttl: ttl, configurationText: id))
            }
            self.servers = servers
            self.messages = messages
            self.instances = instances
            cache = ResultCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("conditions-fallback-\(UUID().uuidString)"))
            let routes = [joined.map { chains in
                Configuration.Route(scheme: "pass", chains: chains.enumerated().map { .init(instances: $1, path: "routes.pass.join[\($0)]", listed: true) })
            } ?? Configuration.Route(scheme: "pass", instances: chain, listed: true)]
            runtime = try Runtime(instances: instances, routes: routes, configuration: .init(
                file: URL(fileURLWithPath: "/dev/null"), profile: nil, place: Place(latitude: 47.6, longitude: -122.3), routes: routes,
                report: [], cache: .init(), serve: .init()))
        }

        func server(_ id: String) -> LoopbackServer { servers[id]! }

        /// `id`'s upstream answers `response` for `pass:{name}`.
        func answer(_ id: String, _ name: String, _ response: Response) {
            server(id).route("/pass/\(name)", response)
        }

        func answer(_ id: String, _ name: String, value: String) {
            answer(id, name, .json(#"{"from": "\#(id)", "value": "\#(value)"}"#))
        }

        /// A resolver at `seconds` after `start`, unpinned (cache keys do not depend on the clock).
        func resolver(at seconds: Double = 0, offline: Bool = false) -> Resolver {
            var resolver = Resolver(runtime: runtime, now: Self.start.addingTimeInterval(seconds), pinned: false,
                                    http: HTTPClients.make(version: "test", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }))
            resolver.cache = Resolver.CachePolicy(store: cache, offline: offline)
            return resolver
        }

        func resolve(_ urn: String, at seconds: Double = 0, offline: Bool = false) async -> ResultRecord {
            await resolver(at: seconds, offline: offline).resolve([urn])[0]
        }

        func stop() {
            servers.values.forEach { $0.stop() }
            try? FileManager.default.removeItem(at: cache.directory)
        }
    }

    /// The answering instance, its route and data, or the failure.
    enum Seen: Equatable {
        case answer(source: String, route: String, value: String, stale: Bool)
        case failure(kind: String, message: String)
    }

    func seen(_ record: ResultRecord) -> Seen {
        switch record.outcome {
        case .success(let route, let source, _, let data, let staleAge):
            .answer(source: source, route: route, value: data["value"]?.stringValue ?? "?", stale: staleAge != nil)
        case .failure(let kind, let message, _):
            .failure(kind: kind.rawValue, message: message)
        }
    }

    // MARK: What moves on

    @Test(arguments: ["http 500", "http 403", "badResponse", "upstream", "timeout", "network"])
    func anUpstreamFailureMovesOnToTheNextInstance(failure: String) async throws {
        let setup = try Setup(timeouts: failure == "timeout" ? ["a": 0.3] : [:])
        defer { setup.stop() }
        switch failure {
        case "http 500": setup.answer("a", "white", .text("broken", status: 500))
        case "http 403": setup.answer("a", "white", .text("denied", status: 403))
        case "badResponse": setup.answer("a", "white", .text("<html>a redesign</html>", contentType: "text/html"))
        case "upstream": setup.answer("a", "white", .json(#"{"error": {"kind": "upstream", "message": "the feed is down"}}"#))
        case "timeout": setup.answer("a", "white", Response.json("{}").delayed(10))
        default: setup.server("a").stop()  // nothing listens: connection refused
        }
        setup.answer("b", "white", value: "open")
        let record = await setup.resolve("pass:white")
        #expect(seen(record) == .answer(source: "b", route: "pass:{name}", value: "open", stale: false))
        #expect(setup.server("b").requestCount("/pass/white") == 1)
        // One warning for the one fallback, naming the instance that failed, why, and the next.
        let warnings = setup.messages.all.filter { $0.contains("trying b") }
        #expect(warnings.count == 1, "\(setup.messages.all)")
        #expect(warnings.first?.hasPrefix("warning: pass:white: a failed (") == true, "\(warnings)")
        let reason = ["http 500": "HTTP 500", "http 403": "HTTP 403", "badResponse": "not a JSON object", "upstream": "the feed is down",
                      "timeout": "timed out", "network": "connection refused"][failure]!
        #expect(warnings.first?.contains(reason) == true, "\(warnings)")
    }

    @Test(arguments: ["notFound", "invalidArguments", "configuration"])
    func aVerdictOnTheRequestDoesNotMoveOn(kind: String) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.answer("a", "nope", .json(#"{"error": {"kind": "\#(kind)", "message": "no pass nope"}}"#))
        setup.answer("b", "nope", value: "open")
        let record = await setup.resolve("pass:nope")
        #expect(seen(record) == .failure(kind: kind, message: "no pass nope; did you mean pass:other?"))
        guard case .failure(_, _, let suggestions) = record.outcome else { return }
        #expect(suggestions == ["pass:other"])
        #expect(setup.server("b").stats.totalRequests == 0, "the second instance is never asked")
        #expect(setup.messages.all.isEmpty, "\(setup.messages.all)")
    }

    @Test func theFirstInstanceAnswersWhenItCan() async throws {
        let setup = try Setup(chain: ["a", "b", "c"])
        defer { setup.stop() }
        setup.answer("a", "white", value: "from a")
        setup.answer("b", "white", value: "from b")
        #expect(seen(await setup.resolve("pass:white")) == .answer(source: "a", route: "pass:{name}", value: "from a", stale: false))
        #expect(setup.server("b").stats.totalRequests == 0)
        #expect(setup.server("c").stats.totalRequests == 0)
    }

    /// Each link reads the URN through its own pattern: `c` calls the argument `pass`.
    @Test func eachInstanceAnswersThroughItsOwnPattern() async throws {
        let setup = try Setup(chain: ["a", "b", "c"])
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", .text("", status: 404))
        setup.answer("c", "white", value: "from c")
        #expect(seen(await setup.resolve("pass:white")) == .answer(source: "c", route: "pass:{pass}", value: "from c", stale: false))
        #expect(setup.messages.all.filter { $0.contains("failed (HTTP") }.count == 2, "\(setup.messages.all)")
        // pass:all: a and b serve it as such; c only through pass:{pass}, so it is in that chain too.
        let (_, chain) = try setup.runtime.router.match(URN("pass:all"))
        #expect(chain.links.map(\.instance.id) == ["a", "b", "c"])
        #expect(chain.links.map(\.pattern.text) == ["pass:all", "pass:all", "pass:{pass}"])
    }

    /// A later instance's verdict is the answer too: it is not an upstream failure. It is said
    /// with the earlier failure, and keeps its kind and suggestions.
    @Test func aVerdictOfTheNextInstanceIsTheAnswer() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", .json(#"{"error": {"kind": "notFound", "message": "b knows no white"}}"#))
        guard case .failure(let kind, let message) = seen(await setup.resolve("pass:white")) else {
            Issue.record("pass:white answered")
            return
        }
        #expect(kind == "notFound")
        #expect(message.hasPrefix("a: HTTP 500 Internal Server Error from http://127.0.0.1:"), "\(message)")
        #expect(message.hasSuffix("; b: b knows no white; did you mean pass:other?"), "\(message)")
    }

    // MARK: When every instance fails

    @Test func everyFailureIsNamedInOneLineWithTheLastKind() async throws {
        let setup = try Setup(chain: ["a", "b", "c"], timeouts: ["c": 0.3])
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", .text("not json"))
        setup.answer("c", "white", Response.json("{}").delayed(10))
        let record = await setup.resolve("pass:white")
        guard case .failure(let kind, let message, _) = record.outcome else { Issue.record("expected a failure: \(record)"); return }
        #expect(kind == .timeout)
        #expect(!message.contains("\n"))
        let parts = message.components(separatedBy: "; ")
        #expect(parts.count == 3, "\(message)")
        #expect(parts[0].hasPrefix("a: HTTP 500 Internal Server Error from http://127.0.0.1:"), "\(message)")
        #expect(parts[1].hasPrefix("b: http://127.0.0.1:") && parts[1].hasSuffix("not a JSON object"), "\(message)")
        #expect(parts[2].hasPrefix("c: timed out after 0.3 s"), "\(message)")
        // Two fallbacks, each logged once.
        #expect(setup.messages.all.filter { $0.contains("; trying ") }.count == 2, "\(setup.messages.all)")
    }

    @Test func aLoneInstanceKeepsItsOwnError() async throws {
        let setup = try Setup(chain: ["a"])
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        let record = await setup.resolve("pass:white")
        guard case .failure(let kind, let message, _) = record.outcome else { Issue.record("expected a failure"); return }
        #expect(kind == .http)
        #expect(message.hasPrefix("HTTP 500"), "\(message)")
    }

    // MARK: The cache, per instance

    @Test func theCacheIsPerInstance() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", value: "b1")
        #expect(seen(await setup.resolve("pass:white")) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: false))
        // a has nothing cached, so it is asked again; b's fresh entry answers without a request.
        setup.answer("b", "white", value: "b2")
        #expect(seen(await setup.resolve("pass:white", at: 60)) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: false))
        #expect(setup.server("a").requestCount("/pass/white") == 2)
        #expect(setup.server("b").requestCount("/pass/white") == 1)
        // a recovers: it answers (and its own entry is cached), whatever b holds.
        setup.answer("a", "white", value: "a1")
        #expect(seen(await setup.resolve("pass:white", at: 120)) == .answer(source: "a", route: "pass:{name}", value: "a1", stale: false))
        // a's fresh entry answers without a request, even with a's upstream failing again.
        setup.answer("a", "white", .text("", status: 500))
        #expect(seen(await setup.resolve("pass:white", at: 180)) == .answer(source: "a", route: "pass:{name}", value: "a1", stale: false))
        #expect(setup.server("a").requestCount("/pass/white") == 3)
        #expect(setup.server("b").requestCount("/pass/white") == 1)
        // Two entries, one per instance.
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.cache.directory.path).filter { $0.hasSuffix(".json") }.count == 2)
    }

    /// A's stale entry does not answer while b can: b's fresh fetch wins.
    @Test func aStaleEntryWaitsUntilEveryInstanceHasFailed() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.answer("a", "white", value: "a1")
        _ = await setup.resolve("pass:white")
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", value: "b1")
        #expect(seen(await setup.resolve("pass:white", at: 400)) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: false))
        // Both fail: the earliest instance's entry answers, stale, though b's is newer.
        // (An HTTP 404 is the upstream's failure, not a verdict on the URN.)
        setup.answer("b", "white", .text("", status: 404))
        let record = await setup.resolve("pass:white", at: 800)
        #expect(seen(record) == .answer(source: "a", route: "pass:{name}", value: "a1", stale: true))
        guard case .success(_, _, _, _, let staleAge) = record.outcome else { return }
        #expect(staleAge == 800)
        let stale = setup.messages.all.filter { $0.contains("using the cached result") }
        #expect(stale.count == 1)
        #expect(stale.first?.contains("a: HTTP 500") == true && stale.first?.contains("b: HTTP 404") == true, "\(stale)")
        #expect(stale.first?.contains("using the cached result of a from 2026-11-21T14:00:00Z") == true, "\(stale)")
    }

    /// With no entry of the first instance, the next instance's entry stands in.
    @Test func theEarliestEntryThatExistsAnswersWhenAllFail() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", value: "b1")
        _ = await setup.resolve("pass:white")
        setup.answer("b", "white", .text("", status: 500))
        #expect(seen(await setup.resolve("pass:white", at: 400)) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: true))
    }

    // MARK: --offline

    @Test func offlineTheFirstInstanceWithAnEntryAnswers() async throws {
        let setup = try Setup(chain: ["a", "b", "c"])
        defer { setup.stop() }
        setup.answer("a", "white", .text("", status: 500))
        setup.answer("b", "white", value: "b1")
        _ = await setup.resolve("pass:white")
        setup.answer("c", "stevens", value: "c1")
        setup.answer("a", "stevens", .text("", status: 500))
        setup.answer("b", "stevens", .text("", status: 500))
        _ = await setup.resolve("pass:stevens")
        setup.servers.values.forEach { $0.resetStats() }
        setup.messages.lines.withLock { $0.removeAll() }

        // a has nothing, b's entry answers: fresh within its TTL, stale after it.
        #expect(seen(await setup.resolve("pass:white", at: 10, offline: true)) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: false))
        #expect(seen(await setup.resolve("pass:white", at: 1000, offline: true)) == .answer(source: "b", route: "pass:{name}", value: "b1", stale: true))
        #expect(seen(await setup.resolve("pass:stevens", at: 10, offline: true)) == .answer(source: "c", route: "pass:{pass}", value: "c1", stale: false))
        #expect(seen(await setup.resolve("pass:white%20pass", offline: true))
                == .failure(kind: "notFound", message: "pass:white%20pass is not in the cache of a, b or c (--offline answers from the cache only)"))
        #expect(setup.servers.values.allSatisfy { $0.stats.totalRequests == 0 }, "--offline makes no request")
        #expect(setup.messages.all.allSatisfy { !$0.contains("trying") }, "a cache miss is no fallback: \(setup.messages.all)")
    }
}
