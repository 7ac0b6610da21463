import Foundation
import LoopbackServer
import TestHarness
import Testing

/// `conditions doctor` through the built binary, against loopback upstreams: one healthy and
/// one failing in each way (HTTP 500, refused, hanging, answering in a shape no longer read),
/// a module's need (a page renderer that is not there), the folders and the clock.
@Suite struct DoctorTests {
    static let feedPath = "/mobile/MountainPassConditions.json"

    /// A loopback server answering WSDOT's feed at `feedPath` with `response`.
    static func upstream(_ response: LoopbackServer.Response) throws -> LoopbackServer {
        let server = LoopbackServer()
        server.route(feedPath, response)
        try server.start()
        return server
    }

    static func feed(_ id: String, _ server: LoopbackServer) -> String {
        #""\#(id)": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\#(server.url("/mobile").absoluteString)"}}"#
    }

    @Test func aFailedFirstInstanceWithAWorkingFallbackIsAWarningAndExitsZero() async throws {
        let healthy = try Self.upstream(.json(try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json")))
        let failing = try Self.upstream(.text("down for maintenance", status: 500))
        defer { healthy.stop(); failing.stop() }
        let dir = try Upstream.config(sources: Self.feed("feed-down", failing) + ", " + Self.feed("feed-up", healthy),
                                      routes: #""pass": ["feed-down", "feed-up"], "moon": "astronomy""#,
                                      extra: #", "report": ["pass:snoqualmie", "moon:now"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["doctor"], in: dir, environment: ["HOME": dir.path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.stdoutLines
        #expect(lines.first == "conditions doctor: \(dir.appendingPathComponent("sources.json").path)")
        let down = try #require(lines.first { $0.contains("pass → feed-down") }, "\(run.stdout)")
        #expect(down.hasPrefix("FAIL") && down.contains("HTTP 500") && down.contains(failing.url(Self.feedPath).absoluteString), "\(down)")
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("pass → feed-up") && $0.contains("answered pass:snoqualmie in") }, "\(run.stdout)")
        let route = try #require(lines.first { $0.dropFirst(6).hasPrefix("route pass ") })
        #expect(route.hasPrefix("WARN") && route.contains("feed-down failed; the fallback feed-up answers"), "\(route)")
        #expect(lines.contains { $0.hasPrefix("ok") && $0.dropFirst(6).hasPrefix("route moon") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("cache folder") && $0.contains("\(dir.path)/.cache/conditions is writable") }, "\(run.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("history folder") })
        #expect(lines.contains { $0.contains("fix: the upstream failed or is unreachable") })
        #expect(lines.last == "Everything answers, with 1 warning.", "\(run.stdout)")
        #expect(failing.requestCount(Self.feedPath) >= 1 && healthy.requestCount(Self.feedPath) == 1, "one live request each, nothing cached")
    }

    @Test(.timeLimit(.minutes(2)))
    func aRouteWithNoWorkingInstanceNamesEachFailingUpstreamAndExitsNonZero() async throws {
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        let refusedPort = refused.port
        let hanging = try Self.upstream(.json("{}").with(.hangAfterHeaders))
        let moved = try Self.upstream(.text("<!DOCTYPE html><html><body>We moved the app data</body></html>", contentType: "text/html"))
        let erroring = try Self.upstream(.text("no", status: 503))
        defer { hanging.stop(); moved.stop(); erroring.stop() }
        let sources = [
            #""feed-refused": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "http://127.0.0.1:\#(refusedPort)/mobile"}}"#,
            Self.feed("feed-hanging", hanging), Self.feed("feed-moved", moved), Self.feed("feed-503", erroring),
            #""pages": {"module": "WSDOT", "options": {"render": ["/nonexistent/browser"], "baseURL": "http://127.0.0.1:\#(refusedPort)/passes"}}"#,
        ]
        let dir = try Upstream.config(sources: sources.joined(separator: ", "),
                                      routes: #""pass": ["feed-refused", "feed-hanging", "feed-moved", "feed-503", "pages"], "moon": "astronomy""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["doctor", "--timeout", "2"], in: dir, environment: ["HOME": dir.path], timeout: 90)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdoutLines
        func line(_ instance: String) -> String { lines.first { $0.contains("pass → \(instance)") } ?? "(no line for \(instance))" }
        #expect(line("feed-refused").hasPrefix("FAIL") && line("feed-refused").contains("127.0.0.1:\(refusedPort)"), "\(line("feed-refused"))")
        #expect(line("feed-hanging").hasPrefix("FAIL") && line("feed-hanging").contains("timed out"), "\(line("feed-hanging"))")
        #expect(line("feed-moved").hasPrefix("FAIL") && line("feed-moved").contains("not WSDOT's pass feed"), "\(line("feed-moved"))")
        #expect(line("feed-503").hasPrefix("FAIL") && line("feed-503").contains("HTTP 503"), "\(line("feed-503"))")
        #expect(line("pages").hasPrefix("FAIL") && line("pages").contains("/nonexistent/browser"), "\(line("pages"))")
        #expect(lines.contains { $0.hasPrefix("WARN") && $0.contains("sources.pages: page renderer") && $0.contains("cannot run /nonexistent/browser") }, "\(run.stdout)")
        let route = try #require(lines.first { $0.dropFirst(6).hasPrefix("route pass ") })
        #expect(route.hasPrefix("FAIL") && route.contains("no instance answers pass:"), "\(route)")
        #expect(lines.contains { $0.contains("fix: fix one of them (above), or route pass to another source") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.dropFirst(6).hasPrefix("route moon") }, "the moon still answers")
        #expect(lines.last == "Something does not work: see FAIL above.")
    }

    @Test func aClockFarFromTheUpstreamsIsAFailureWithItsFix() async throws {
        // The upstream's clock says ten minutes ago: ours is ten minutes ahead of it.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var response = LoopbackServer.Response.json(try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json"))
        response.headers["Date"] = formatter.string(from: Date().addingTimeInterval(-600))
        let skewed = try Self.upstream(response)
        defer { skewed.stop() }
        let dir = try Upstream.config(sources: Self.feed("feed", skewed), routes: #""pass": "feed""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["doctor"], in: dir, environment: ["HOME": dir.path])
        #expect(run.status == 1, "\(run.stdout)")
        let clock = try #require(run.stdoutLines.first { $0.contains("clock") })
        #expect(clock.hasPrefix("FAIL") && clock.contains("s ahead of 127.0.0.1"), "\(clock)")
        #expect(run.stdout.contains("fix: set the clock right"))
    }

    @Test func aBrokenConfigIsListedWithItsFixAndExitsTwo() async throws {
        let dir = try Upstream.config(sources: #""feed": {"module": "WSDOT", "options": {"mode": "fed"}}"#, routes: #""pass": "feed""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["doctor"], in: dir, environment: ["HOME": dir.path])
        #expect(run.status == 2)
        #expect(run.stdoutLines.contains { $0.hasPrefix("FAIL  config") && $0.contains("sources.feed.options.mode") }, "\(run.stdout)")
        #expect(run.stdout.contains("fix: edit the config; conditions check lists every problem"))
    }

    @Test func anUnwritableCacheFolderFails() async throws {
        let dir = try Upstream.config(sources: #""fixtures": {"module": "Fixtures", "options": {"directory": "\#(CLI.packageRoot.appendingPathComponent("Fixtures").path)"}}"#,
                                      routes: #""pass": "fixtures""#, extra: #", "report": ["pass:snoqualmie"], "cache": {"directory": "/proc/conditions-cache"}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["doctor"], in: dir, environment: ["HOME": dir.path])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("FAIL") && $0.contains("cache folder") && $0.contains("/proc/conditions-cache is not writable") }, "\(run.stdout)")
        #expect(run.stdoutLines.contains { $0.hasPrefix("ok") && $0.contains("sources.fixtures: recordings") })
        #expect(run.stdoutLines.contains { $0.hasPrefix("ok") && $0.contains("route pass") })
    }
}
