import Foundation
import TestHarness
import Testing

/// `conditions serve` runs the server in its own process: every option reaches it, and a bad
/// option or config is one line and exit 2 before anything listens.
@Suite struct ServeCommandTests {
    @Test func everyOptionReachesTheServer() async throws {
        let (upstream, dir) = try ServeTests.setUp(extra: #", "profiles": {"dash": {"serve": {"cors": ["https://dash.example"]}}}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let cacheDir = dir.appendingPathComponent("elsewhere").path
        let config = dir.appendingPathComponent("sources.json").path
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--token", ServeTests.token, "--config", config, "--profile", "dash",
                                                 "-vv", "--cache-dir", cacheDir, "--refresh"],
                                                in: dir, environment: ServeTests.environment) { server in
            // One program: `conditions` itself serves, with no other executable exec'd.
            let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.pid)/exe")
            #expect(exe == CLI.binary.resolvingSymlinksInPath().path, "the server is conditions itself: \(exe)")

            // The token arrived: loopback, yet anonymous requests are refused.
            #expect(try await server.request("/v1/urn/moon:now").status == 401)
            let bearer = ("Authorization", "Bearer \(ServeTests.token)")
            // The profile arrived: its CORS origin is allowed.
            let moon = try await server.request("/v1/urn/moon:now", headers: [bearer, ("Origin", "https://dash.example")])
            #expect(moon.status == 200)
            #expect(moon.header("Access-Control-Allow-Origin") == "https://dash.example")
            // The cache folder arrived: the pass's result is written there.
            #expect(try await server.request("/v1/urn/pass:snoqualmie", headers: [bearer]).status == 200)
            #expect(!((try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []).isEmpty, "the result is cached in --cache-dir")
        }
        #expect(ended.status == 0)
        // -vv arrived: request lines (info) and debug lines.
        #expect(ended.stderr.contains("GET /v1/urn/moon:now 200"))
        #expect(ended.stderr.contains("DEBUG "))
        #expect(ended.stderr.contains("GET /v1/urn/pass:snoqualmie 200"), "one log line per request")
        #expect(!ended.stderr.contains(ServeTests.token))
        #expect(!ended.stderr.contains(ServeTests.secret))
    }

    @Test func aCopiedBinaryServesTheDashboardAlone() async throws {
        // conditions alone in a folder, as if installed there: the dashboard's templates and
        // assets are compiled in, so / answers with nothing beside the executable.
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lonely = folder.appendingPathComponent("conditions")
        try FileManager.default.copyItem(at: CLI.binary, to: lonely)
        try #"{"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"}, "sources": {"astronomy": {"module": "Astronomy"}}, "routes": {"moon": "astronomy", "phases": "astronomy"}, "cache": {"enabled": false}, "report": ["moon:now"]}"#
            .write(to: folder.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: folder, binary: lonely) { server in
            let page = try await server.request("/")
            #expect(page.status == 200)
            #expect(page.body.contains("moon:now"))
            let css = try await server.request("/assets/dashboard.css")
            #expect(css.status == 200)
            #expect(css.header("Content-Type") == "text/css; charset=utf-8")
        }
        #expect(ended.status == 0)
    }

    @Test func badOptionsAndConfigsFailBeforeListening() async throws {
        let offlineRefresh = try await CLI.run(["serve", "--offline", "--refresh"])
        #expect(offlineRefresh.status == 2)
        #expect(offlineRefresh.stderrLines.count == 1)
        #expect(offlineRefresh.stderr.contains("--offline cannot be combined"))
        let missing = try await CLI.run(["serve", "--config", "/nonexistent/sources.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/sources.json"))
        let shortToken = try await CLI.run(["serve", "--token", "x", "--config", CLI.packageRoot.appendingPathComponent("sources.json").path])
        #expect(shortToken.status == 2)
        #expect(shortToken.stderrLines.count == 1)
        #expect(shortToken.stderr.contains("shorter than 16 characters"))
        #expect(!shortToken.stderr.contains("listening"))
    }

    @Test func helpShowsTheOptionsAndExamples() async throws {
        let help = try await CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        for text in ["--listen", "--token", "--no-auth", "--config", "--profile", "--cache-dir", "--no-cache", "Examples:", "conditions serve --listen 127.0.0.1:0 -v"] {
            #expect(help.stdout.contains(text), "\(text) in conditions serve --help")
        }
    }

    /// Every client is a descriptor: the server raises its soft limit to the hard one, so a
    /// soft limit of 256 does not cap it at ~250 connections.
    @Test func theOpenFilesLimitIsRaisedToTheHardLimit() async throws {
        let (upstream, dir) = try ServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: ServeTests.environment,
                                    launcher: ["/usr/bin/prlimit", "--nofile=256:4096"]) { server in
            let limits = try String(contentsOfFile: "/proc/\(server.pid)/limits", encoding: .utf8)
            let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            #expect(numbers == [4096, 4096], "\(line)")
            #expect(try await server.request("/healthz").status == 200)
        }
    }
}
