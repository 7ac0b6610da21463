import AsyncHTTPClient
import Foundation
import TestHarness
import LoopbackServer
import NIOCore
import NIOHTTP1
import Testing

/// `conditions serve` over real HTTP with a loopback upstream standing in for WSDOT's API: what
/// the API answers with the server in this process (`InProcessServer`), and through the built
/// binary what only a process shows (its refusal to start, stderr, sockets closed by timeout,
/// signals).
@Suite struct ServeTests {
    static let secret = "ACCESS-5e4d3c2b1a09"
    static let token = "serve-token-0123456789abcdef"

    /// An upstream serving WSDOT's API feed and a config routing `pass:` to it in API mode
    /// (`pass:all` is one request) and `moon:` to the local astronomy source. The default
    /// timeout is one no stall of a loaded machine reaches: a fetch that answers is never cut.
    static func setUp(extra: String = "", timeout: Double = 30, ttl: Int = 300, cache: String = #""cache": {"directory": "cache"}"#) throws -> (LoopbackServer, URL) {
        let upstream = LoopbackServer()
        upstream.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try upstream.start()
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\#(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}, "http": {"timeout": \#(timeout)}, "ttl": \#(ttl)}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#,
            extra: ", " + cache + extra)
        return (upstream, dir)
    }

    static let environment = ["WSDOT_ACCESS_CODE": secret]

    @Test func everyEndpointAnswersAndStatusFollowsTheErrorKind() async throws {
        // `--refresh` and no disk cache, so no URN shares the feed another fetched
        // (FeedModeServeTests covers that) and each upstream fault below meets a fetch of its own. The answering fetches share
        // the source's timeout, so it is one no stall of a loaded machine reaches; it only
        // lengthens the hang below.
        let (upstream, dir) = try Self.setUp(timeout: 10, cache: #""cache": {"enabled": false}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment, refresh: true) { server in
            let pass = try await server.request("/v1/urn/pass:snoqualmie")
            #expect(pass.status == 200)
            #expect(pass.object["urn"] as? String == "pass:snoqualmie")
            #expect(pass.object["source"] as? String == "wsdot")
            #expect((pass.object["data"] as? [String: Any])?["status"] as? String == "restricted")
            #expect(pass.header("Content-Type") == "application/json")

            let moon = try await server.request("/v1/urn/moon:now")
            #expect(moon.status == 200)
            #expect(moon.header("Cache-Control") == "max-age=0", "a local source has no TTL")

            let missing = try await server.request("/v1/urn/pass:nope")
            #expect(missing.status == 404)
            #expect((missing.object["error"] as? [String: Any])?["kind"] as? String == "notFound")
            #expect(missing.header("Cache-Control") == "no-store")

            let invalid = try await server.request("/v1/urn/pass::x")
            #expect(invalid.status == 400)

            // The upstream refuses: an HTTP error upstream is a bad gateway.
            upstream.route("/api/GetMountainPassConditionsAsJson", .text("denied", status: 403))
            let refused = try await server.request("/v1/urn/pass:white")
            #expect(refused.status == 502)
            #expect(!refused.body.contains(Self.secret))

            // The upstream hangs: the source's timeout (10 s) answers 504. Then it answers again,
            // so the hang is waited out once.
            let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
            upstream.route("/api/GetMountainPassConditionsAsJson", .json(feed).with(.hangAfterHeaders))
            let hung = try await server.request("/v1/urn/pass:stevens")
            #expect(hung.status == 504)
            upstream.route("/api/GetMountainPassConditionsAsJson", .json(feed))

            let many = try await server.request("/v1/resolve?urn=pass:snoqualmie&urn=moon:now&urn=pass:nope")
            #expect(many.status == 200)
            let array = try #require(many.json as? [[String: Any]])
            #expect(array.map { $0["urn"] as? String } == ["pass:snoqualmie", "moon:now", "pass:nope"])
            #expect(many.header("Cache-Control") == "no-store", "a failed URN inside makes the whole answer uncacheable")

            let posted = try await server.request("/v1/resolve", method: .POST, headers: [("Accept", "application/x-ndjson")], body: #"["moon:now", "pass:snoqualmie"]"#)
            #expect(posted.status == 200)
            #expect(posted.header("Content-Type") == "application/x-ndjson")
            let lines = posted.body.split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.first?.contains(#""urn":"moon:now""#) == true)

            let routes = try await server.request("/v1/routes")
            #expect(routes.status == 200)
            #expect((routes.json as? [[String: Any]])?.contains { $0["pattern"] as? String == "pass:{name}" } == true)

            let sources = try await server.request("/v1/sources")
            #expect(sources.status == 200)
            #expect((sources.object["instances"] as? [[String: Any]])?.map { $0["id"] as? String }.contains("wsdot") == true)

            #expect(try await server.request("/healthz").status == 200)
            #expect(try await server.request("/readyz").status == 200)
            let metrics = try await server.request("/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.body.contains("conditions_http_requests_total"))
            #expect(metrics.body.contains(#"conditions_upstream_fetches_total{source="wsdot"}"#))

            let unknown = try await server.request("/nowhere")
            #expect(unknown.status == 404)
            #expect(unknown.body.split(separator: "\n").count == 1)

            for reply in [pass, missing, refused, hung, many, posted, routes, sources, metrics] {
                #expect(!reply.body.contains(Self.secret))
            }
        }
    }

    @Test func cachingHeadersAndConditionalRequests() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment) { server in
            let beforeFetch = ContinuousClock.now
            let first = try await server.request("/v1/urn/pass:snoqualmie")
            #expect(first.status == 200)
            let problem = first.maxAgeProblem(ttl: 300, fetchedAfter: beforeFetch)
            #expect(problem == nil, "the WSDOT TTL is 300 s: \(problem ?? "")")
            let etag = try #require(first.header("ETag"))
            #expect(first.header("Last-Modified")?.hasSuffix(" GMT") == true)

            let again = try await server.request("/v1/urn/pass:snoqualmie", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == etag)

            let changed = try await server.request("/v1/urn/pass:snoqualmie", headers: [("If-None-Match", "\"other\"")])
            #expect(changed.status == 200)
            #expect(upstream.stats.totalRequests == 1, "within the TTL no request goes upstream")
        }
    }

    @Test func concurrentColdClientsCauseOneUpstreamRequest() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        // The upstream answers slowly, so every client arrives while the first fetch is in flight.
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        upstream.route("/api/GetMountainPassConditionsAsJson", .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(feed.utf8), delay: 0.5))
        try await InProcessServer.with(in: dir, environment: Self.environment) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1000 { group.addTask { try await server.request("/v1/urn/pass:all").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 1000 && statuses.allSatisfy { $0 == 200 })
            #expect(upstream.stats.totalRequests == 1)
            let metrics = try await server.request("/metrics")
            #expect(metrics.body.contains("conditions_coalesced_requests_total") )
        }
    }

    @Test func offLoopbackNeedsAToken() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let refused = try await ServeProcess.with(["--listen", "0.0.0.0:0"], in: dir, environment: Self.environment) { _ in
            Issue.record("started without a token off loopback")
        }
        #expect(refused.status == 2)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("needs a token"))

        try await InProcessServer.with(in: dir, environment: Self.environment.merging(["CONDITIONS_SERVE_TOKEN": Self.token]) { $1 },
                                       listen: "0.0.0.0:0") { server in
            let anonymous = try await server.request("/v1/urn/moon:now")
            #expect(anonymous.status == 401)
            #expect((anonymous.object["error"] as? [String: Any])?["kind"] as? String == "unauthorized")
            let wrong = try await server.request("/v1/urn/moon:now", headers: [("Authorization", "Bearer nope")])
            #expect(wrong.status == 401)
            let right = try await server.request("/v1/urn/moon:now", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(right.status == 200)
            #expect(try await server.request("/healthz").status == 200, "health stays open")
            let metrics = try await server.request("/metrics", headers: [("Authorization", "Bearer \(Self.token)")])
            #expect(!metrics.body.contains(Self.token))
        }

        let open = try await ServeProcess.with(["--listen", "0.0.0.0:0", "--no-auth"], in: dir, environment: Self.environment) { server in
            let status = try await server.request("/v1/urn/moon:now").status
            #expect(status == 200)
        }
        #expect(open.stderr.contains("warning: --no-auth"))
    }

    @Test func limitsAnswerOneLineErrors() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment) { server in
            let tooMany = try await server.request("/v1/resolve?" + (0...100).map { _ in "urn=moon:now" }.joined(separator: "&"))
            #expect(tooMany.status == 400)
            #expect((tooMany.object["error"] as? [String: Any])?["kind"] as? String == "tooManyURNs")
            let longURL = try await server.request("/v1/urn/moon:" + String(repeating: "x", count: 9000))
            #expect(longURL.status == 414)
            let bigBody = try await server.request("/v1/resolve", method: .POST, body: "[" + String(repeating: "\"moon:now\",", count: 7000) + "\"moon:now\"]")
            #expect(bigBody.status == 413)
            let notArray = try await server.request("/v1/resolve", method: .POST, body: #"{"urn": "moon:now"}"#)
            #expect(notArray.status == 400)
            let none = try await server.request("/v1/resolve")
            #expect(none.status == 400)
            for reply in [tooMany, longURL, bigBody, notArray, none] {
                #expect(reply.body.split(separator: "\n").count == 1)
                #expect(reply.header("Cache-Control") == "no-store")
            }
        }
    }

    @Test func serveSettingsComeFromTheConfig() async throws {
        let (upstream, dir) = try Self.setUp(extra: #", "serve": {"listen": "127.0.0.1:0", "token": "${MY_SERVE_TOKEN}", "cors": ["https://dash.example"]}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment.merging(["MY_SERVE_TOKEN": Self.token]) { $1 }, listen: nil) { server in
            #expect(try await server.request("/v1/urn/moon:now").status == 401)
            let allowed = try await server.request("/v1/urn/moon:now", headers: [("Authorization", "Bearer \(Self.token)"), ("Origin", "https://dash.example")])
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://dash.example")
            let other = try await server.request("/v1/urn/moon:now", headers: [("Authorization", "Bearer \(Self.token)"), ("Origin", "https://evil.example")])
            #expect(other.header("Access-Control-Allow-Origin") == nil)
        }
        // Without CORS configured, no CORS header at all.
        let (upstream2, plain) = try Self.setUp()
        defer { upstream2.stop(); try? FileManager.default.removeItem(at: plain) }
        try await InProcessServer.with(in: plain, environment: Self.environment) { server in
            let reply = try await server.request("/v1/urn/moon:now", headers: [("Origin", "https://dash.example")])
            #expect(reply.header("Access-Control-Allow-Origin") == nil)
        }
        // A malformed "serve" object is a configuration error.
        let (upstream3, bad) = try Self.setUp(extra: #", "serve": {"listen": "nowhere", "tokn": "x"}"#)
        defer { upstream3.stop(); try? FileManager.default.removeItem(at: bad) }
        let check = try await CLI.run(["check"], in: bad)
        #expect(check.status == 2)
        #expect(check.stderr.contains("serve.listen"))
        #expect(check.stderr.contains("serve.tokn"))
    }

    /// `"serve": {"idleTimeout": "1s"}`: a connection that never sends a request, one that stops
    /// in the middle of its request head, and one left idle after an answer are closed by the
    /// server no sooner than that second after their last activity, and not never (the
    /// default, 30 s, would outlast the 20 s wait); a bad value is a configuration error.
    @Test func idleAndSlowClientsAreClosed() async throws {
        let (upstream, dir) = try Self.setUp(extra: #", "serve": {"idleTimeout": "1s"}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: Self.environment) { server in
            // Each instant is taken before the connection's last activity, so a stall in this
            // test only lengthens what it measures (`idleCloseProblem`).
            let silentSince = ContinuousClock.now
            let silent = try await RawConnection.open(port: server.port)
            let halfHeadSince = ContinuousClock.now
            let halfHead = try await RawConnection.open(port: server.port)
            try? await halfHead.write("GET /v1/urn/moon:now HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            // A kept answer: computing one can outlast the 1 s idle timeout on a loaded machine,
            // and the server is right to close a connection whose answer it is still making.
            #expect(try await server.request("/v1/urn/pass:snoqualmie").status == 200)
            let (answered, answeredSince) = try await Self.answeredConnection(port: server.port, path: "/v1/urn/pass:snoqualmie")
            for (name, connection, since) in [("silent", silent, silentSince), ("half a request head", halfHead, halfHeadSince),
                                              ("idle after an answer", answered, answeredSince)] {
                let problem = try await connection.idleCloseProblem(since: since, idleTimeout: .seconds(1))
                #expect(problem == nil, "\(name): \(problem ?? "")")
                connection.close()
            }
        }
        for (value, problem) in [("0", "serve.idleTimeout: 0.0 s is outside 1 s…3600 s"), (#""soon""#, "serve.idleTimeout: expected a duration")] {
            let (upstream, bad) = try Self.setUp(extra: #", "serve": {"idleTimeout": \#(value)}"#)
            defer { upstream.stop(); try? FileManager.default.removeItem(at: bad) }
            let check = try await CLI.run(["check"], in: bad)
            #expect(check.status == 2)
            #expect(check.stderr.contains(problem), "\(check.stderr)")
        }
    }

    /// The check above fails a server that closes an answered connection early: the same
    /// server in process with its idle timeout set, below anything the config accepts, to
    /// 300 ms while the check expects 5 s. A stall in this test cannot hide the fault unless
    /// it lasts over 4.7 s, since the close is timed where it happens (on the event loop).
    @Test func idleCheckCatchesAnEarlyClose() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment, adjust: { $0.idleTimeout = .milliseconds(300) }) { server in
            // A first answer (computing moon:now) can take longer than 300 ms on a loaded
            // machine, and the idle timer closes the connection while it waits: warm the
            // answer first, so the connections below are answered from the server's cache.
            for _ in 0..<20 {
                let warm = try await RawConnection.open(port: server.port)
                let status = try? await warm.exchange([RawConnection.get("/v1/urn/moon:now")]).first?.status
                warm.close()
                if status == 200 { break }
            }
            let (answered, since) = try await Self.answeredConnection(port: server.port)
            let problem = try await answered.idleCloseProblem(since: since, idleTimeout: .seconds(5))
            #expect(problem?.contains("before the 5.0 s idle timeout") == true, "\(problem ?? "no problem found")")
            answered.close()
        }
    }

    /// A connection whose request `moon:now` was answered, and the instant taken before that
    /// request was written. On a loaded machine the test may stall past the idle timeout
    /// between connecting and writing; the server is then right to have closed the connection,
    /// so another is tried.
    static func answeredConnection(port: Int, path: String = "/v1/urn/moon:now") async throws -> (RawConnection, ContinuousClock.Instant) {
        for _ in 0..<20 {
            let connection = try await RawConnection.open(port: port)
            let since = ContinuousClock.now
            if let status = try? await connection.exchange([RawConnection.get(path)]).first?.status {
                #expect(status == 200)
                return (connection, since)
            }
            connection.close()
        }
        throw NoAnswer()
    }

    struct NoAnswer: Error, CustomStringConvertible {
        var description: String { "no request was answered in 20 connections" }
    }

    @Test func eventsStreamInitialThenChange() async throws {
        // A 1 s TTL and no disk cache: each poll asks the upstream, and a failure is a new state.
        let (upstream, dir) = try Self.setUp(ttl: 1, cache: #""cache": {"enabled": false}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: Self.environment) { server in
            let request = HTTPClientRequest(url: server.base + "/v1/events?urn=pass:snoqualmie&every=1")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "Content-Type") == "text/event-stream")
            var text = ""
            var sawInitial = false
            var sawChange = false
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if !sawInitial, text.contains("event: initial") {
                    sawInitial = true
                    #expect(text.contains(#""after":"restricted""#))
                    upstream.route("/api/GetMountainPassConditionsAsJson", .text("denied", status: 403))
                }
                if text.contains("event: change") {
                    sawChange = true
                    #expect(text.contains(#""before":"restricted""#))
                    #expect(text.contains(#""after":"error: http""#))
                    break
                }
            }
            #expect(sawInitial && sawChange)
            #expect(!text.contains(Self.secret))
        }
    }

    /// A client that goes away costs nothing afterwards: its stream ends as soon as its FIN
    /// arrives (not at a failed heartbeat write, 15–30 s later: the bound of 10 s tells them
    /// apart), and the URN's poller, which had no other client, stops asking the upstream. The
    /// TTL is 1 s, so a poller left running would fetch again within the 3.5 s watched at the end.
    @Test func aClientThatDisconnectsCostsNothingAfterwards() async throws {
        let (upstream, dir) = try Self.setUp(ttl: 1, cache: #""cache": {"enabled": false}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: Self.environment) { server in
            let client = try await RawConnection.open(port: server.port)
            try await client.write(RawConnection.get("/v1/events?urn=pass:snoqualmie"))
            #expect(try await client.read(until: "event: initial", within: 30))
            #expect(try await MemoryBoundTests.metric("conditions_sse_clients", in: server) == 1)
            client.close()
            // Looked at once more after the deadline has passed: a stall in this test (in the
            // sleep, say) cannot end the wait on a value read before it.
            var clients = 1.0
            let deadline = ContinuousClock.now + .seconds(120)
            while clients > 0 {
                let expired = ContinuousClock.now >= deadline  // wall-clock-ok: a hang guard: the count drops once the close arrives; 2 min only end a hang
                clients = try await MemoryBoundTests.metric("conditions_sse_clients", in: server)
                if clients == 0 || expired { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(clients == 0, "the gone client is still counted")
            let fetches = upstream.stats.totalRequests
            try await Task.sleep(for: .milliseconds(3500))
            // One fetch already on its way when the client left may still arrive; a poller left
            // running would make three or more.
            #expect(upstream.stats.totalRequests <= fetches + 1, "the poller kept asking the upstream after its only client left")
        }
    }

    @Test func sigtermDrainsAndExitsZero() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        // A slow upstream keeps a request in flight while SIGTERM arrives.
        upstream.route("/api/GetMountainPassConditionsAsJson", .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(feed.utf8), delay: 1))
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: Self.environment) { server in
            async let slow = server.request("/v1/urn/pass:snoqualmie")
            // Wait until the server has the request (the upstream has seen its fetch), then stop it.
            let deadline = ContinuousClock.now + .seconds(120)
            while upstream.stats.totalRequests == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }  // wall-clock-ok: a hang guard: the fetch starts at once; 2 min only end a hang
            try server.execution.send(signal: .terminate)
            #expect(try await slow.status == 200, "the request in flight finishes")
        }
        #expect(ended.status == 0)
    }
}
