import ConditionsText
import Foundation
import TestHarness
import Testing

/// The dashboard over HTTP (no browser): which URNs it shows, its caching and security
/// headers, its assets, the card fragments the script fetches, its limits, and the
/// `"dashboard"` config object as `conditions check` validates it.
@Suite("Dashboard over HTTP")
struct DashboardTests {
    enum Timestamp {
        /// Now, as fixtures write `fetchedAt`.
        static func now() -> String {
            let formatter = ISO8601DateFormatter()
            return formatter.string(from: Date())
        }
    }

    @Test func pageAssetsAndHeaders() async throws {
        // Snoqualmie fetched just now, so the page may be answered again for its 10 s (the
        // shipped fixture's fetchedAt is days old: always due, a page of it is never kept, and
        // one rendered a minute later reads differently).
        let shipped = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Fixtures/pass/snoqualmie.json"), encoding: .utf8)
        let fresh = shipped.replacingOccurrences(of: #""fetchedAt":"[^"]*""#, with: "\"fetchedAt\":\"\(Timestamp.now())\"", options: .regularExpression)
        #expect(fresh != shipped)
        let dir = try DashboardSetup.fixtures(extraFixtures: ["pass/snoqualmie.json": fresh], extra: #", "report": ["pass:snoqualmie", "moon:now", "phases:5"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let page = try await server.request("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.body.hasPrefix("<!DOCTYPE html>"))
            // The report list by default, in order.
            let urns = page.body.components(separatedBy: "data-urn=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(urns == ["pass:snoqualmie", "moon:now", "phases:5"])
            #expect(page.body.contains("<title>Conditions</title>"))
            // The fixtures' TTL (2 min) is the shortest shown: the page without JS reloads then.
            #expect(page.body.contains(#"<noscript><meta http-equiv="refresh" content="120"></noscript>"#))
            #expect(!page.body.contains("src=\"http") && !page.body.contains("stylesheet\" href=\"http"), "nothing from elsewhere")
            _ = try #require(page.header("ETag"))
            #expect(page.header("Cache-Control") == "max-age=0")
            // The page made a moment ago is answered again (for up to 10 s, within the pass's
            // freshness): the same bytes, so a browser revalidating gets 304.
            let revalidated = try await Self.revalidation(of: page, "/", on: server)
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            // So is a page of local results only, though the moon is computed anew on every
            // resolution.
            let local = try await server.request("/?urn=moon:now&urn=phases:3")
            _ = try #require(local.header("ETag"))
            let again = try await Self.revalidation(of: local, "/?urn=moon:now&urn=phases:3", on: server)
            #expect(again.status == 304)
            #expect(again.body.isEmpty)

            // The assets: versioned links, a year's caching for the current version.
            let css = try #require(page.body.range(of: #"/assets/dashboard\.css\?v=[0-9a-f]{16}"#, options: .regularExpression).map { String(page.body[$0]) })
            let js = try #require(page.body.range(of: #"/assets/dashboard\.js\?v=[0-9a-f]{16}"#, options: .regularExpression).map { String(page.body[$0]) })
            let stylesheet = try await server.request(css)
            #expect(stylesheet.status == 200)
            #expect(stylesheet.header("Content-Type") == "text/css; charset=utf-8")
            #expect(stylesheet.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(stylesheet.body.contains("prefers-color-scheme: dark"))
            let script = try await server.request(js)
            #expect(script.status == 200)
            #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
            #expect(script.body.contains("EventSource"))
            let unversioned = try await server.request("/assets/dashboard.js")
            #expect(unversioned.header("Cache-Control") == "no-cache")
            let assetRevalidated = try await server.request("/assets/dashboard.js", headers: [("If-None-Match", try #require(script.header("ETag")))])
            #expect(assetRevalidated.status == 304)
            #expect(assetRevalidated.body.isEmpty)

            // `?urn=` replaces the list.
            let asked = try await server.request("/?urn=pass:white&urn=pass:chinook")
            #expect(asked.body.components(separatedBy: "data-urn=\"").count == 3)
            #expect(asked.body.contains(#"data-urn="pass:white""#) && asked.body.contains(#"data-status="closed""#))
            #expect(!asked.body.contains(#"data-urn="moon:now""#))
        }
    }

    /// `path` asked with the ETag of `first` while the page it got is still kept (10 s from when
    /// it was made, less when a result on it expires sooner). A pair too far apart on a loaded
    /// machine proves nothing either way, so fresh pairs are asked until one is 304, five at most.
    static func revalidation(of first: Reply, _ path: String, on server: some ServedHTTP) async throws -> Reply {
        // A server that keeps no page answers 200 every time.
        var first = first
        var reply = try await server.request(path, headers: [("If-None-Match", first.header("ETag") ?? "")])
        for _ in 0..<5 where reply.status != 304 {
            first = try await server.request(path)
            reply = try await server.request(path, headers: [("If-None-Match", first.header("ETag") ?? "")])
        }
        return reply
    }

    @Test func cardFragmentsAndLimits() async throws {
        let dir = try DashboardSetup.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let card = try await server.request("/card?urn=pass:chinook&id=card-pass-chinook-2")
            #expect(card.status == 200)
            #expect(card.body.hasPrefix(#"<article class="card card--pass tone-bad" id="card-pass-chinook-2" data-urn="pass:chinook""#))
            #expect(card.header("Cache-Control") == "no-store")
            #expect(card.body.contains("Pass Closed"))
            let failed = try await server.request("/card?urn=pass:nowhere")
            #expect(failed.status == 200, "a failed URN is a card like any other")
            #expect(failed.body.contains(#"class="card card--failed tone-bad" id="card-pass-nowhere""#))

            for path in ["/card", "/card?urn=pass:white&urn=pass:chinook", "/card?urn=pass:white&id=x%22%3E", "/card?urn=pass:white&id=card-UPPER"] {
                let reply = try await server.request(path)
                #expect(reply.status == 400, "\(path)")
                #expect(reply.body.split(separator: "\n").count == 1)
                #expect((reply.object["error"] as? [String: Any])?["kind"] as? String == "invalidRequest")
            }

            let tooMany = try await server.request("/?" + (0...100).map { _ in "urn=moon:now" }.joined(separator: "&"))
            #expect(tooMany.status == 400)
            #expect(tooMany.header("Content-Type") == "text/html; charset=utf-8")
            #expect(tooMany.body.contains("101 URNs; at most 100 per page"))
            #expect(tooMany.header("Cache-Control") == "no-store")
            let hundred = try await server.request("/?" + (0..<100).map { _ in "urn=pass:white" }.joined(separator: "&"))
            #expect(hundred.status == 200)
            #expect(hundred.body.contains(#"id="card-pass-white-100""#), "repeated URNs get distinct card ids")

            // Nothing configured and nothing asked: a page saying how to ask, not an empty one.
            let empty = try await server.request("/")
            #expect(empty.status == 200)
            #expect(empty.body.contains("Nothing to show"))
        }
    }

    @Test func dashboardObjectSetsTitleAndURNs() async throws {
        let dir = try DashboardSetup.fixtures(extra: #", "report": ["moon:now"], "dashboard": {"title": "Mountain passes tonight", "urns": ["pass:stevens", "pass:blewett"]}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        try await InProcessServer.with(in: dir) { server in
            let page = try await server.request("/")
            #expect(page.body.contains("<title>Mountain passes tonight</title>"))
            #expect(page.body.contains("<h1 dir=\"auto\"><bdi>Mountain passes tonight</bdi></h1>"))
            let urns = page.body.components(separatedBy: "data-urn=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(urns == ["pass:stevens", "pass:blewett"], "the dashboard's URNs, not the report list")
        }
    }

    @Test(arguments: [
        (#""dashboard": []"#, "dashboard: expected an object, found array"),
        (#""dashboard": {"title": 3}"#, "dashboard.title: expected a string, found number"),
        (#""dashboard": {"title": "  "}"#, "dashboard.title: empty"),
        (#""dashboard": {"title": "a\nb"}"#, "dashboard.title: contains a control character"),
        (#""dashboard": {"urns": "pass:stevens"}"#, "dashboard.urns: expected an array of strings, found string"),
        (#""dashboard": {"urns": ["pass:stevens", 4]}"#, "dashboard.urns[1]: expected a string, found number"),
        (#""dashboard": {"urns": []}"#, "dashboard.urns: empty"),
        (#""dashboard": {"urn": ["pass:stevens"]}"#, #"dashboard.urn (did you mean "urns"?)"#),
        (#""dashboard": {"urns": ["pass:stevens", "tides:seattle"]}"#, "dashboard.urns[1]:"),
        (#""dashboard": {"urns": ["pass:stevens", "pass::x"]}"#, "dashboard.urns[1]:"),
    ])
    func checkNamesEachProblem(object: String, message: String) async throws {
        let dir = try DashboardSetup.fixtures(extra: ", " + object)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr.contains(message), "\(check.stderr)")
        #expect(check.stderr.contains(dir.appendingPathComponent("sources.json").path), "the file is named")
        let serve = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { _ in
            if !message.hasPrefix("dashboard.urns[1]:") { Issue.record("served a config with \(object)") }
        }
        if !message.hasPrefix("dashboard.urns[1]:") {
            #expect(serve.status == 2, "serve refuses the config as check does")
        }
    }

    @Test func tooManyDashboardURNs() async throws {
        let urns = (0...100).map { "\"pass:p\($0)\"" }.joined(separator: ", ")
        let dir = try DashboardSetup.fixtures(extra: #", "dashboard": {"urns": [\#(urns)]}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr.contains("dashboard.urns: 101 URNs; at most 100"))
    }
}
