import Foundation
import LoopbackServer
import TestHarness
import Testing

/// Issue 40 through the built binary: a proxy that refuses is named, with the variable that
/// chose it, by a fetch's error and by `conditions doctor` (its finding and its fix), and
/// `no_proxy` reaches the upstream directly.
@Suite struct ProxyCLITests {
    @Test func aRefusingProxyIsNamedWithItsVariableAndNoProxyGoesAroundIt() async throws {
        let upstream = LoopbackServer()
        upstream.route(DoctorTests.feedPath, .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json")))
        try upstream.start()
        defer { upstream.stop() }
        let refused = try LoopbackServer.RefusedPort()
        defer { withExtendedLifetime(refused) {} }
        let proxy = "127.0.0.1:\(refused.port)"
        let dir = try Upstream.config(sources: DoctorTests.feed("feed", upstream), routes: #""pass": "feed""#, extra: #", "report": ["pass:snoqualmie"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        var environment = ["HOME": dir.path, "http_proxy": "http://user:hunter2@\(proxy)"]
        let named = "the proxy \(proxy) (from http_proxy) refused the connection"

        let fetch = try await CLI.run(["--no-cache", "pass:snoqualmie"], in: dir, environment: environment)
        #expect(fetch.status != 0, "\(fetch.stdout)")
        #expect(fetch.stderr.contains(named), "\(fetch.stderr)")
        #expect(!fetch.stderr.contains("connection refused by"), "\(fetch.stderr)")
        #expect(!fetch.stderr.contains("hunter2") && !fetch.stdout.contains("hunter2"))
        let json = try await CLI.run(["--no-cache", "--format", "ndjson", "pass:snoqualmie"], in: dir, environment: environment)
        let error = try #require(try Upstream.json(json.stdout)["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["kind"] as? String == "network")
        #expect((error["message"] as? String)?.contains(named) == true, "\(error)")

        let doctor = try await CLI.run(["doctor"], in: dir, environment: environment)
        #expect(doctor.status == 1, "\(doctor.stdout)\(doctor.stderr)")
        let lines = doctor.stdoutLines
        let finding = try #require(lines.firstIndex { $0.contains("pass → feed") }, "\(doctor.stdout)")
        #expect(lines[finding].hasPrefix("FAIL") && lines[finding].contains(named), "\(lines[finding])")
        let fix = lines.dropFirst(finding + 1).first ?? ""
        #expect(fix.contains("fix: start the proxy at \(proxy), or unset http_proxy, or add 127.0.0.1 to no_proxy"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("hunter2"))
        #expect(upstream.stats.totalRequests == 0, "nothing reached the upstream past the proxy")

        environment["no_proxy"] = "localhost,127.0.0.1"
        let direct = try await CLI.run(["--no-cache", "--format", "ndjson", "pass:snoqualmie"], in: dir, environment: environment)
        #expect(direct.status == 0, "\(direct.stdout)\(direct.stderr)")
        #expect((try Upstream.json(direct.stdout)["data"] as? [String: Any])?["id"] as? String == "snoqualmie", "\(direct.stdout)")
        let healthy = try await CLI.run(["doctor"], in: dir, environment: environment)
        #expect(healthy.status == 0, "\(healthy.stdout)\(healthy.stderr)")
        #expect(healthy.stdoutLines.contains { $0.hasPrefix("ok") && $0.contains("pass → feed") }, "\(healthy.stdout)")
    }
}
