import Foundation
import TestHarness
import LoopbackServer
import Testing

/// Live-source reports through the built binary, the real libcurl client and a loopback server.
@Suite struct NetworkReportTests {
    @Test func wsdotHTMLModeWithAPartlyFailingReport() async throws {
        let server = LoopbackServer()
        try Upstream.servePassPages(on: server)
        server.route("/passes/stevens", .text("upstream broke", status: 503))
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)"}}"#,
                                      routes: #""pass": "wsdot", "moon": "astronomy""#)
        defer { try? FileManager.default.removeItem(at: dir) }

        let run = try await CLI.run(["--no-cache", "--format", "ndjson", "--now", "2026-11-21T14:00:00Z", "pass:snoqualmie", "pass:stevens", "pass:blewett", "moon:now"], in: dir)
        #expect(run.status == 1)
        let objects = try run.stdoutLines.map(Upstream.json)
        #expect(objects.map { $0["urn"] as? String } == ["pass:snoqualmie", "pass:stevens", "pass:blewett", "moon:now"])
        let snoqualmie = try #require(objects[0]["data"] as? [String: Any])
        #expect(snoqualmie["id"] as? String == "snoqualmie")
        #expect(["open", "restricted", "closed"].contains(snoqualmie["status"] as? String ?? ""))
        #expect((snoqualmie["url"] as? String)?.hasPrefix(server.url("/passes/snoqualmie").absoluteString) == true)
        let stevens = try #require(objects[1]["error"] as? [String: Any])
        #expect(stevens["kind"] as? String == "http")
        #expect((stevens["message"] as? String)?.contains("HTTP 503") == true)
        let blewett = try #require(objects[2]["data"] as? [String: Any])
        let directions = (blewett["restrictions"] as? [[String: Any]])?.map { $0["direction"] as? String }
        #expect(directions == ["Northbound", "Southbound"])
        #expect(objects[3]["data"] != nil)
        // The User-Agent names the tool.
        #expect(server.requests.first?.headers["user-agent"]?.hasPrefix("conditions/") == true)
    }

    @Test func wsdotHTMLModePassAllFetchesEveryPageOnce() async throws {
        let server = LoopbackServer()
        try Upstream.servePassPages(on: server)
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)"}}"#,
                                      routes: #""pass": "wsdot""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--format", "json", "pass:all"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let passes = try #require((array.first?["data"] as? [String: Any])?["passes"] as? [[String: Any]])
        // The built-in catalog is in WSDOT id order.
        let catalogOrder = ["blewett", "cayuse", "chinook", "crystal-greenwater", "mt-baker", "north-cascade", "satus", "sherman",
                            "stevens", "snoqualmie", "white", "manastash", "loup-loup", "disautel", "wauconda", "tiger-mountain"]
        #expect(passes.compactMap { $0["id"] as? String } == catalogOrder)
        #expect(server.stats.totalRequests == 16)
        #expect(server.stats.maxConcurrentConnections <= 6)

        // The configured list restricts and orders pass:all.
        let chosen = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)", "passes": ["white", "snoqualmie", "stevens"]}}"#,
            routes: #""pass": "wsdot""#)
        defer { try? FileManager.default.removeItem(at: chosen) }
        let ordered = try await CLI.run(["--no-cache", "--format", "json", "pass:all"], in: chosen)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(ordered.stdout.utf8)) as? [[String: Any]])
        let ids = ((list.first?["data"] as? [String: Any])?["passes"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == ["white", "snoqualmie", "stevens"])
    }

    @Test func wsdotAPIModeAnswersEveryPassWithOneRequestAndHidesTheAccessCode() async throws {
        let server = LoopbackServer()
        server.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#,
            routes: #""pass": "wsdot""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "ACCESS-9f8e7d6c5b4a"
        let run = try await CLI.run(["--no-cache", "-vvv", "--format", "ndjson", "pass:all", "pass:snoqualmie", "pass:blewett", "pass:nope"], in: dir,
                              environment: ["WSDOT_ACCESS_CODE": secret])
        #expect(run.status == 1)
        #expect(server.stats.totalRequests == 1, "every pass from one feed request")
        #expect(server.requests.first?.query?.contains("AccessCode=\(secret)") == true)
        let objects = try run.stdoutLines.map(Upstream.json)
        let passes = try #require((objects[0]["data"] as? [String: Any])?["passes"] as? [[String: Any]])
        #expect(passes.count == 15)
        #expect((objects[1]["data"] as? [String: Any])?["status"] as? String == "restricted")
        let nope = try #require(objects[3]["error"] as? [String: Any])
        #expect(nope["kind"] as? String == "notFound")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))

        // An error naming the feed URL masks the code too.
        server.route("/api/GetMountainPassConditionsAsJson", .text("denied", status: 403))
        let denied = try await CLI.run(["--no-cache", "-vvv", "pass:white"], in: dir, environment: ["WSDOT_ACCESS_CODE": secret])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("HTTP 403"))
        #expect(!denied.stderr.contains(secret) && !denied.stdout.contains(secret))
    }

    @Test func aerisMoonAndPhasesNeverShowTheSecret() async throws {
        let server = LoopbackServer()
        let sunmoon = try Upstream.text("Plugins/Aeris/Tests/Resources/sunmoon.json")
        let phases = try Upstream.text("Plugins/Aeris/Tests/Resources/moonphases.json")
        server.fallback { request in
            if request.path.hasPrefix("/sunmoon/moonphases/") { return .json(phases) }
            if request.path.hasPrefix("/sunmoon/") { return .json(sunmoon) }
            return .text("no", status: 404)
        }
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""aeris": {"module": "Aeris", "options": {"baseURL": "\#(server.url("").absoluteString)", "clientId": "${AERIS_CLIENT_ID}", "clientSecret": "${AERIS_CLIENT_SECRET}"}}"#,
            routes: #""moon": "aeris", "phases": "aeris""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let secret = "s3cr3t-VALUE-0123"
        let environment = ["AERIS_CLIENT_ID": "client-abc", "AERIS_CLIENT_SECRET": secret]
        let run = try await CLI.run(["--no-cache", "-vvv", "--format", "ndjson", "--now", "2015-04-13T22:00:13Z", "moon:now", "phases:4"], in: dir, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.stdoutLines.map(Upstream.json)
        let moon = try #require(objects[0]["data"] as? [String: Any])
        #expect(moon["phase"] as? String == "waning crescent")
        #expect(moon["illumination"] as? Double == 31)
        let list = try #require((objects[1]["data"] as? [String: Any])?["phases"] as? [[String: Any]])
        #expect(list.first?["name"] as? String == "new moon")
        #expect(list.count == 4)
        #expect(server.requests.allSatisfy { $0.query?.contains("client_secret=\(secret)") == true })
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret))

        // A rejected key: a clear error, still no secret anywhere (even when Aeris echoes it).
        server.fallback { _ in .json(#"{"success": false, "error": {"code": "invalid_client", "description": "bad client_secret \#(secret)"}, "response": []}"#, status: 401) }
        let rejected = try await CLI.run(["--no-cache", "-vvv", "moon:now"], in: dir, environment: environment)
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("401"))
        #expect(!rejected.stderr.contains(secret) && !rejected.stdout.contains(secret))
    }

    @Test func slowUpstreamTimesOutForItsURNOnly() async throws {
        let server = LoopbackServer()
        try Upstream.servePassPages(on: server)
        // An hour: the pause ends when the client goes, and a run that ends by itself with the
        // 5 s timeout's error did not wait for it (no wall-clock bound: load stalls a run 20 s).
        server.route("/passes/white", LoopbackServer.Response.text("late").delayed(3600))
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"baseURL": "\#(server.url("/passes").absoluteString)"}, "http": {"timeout": 5}}"#,
            routes: #""pass": "wsdot""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Snoqualmie's page has the same 5 s, which no stall of a loaded machine reaches.
        let run = try await CLI.run(["--no-cache", "pass:white", "pass:snoqualmie"], in: dir, timeout: 90)
        #expect(run.status == 1)
        #expect(run.stderr.contains("pass:white: timeout: timed out after 5 s"))
        #expect(run.stdout.contains("Snoqualmie"))
    }
}
