import Foundation
import TestHarness
import LoopbackServer
import Synchronization
import Testing

/// Issue-6 behaviour through the binary: cache, stale fallback, offline, concurrency, stdin,
/// CSV, templates and watch.
@Suite struct ScriptingTests {
    /// A WSDOT API-mode config against `server`, with the cache in its own folder.
    func apiConfig(_ server: LoopbackServer, ttl: String = "\"5m\"") throws -> (dir: URL, cache: String) {
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": \#(ttl), "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#,
            routes: #""pass": "wsdot""#)
        return (dir, dir.appendingPathComponent("cache").path)
    }

    static let feedPath = "/api/GetMountainPassConditionsAsJson"
    static let environment = ["WSDOT_ACCESS_CODE": "code-5ecret-77"]

    /// A started server answering the WSDOT feed with the winter fixture; the caller stops it.
    static func winterFeedServer() throws -> LoopbackServer {
        let server = LoopbackServer()
        server.route(feedPath, .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try server.start()
        return server
    }

    @Test func cacheHitsMakeNoRequestsAndFilesAreUserOnly() async throws {
        let server = try Self.winterFeedServer()
        defer { server.stop() }
        let (dir, cache) = try apiConfig(server)
        defer { try? FileManager.default.removeItem(at: dir) }

        let first = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "pass:snoqualmie", "pass:white"], in: dir, environment: Self.environment)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(server.stats.totalRequests == 1)
        let second = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "pass:snoqualmie", "pass:white"], in: dir, environment: Self.environment)
        #expect(second.status == 0)
        #expect(server.stats.totalRequests == 1, "answered from the cache")
        #expect(first.stdout == second.stdout)

        let refreshed = try await CLI.run(["--cache-dir", cache, "--refresh", "pass:snoqualmie"], in: dir, environment: Self.environment)
        #expect(refreshed.status == 0)
        #expect(server.stats.totalRequests == 2)

        // Folder 0700, files 0600, names that reveal nothing.
        let attributes = try FileManager.default.attributesOfItem(atPath: cache)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.count == 2)
        for file in files {
            #expect(!file.contains("snoqualmie") && !file.contains("5ecret") && !file.hasPrefix(".tmp"))
            let permissions = try FileManager.default.attributesOfItem(atPath: cache + "/" + file)[.posixPermissions] as? Int
            #expect(permissions.map { $0 & 0o777 } == 0o600)
            let contents = try String(contentsOfFile: cache + "/" + file, encoding: .utf8)
            #expect(!contents.contains("5ecret"))
        }
    }

    @Test func staleFallbackWhenTheUpstreamFails() async throws {
        let server = try Self.winterFeedServer()
        defer { server.stop() }
        let (dir, cache) = try apiConfig(server, ttl: "1")
        defer { try? FileManager.default.removeItem(at: dir) }

        #expect(try await CLI.run(["--cache-dir", cache, "pass:snoqualmie"], in: dir, environment: Self.environment).status == 0)
        try await Task.sleep(for: .milliseconds(1300))
        server.route(Self.feedPath, .text("down for maintenance", status: 503))
        let json = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "pass:snoqualmie", "pass:nope"], in: dir, environment: Self.environment)
        #expect(server.stats.totalRequests == 3, "the first fetch, then the 503 and its one retry")
        #expect(json.status == 1, "pass:nope still fails")
        let object = try Upstream.json(json.stdoutLines[0])
        #expect(object["stale"] as? Bool == true)
        #expect((object["age"] as? Int ?? 0) >= 1)
        #expect((object["data"] as? [String: Any])?["id"] as? String == "snoqualmie")
        let nope = try Upstream.json(json.stdoutLines[1])
        #expect((nope["error"] as? [String: Any])?["kind"] as? String == "notFound", "rejections never fall back")

        let text = try await CLI.run(["--cache-dir", cache, "pass:snoqualmie"], in: dir, environment: Self.environment)
        #expect(text.status == 0)
        #expect(text.stdout.contains("stale: upstream failed"))
        #expect(text.stderr.contains("using the cached result"))

        // With the server gone entirely, the same.
        server.stop()
        let down = try await CLI.run(["--cache-dir", cache, "--format", "ndjson", "pass:snoqualmie"], in: dir, environment: Self.environment)
        #expect(down.status == 0)
        #expect(try Upstream.json(down.stdout)["stale"] as? Bool == true)
    }

    @Test func offlineAnswersFromTheCacheOnly() async throws {
        let server = try Self.winterFeedServer()
        defer { server.stop() }
        let (dir, cache) = try apiConfig(server)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await CLI.run(["--cache-dir", cache, "pass:white"], in: dir, environment: Self.environment).status == 0)
        let offline = try await CLI.run(["--cache-dir", cache, "--offline", "--format", "ndjson", "pass:white", "pass:stevens"], in: dir, environment: Self.environment)
        #expect(server.stats.totalRequests == 1)
        #expect(offline.status == 1)
        #expect(try Upstream.json(offline.stdoutLines[0])["data"] != nil)
        let missing = try Upstream.json(offline.stdoutLines[1])["error"] as? [String: Any]
        #expect((missing?["message"] as? String)?.contains("not in the cache") == true)
    }

    @Test func corruptEntriesAreRefetchedAndConcurrentProcessesShareTheCache() async throws {
        let server = LoopbackServer()
        server.route(Self.feedPath, LoopbackServer.Response.json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")).delayed(0.05))
        try server.start()
        defer { server.stop() }
        let (dir, cache) = try apiConfig(server)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await CLI.run(["--cache-dir", cache, "pass:white"], in: dir, environment: Self.environment).status == 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: cache) {
            try "{\"truncated".write(toFile: cache + "/" + file, atomically: false, encoding: .utf8)
        }
        let repaired = try await CLI.run(["--cache-dir", cache, "pass:white"], in: dir, environment: Self.environment)
        #expect(repaired.status == 0)
        #expect(server.stats.totalRequests == 2, "the corrupt entry was ignored and refetched")

        // Eight processes refreshing the same entries at once: all succeed, every entry stays whole.
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let run = try? await CLI.run(["--cache-dir", cache, "--refresh", "pass:white", "pass:snoqualmie", "pass:stevens"], in: dir, environment: Self.environment)
                    return run?.status != 0
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.count == 3)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: cache + "/" + file))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(file) is whole JSON")
        }
    }

    @Test func urnsFromStandardInput() async throws {
        let input = """
        # morning passes
        pass:snoqualmie
          pass:stevens   # trailing comment

        moon:now
        """
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "ndjson", "-"], stdin: input)
        #expect(run.status == 0)
        #expect(try run.stdoutLines.map { try Upstream.json($0)["urn"] as? String } == ["pass:snoqualmie", "pass:stevens", "moon:now"])
        let empty = try await CLI.run(["--config", config, "-"], stdin: "# nothing\n")
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("no URNs on standard input"))
    }

    @Test func csvHasOneRowPerResultWithFlattenedData() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--format", "csv", "pass:blewett", "pass:nope"])
        #expect(run.status == 1)
        let lines = run.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 3)
        let header = lines[0].components(separatedBy: ",")
        #expect(Array(header.prefix(4)) == ["urn", "ok", "route", "source"])
        #expect(header.contains("data.restrictions.0.direction"))
        let direction = try #require(header.firstIndex(of: "data.restrictions.0.direction"))
        #expect(lines[1].hasPrefix("pass:blewett,true,pass:{name},fixtures,"))
        // Quoted cells keep their commas; count fields with a small RFC 4180 reader.
        let blewett = Self.csvFields(lines[1])
        #expect(blewett.count == header.count)
        #expect(blewett[direction] == "Northbound")
        #expect(lines[2].hasPrefix("pass:nope,false,"))
        #expect(lines[2].contains("notFound"))
    }

    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = [], current = "", quoted = false
        var iterator = Array(line).makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = iterator.next() { if next == "\"" { current.append("\"") } else { quoted = false; pending = next } } else { quoted = false }
                } else { current.append(c) }
            } else if c == "\"" { quoted = true }
            else if c == "," { fields.append(current); current = "" }
            else { current.append(c) }
        }
        fields.append(current)
        return fields
    }

    @Test func shippedTemplatesRender() async throws {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let morning = try await CLI.run(["--config", config, "--profile", "replay", "--template", "Templates/morning.mustache", "pass:snoqualmie", "moon:now", "phases:5", "pass:nope"])
        #expect(morning.status == 1)
        #expect(morning.stdout.hasPrefix("Conditions for Seattle"))
        #expect(morning.stdout.contains("* Snoqualmie Pass I-90: restricted"))
        #expect(morning.stdout.contains("* Moon: waxing gibbous"))
        #expect(morning.stdout.contains("* full moon: 2026-11-24T14:53:26Z"))
        #expect(morning.stdout.contains("* pass:nope: unavailable"))
        #expect(morning.stdout.contains("1 item(s) could not be fetched."))
        let table = try await CLI.run(["--config", config, "--profile", "replay", "--template", "Templates/passes-table.mustache", "pass:all"])
        #expect(table.status == 0)
        let rows = table.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") }
        #expect(rows.count == 2 + 15)
        #expect(rows.contains { $0.hasPrefix("| Chinook Pass SR 410 | closed |") })

        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let custom = dir.appendingPathComponent("one.mustache")
        try "{{#byURN.pass_white}}{{data.name}} is {{data.status}} & fine{{/byURN.pass_white}}".write(to: custom, atomically: true, encoding: .utf8)
        let byURN = try await CLI.run(["--config", config, "--profile", "replay", "--template", custom.path, "pass:white"])
        #expect(byURN.stdout == "White Pass US 12 is open & fine", "text templates are not HTML-escaped")
        let broken = dir.appendingPathComponent("broken.mustache")
        try "{{#results}}unclosed".write(to: broken, atomically: true, encoding: .utf8)
        let bad = try await CLI.run(["--config", config, "--template", broken.path, "pass:white"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("not a valid Mustache template"))
    }

    @Test func watchSeesAChangeAndRunsItsHook() async throws {
        let winter = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        // The second and later fetches report Snoqualmie closed both ways.
        let closed = winter.replacingOccurrences(
            of: #""RestrictionOne":{"RestrictionText":"Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW","TravelDirection":"Eastbound"},"RestrictionTwo":{"RestrictionText":"Traction tires advised, oversize vehicles prohibited.","TravelDirection":"Westbound"}"#,
            with: #""RestrictionOne":{"RestrictionText":"Pass Closed","TravelDirection":"Eastbound"},"RestrictionTwo":{"RestrictionText":"Pass Closed","TravelDirection":"Westbound"}"#)
        #expect(closed != winter)
        let server = LoopbackServer()
        let fetches = Mutex(0)
        server.route(Self.feedPath) { _ in
            let n = fetches.withLock { n in n += 1; return n }
            return .json(n == 1 ? winter : closed)
        }
        try server.start()
        defer { server.stop() }
        let (dir, _) = try apiConfig(server, ttl: "0")
        defer { try? FileManager.default.removeItem(at: dir) }
        let hook = dir.appendingPathComponent("hook.sh")
        let log = dir.appendingPathComponent("hook.log")
        try "#!/bin/sh\n{ echo \"$CONDITIONS_URN $CONDITIONS_PREVIOUS_STATUS -> $CONDITIONS_STATUS $1\"; cat; } >> \"\(log.path)\"\n"
            .write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)

        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "2", "--format", "ndjson", "--exec", hook.path, "--exec", "arg one", "pass:snoqualmie", "pass:white"],
                              in: dir, environment: Self.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdoutLines.map(Upstream.json)
        #expect(events.map { $0["event"] as? String } == ["initial", "initial", "change"])
        #expect(events[2]["urn"] as? String == "pass:snoqualmie")
        #expect(events[2]["before"] as? String == "restricted")
        #expect(events[2]["after"] as? String == "closed")
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(logged.hasPrefix("pass:snoqualmie restricted -> closed arg one\n"))
        #expect(logged.contains(#""event":"change""#))
        #expect(!logged.contains("pass:white"), "an unchanged URN runs no hook")
    }
}
