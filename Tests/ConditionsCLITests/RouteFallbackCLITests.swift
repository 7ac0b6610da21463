import Foundation
import TestHarness
import LoopbackServer
import Testing

/// Route fallback through the built binary (issue 24, item 3): WSDOT's API on a loopback server
/// answering 500, its pass pages on another answering, `"pass": ["wsdot-api", "wsdot-page"]`.
@Suite struct RouteFallbackCLITests {
    static let accessCode = "FALLBACK-literal-code-4d2c"

    /// The two upstreams (the API failing, the pages answering) and a config chaining them.
    static func setUp() throws -> (api: LoopbackServer, pages: LoopbackServer, dir: URL) {
        try Upstream.apiFailingBeforePages(accessCode: accessCode, apiTTL: "5m", pageTTL: "5m")
    }

    @Test func theSecondInstanceAnswersWhenTheFirstFailsUpstream() async throws {
        let (api, pages, dir) = try Self.setUp()
        defer { api.stop(); pages.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache").path

        let run = try await CLI.run(["--cache-dir", cache, "--format", "json", "pass:snoqualmie", "pass:nope"], in: dir)
        #expect(run.status == 1, "pass:nope fails: \(run.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(records.first?["source"] as? String == "wsdot-page")
        #expect(records.first?["route"] as? String == "pass:{name}")
        #expect((records.first?["data"] as? [String: Any])?["id"] as? String == "snoqualmie")
        // A pass neither knows: the API's own verdict (it cannot check its feed, so notFound), not the pages'.
        #expect((records.last?["error"] as? [String: Any])?["kind"] as? String == "notFound")
        #expect(pages.requestCount("/passes/nope") == 0)
        // One warning for the fallback, naming the instance and why.
        let warnings = run.stderrLines.filter { $0.contains("trying wsdot-page") }
        #expect(warnings.count == 1, "\(run.stderr)")
        #expect(warnings.first?.contains("pass:snoqualmie: wsdot-api failed (HTTP 500") == true, "\(run.stderr)")
        #expect(api.requests.contains { $0.query?.contains(Self.accessCode) == true }, "the API was asked, with its code")
        #expect(!(run.stdout + run.stderr).contains(Self.accessCode))

        // The page's answer is cached as the page's: no request goes to it again within its TTL.
        let again = try await CLI.run(["--cache-dir", cache, "--format", "json", "pass:snoqualmie"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let cached = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]])
        #expect(cached.first?["source"] as? String == "wsdot-page")
        #expect(pages.requestCount("/passes/snoqualmie") == 1)

        // Both failing, with nothing cached: one line naming each failure; the last one's kind.
        pages.route("/passes/stevens", .text("gone", status: 500))
        let failed = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "pass:stevens"], in: dir)
        #expect(failed.status == 1)
        let error = try #require(try Upstream.json(failed.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "http")
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("wsdot-api: HTTP 500 Internal Server Error from http://127.0.0.1:"), "\(message)")
        #expect(message.contains("; wsdot-page: HTTP 500 Internal Server Error from http://127.0.0.1:"), "\(message)")
        #expect(!message.contains(Self.accessCode) && message.contains("REDACTED"), "\(message)")
        #expect(!(failed.stdout + failed.stderr).contains(Self.accessCode))
    }

    /// The shipped chain, `["wsdot-feed", "wsdot-page"]`: the feed answers every pass in one
    /// request; when WSDOT changes it (a page where the feed was), the pages answer.
    @Test func theFeedAnswersFirstAndThePagesWhenWSDOTChangesTheFeed() async throws {
        let feed = LoopbackServer()
        feed.route("/mobile/MountainPassConditions.json", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json")))
        try feed.start()
        let pages = LoopbackServer()
        try Upstream.servePassPages(on: pages)
        try pages.start()
        defer { feed.stop(); pages.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot-feed": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\#(feed.url("/mobile").absoluteString)"}}, "#
                + #""wsdot-page": {"module": "WSDOT", "options": {"baseURL": "\#(pages.url("/passes").absoluteString)"}}"#,
            routes: #""pass": ["wsdot-feed", "wsdot-page"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }

        let live = try await CLI.run(["--no-cache", "--format", "json", "pass:all", "pass:snoqualmie", "pass:stevens"], in: dir)
        #expect(live.status == 0, "\(live.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(live.stdout.utf8)) as? [[String: Any]])
        #expect(records.map { $0["source"] as? String } == ["wsdot-feed", "wsdot-feed", "wsdot-feed"])
        #expect(((records[0]["data"] as? [String: Any])?["passes"] as? [Any])?.count == 16)
        #expect(feed.stats.totalRequests == 1, "one feed request for the whole run")
        #expect(pages.stats.totalRequests == 0)

        feed.route("/mobile/MountainPassConditions.json", .text("<!DOCTYPE html><html><body>We moved the app data</body></html>", contentType: "text/html"))
        let changed = try await CLI.run(["--no-cache", "--format", "json", "pass:snoqualmie"], in: dir)
        #expect(changed.status == 0, "\(changed.stderr)")
        let record = try #require((try JSONSerialization.jsonObject(with: Data(changed.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(record["source"] as? String == "wsdot-page")
        #expect(changed.stderr.contains("wsdot-feed failed (\(feed.url("/mobile/MountainPassConditions.json").absoluteString): not WSDOT's pass feed: the body is HTML"), "\(changed.stderr)")
    }

    /// `conditions mcp`: `resolve` answers from the page, `routes` lists the chain.
    @Test func theMCPServerFallsBackAndListsTheChain() async throws {
        let (api, pages, dir) = try Self.setUp()
        defer { api.stop(); pages.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await MCPSession.run(
            ["mcp", "--cache-dir", dir.appendingPathComponent("cache").path],
            first: [#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#],
            then: [
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["pass:white"]}}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"routes"}}"#,
            ],
            afterReplyTo: 1, in: dir, timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let (replies, _) = try MCPServerTests.replies(run)
        let resolved = (replies[2]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
        let result = (resolved?["results"] as? [[String: Any]])?.first
        #expect(result?["source"] as? String == "wsdot-page", "\(replies[2] ?? [:])")
        #expect((result?["data"] as? [String: Any])?["id"] as? String == "white")
        let listed = (replies[3]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
        let all = (listed?["routes"] as? [[String: Any]])?.first { $0["pattern"] as? String == "pass:all" }
        #expect((all?["chain"] as? [[String: String]])?.map { $0["source"] } == ["wsdot-api", "wsdot-page"])
        let text = ((replies[3]?["result"] as? [String: Any])?["content"] as? [[String: Any]])?.first?["text"] as? String
        #expect(text?.contains("wsdot-api → wsdot-page") == true, "\(text ?? "")")
        #expect(run.stderr.contains("pass:white: wsdot-api failed (HTTP 500"), "\(run.stderr)")
        #expect(!(run.stdout + run.stderr).contains(Self.accessCode))
    }

    @Test func routesSourcesAndCheckShowTheChain() async throws {
        let (api, pages, dir) = try Self.setUp()
        defer { api.stop(); pages.stop(); try? FileManager.default.removeItem(at: dir) }

        let routes = try await CLI.run(["routes"], in: dir)
        #expect(routes.status == 0, "\(routes.stderr)")
        let pass = routes.stdoutLines.filter { $0.hasPrefix("pass:") }
        #expect(pass.count == 2)
        #expect(pass.allSatisfy { $0.contains("wsdot-api → wsdot-page") && $0.contains("WSDOT → WSDOT") }, "\(routes.stdout)")

        let json = try await CLI.run(["routes", "--format", "json"], in: dir)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let all = try #require(rows.first { $0["pattern"] as? String == "pass:all" })
        #expect(all["source"] as? String == "wsdot-api")
        #expect((all["chain"] as? [[String: String]]) == [["source": "wsdot-api", "module": "WSDOT"], ["source": "wsdot-page", "module": "WSDOT"]])
        let moon = try #require(rows.first { $0["pattern"] as? String == "moon:now" })
        #expect((moon["chain"] as? [[String: String]]) == [["source": "astronomy", "module": "Astronomy"]])

        let csv = try await CLI.run(["routes", "--format", "csv"], in: dir)
        #expect(csv.stdout.contains("\r\npass:all,wsdot-api wsdot-page,WSDOT WSDOT,pass:all\r\n"), "\(csv.stdout)")

        let sources = try await CLI.run(["sources"], in: dir)
        #expect(sources.stdoutLines.contains { $0.contains("wsdot-page") && $0.hasSuffix("pass (fallback 1)") }, "\(sources.stdout)")

        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains(": 3 sources, 4 routes (2 with fallbacks), 0 report URNs"), "\(check.stdout)")

        for command in [["routes"], ["routes", "--format", "json"], ["sources"], ["check"]] {
            let output = try await CLI.run(command, in: dir)
            #expect(!(output.stdout + output.stderr).contains(Self.accessCode), "\(command)")
        }
    }

    @Test func checkNamesEveryBrokenChainByItsPath() async throws {
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT"}, "fixtures": {"module": "Fixtures", "options": {"directory": "\#(CLI.packageRoot.appendingPathComponent("Fixtures").path)"}}"#,
            routes: #""pass": ["wsdot", "wsdt", "wsdot"], "moon": ["fixtures", "astronomy", 7], "phases": []"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr.contains(#"sources.json: routes.pass[1]: no source instance "wsdt" (did you mean "wsdot"?); defined: wsdot, fixtures, astronomy"#), "\(check.stderr)")
        #expect(check.stderr.contains(#"routes.pass[2]: "wsdot" is already in the chain at routes.pass[0]"#), "\(check.stderr)")
        #expect(check.stderr.contains("routes.moon[2]: expected a source instance id (string), found number"), "\(check.stderr)")
        #expect(check.stderr.contains("routes.phases: empty"), "\(check.stderr)")

        // An instance of a chain that serves nothing of the scheme.
        let wrong = try Upstream.config(sources: #""wsdot": {"module": "WSDOT"}"#, routes: #""pass": ["wsdot", "astronomy"]"#)
        defer { try? FileManager.default.removeItem(at: wrong) }
        let serves = try await CLI.run(["check"], in: wrong)
        #expect(serves.status == 2)
        #expect(serves.stderr.contains(#"routes.pass[1]: source "astronomy" (module Astronomy) serves no pass: URNs"#), "\(serves.stderr)")
    }
}
