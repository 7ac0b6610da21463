import Foundation
import TestHarness
import LoopbackServer
import Testing

/// With keys set, no output, error, log line (at any verbosity) or cache file, name or
/// contents, ever holds them: on success, on every failure path, and from every command.
@Suite(.serialized) struct SecretsTests {
    static let accessCode = "wsdot-ACCESS-7c1e5a9d"
    static let clientSecret = "aeris-SECRET-3b8f2d6e"
    static let environment = ["WSDOT_ACCESS_CODE": accessCode, "AERIS_CLIENT_ID": "aeris-id-public", "AERIS_CLIENT_SECRET": clientSecret]
    static let verbosities: [(arguments: [String], environment: [String: String])] = [
        ([], [:]), (["-v"], [:]), (["-vv"], [:]), (["-vvv"], [:]), ([], ["CONDITIONS_LOG_LEVEL": "trace"]),
    ]

    /// Upstreams that answer, echo the secrets back in errors, fail, hang or redirect.
    static func upstream() throws -> LoopbackServer {
        let server = LoopbackServer()
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        let sunmoon = try Upstream.text("Plugins/Aeris/Tests/Resources/sunmoon.json")
        let phases = try Upstream.text("Plugins/Aeris/Tests/Resources/moonphases.json")
        server.route("/ok/GetMountainPassConditionsAsJson", .json(feed))
        server.route("/denied/GetMountainPassConditionsAsJson", .json(#"{"Message": "AccessCode \#(accessCode) is not valid"}"#))
        server.route("/forbidden/GetMountainPassConditionsAsJson", .text("bad code \(accessCode)", status: 403))
        server.route("/slow/GetMountainPassConditionsAsJson", LoopbackServer.Response.json(feed).with(.hangAfterHeaders))
        server.route("/garbage/GetMountainPassConditionsAsJson", .text("<html>\(accessCode)</html>", contentType: "text/html"))
        server.redirectChain(from: "/loop/GetMountainPassConditionsAsJson", hops: 8, to: "/ok/GetMountainPassConditionsAsJson")
        server.fallback { request in
            if request.path.hasPrefix("/aeris-ok/sunmoon/moonphases/") { return .json(phases) }
            if request.path.hasPrefix("/aeris-ok/sunmoon/") { return .json(sunmoon) }
            if request.path.hasPrefix("/aeris-echo/") {
                return .json(#"{"success": false, "error": {"code": "invalid_client", "description": "client_secret \#(clientSecret) rejected for \#(request.target)"}, "response": []}"#, status: 401)
            }
            if request.path.hasPrefix("/aeris-slow/") { return LoopbackServer.Response.json(sunmoon).with(.hangAfterHeaders) }
            return .text("no \(request.target)", status: 404)
        }
        try server.start()
        return server
    }

    static let behaviours = ["ok", "denied", "forbidden", "slow", "garbage", "loop"]
    static let aerisBehaviours = ["aeris-ok", "aeris-echo", "aeris-slow"]

    /// A config with one WSDOT API instance and one Aeris instance per upstream behaviour, and
    /// a profile per WSDOT behaviour routing `pass` to it (and `moon` to one of the Aeris ones).
    /// The instances that answer have a timeout no stall of a loaded machine reaches (the cache
    /// tests count on their answers); the others fail either way, the hanging ones in 0.5 s.
    static func config(_ server: LoopbackServer) throws -> URL {
        func timeout(_ name: String) -> Double { name.hasSuffix("ok") ? 30 : 0.5 }
        var sources: [String] = []
        var profiles: [String] = []
        for (index, name) in behaviours.enumerated() {
            sources.append(#""w-\#(name)": {"module": "WSDOT", "ttl": "5m", "http": {"timeout": \#(timeout(name)), "maxRedirects": 3}, "options": {"mode": "api", "baseURL": "\#(server.url("/\(name)").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#)
            profiles.append(#""\#(name)": {"routes": {"pass": "w-\#(name)", "moon": "\#(aerisBehaviours[index % aerisBehaviours.count])"}}"#)
        }
        for name in aerisBehaviours {
            sources.append(#""\#(name)": {"module": "Aeris", "ttl": "3h", "http": {"timeout": \#(timeout(name))}, "options": {"baseURL": "\#(server.url("/\(name)/").absoluteString)", "clientId": "${AERIS_CLIENT_ID}", "clientSecret": "${AERIS_CLIENT_SECRET}"}}"#)
        }
        return try Upstream.config(sources: sources.joined(separator: ", "), routes: #""pass": "w-ok", "moon": "aeris-ok""#,
                                   extra: #", "profiles": {\#(profiles.joined(separator: ", "))}"#)
    }

    // A secret typed into a URN is echoed as that URN, like any argument; it is not asked here.
    static let urns = ["pass:snoqualmie", "pass:all", "pass:nope", "moon:now", "moon:2015-04-14", "moon:%2e%2e"]

    func expectNoSecret(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in [Self.accessCode, Self.clientSecret] {
            #expect(!text.contains(secret), "\(context) shows \(secret)", sourceLocation: sourceLocation)
        }
    }

    @Test func noOutputErrorOrLogAtAnyVerbosityHoldsASecret() async throws {
        let server = try Self.upstream()
        defer { server.stop() }
        let dir = try Self.config(server)
        defer { try? FileManager.default.removeItem(at: dir) }
        for profile in Self.behaviours {
            for (arguments, extra) in Self.verbosities {
                let run = try await CLI.run(["--no-cache", "--profile", profile, "--format", "ndjson"] + arguments + Self.urns, in: dir,
                                      environment: Self.environment.merging(extra) { $1 })
                #expect(run.status == 1)
                expectNoSecret(run.stdout + run.stderr, "report --profile \(profile) \(arguments) \(extra)")
            }
            for format in ["text", "json", "csv"] {
                let run = try await CLI.run(["--no-cache", "--profile", profile, "--format", format, "-vvv"] + Self.urns, in: dir, environment: Self.environment)
                expectNoSecret(run.stdout + run.stderr, "report --profile \(profile) --format \(format)")
            }
        }
        // The upstreams did receive them, so the checks above had something to hide.
        #expect(server.requests.contains { $0.query?.contains("AccessCode=\(Self.accessCode)") == true })
        #expect(server.requests.contains { $0.query?.contains("client_secret=\(Self.clientSecret)") == true })
        // -vvv logged the requests it made.
        let traced = try await CLI.run(["--no-cache", "-vvv", "pass:white", "moon:now"], in: dir, environment: Self.environment)
        #expect(traced.stderr.contains("REDACTED"))
        expectNoSecret(traced.stderr, "trace")
    }

    @Test func noOtherCommandShowsASecret() async throws {
        let server = try Self.upstream()
        defer { server.stop() }
        let dir = try Self.config(server)
        defer { try? FileManager.default.removeItem(at: dir) }
        for command in [["routes"], ["routes", "--format", "json"], ["sources"], ["check"], ["-vvv", "check"],
                        ["watch", "--profile", "forbidden", "--count", "1", "--every", "1s", "-vvv", "pass:white", "moon:now"]] {
            let run = try await CLI.run(command, in: dir, environment: Self.environment)
            expectNoSecret(run.stdout + run.stderr, "\(command)")
        }
        // A config error next to a secret-bearing option.
        try #"{"location": {"latitude": 1, "longitude": 2}, "sources": {"w": {"module": "WSDOT", "options": {"mode": "api", "accessCode": "${WSDOT_ACCESS_CODE}", "baseURL": "ftp://x/${WSDOT_ACCESS_CODE}", "bogus": "${WSDOT_ACCESS_CODE}"}}}, "routes": {"pass": "w"}}"#
            .write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        for command in [["--config", "broken.json", "-vvv", "pass:white"], ["check", "--config", "broken.json"]] {
            let run = try await CLI.run(command, in: dir, environment: Self.environment)
            #expect(run.status == 2)
            expectNoSecret(run.stdout + run.stderr, "\(command)")
        }
    }

    @Test func cacheFileNamesAndContentsHoldNoSecret() async throws {
        let server = try Self.upstream()
        defer { server.stop() }
        let dir = try Self.config(server)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        let run = try await CLI.run(["--cache-dir", cache.path, "-vvv"] + Self.urns, in: dir, environment: Self.environment)
        expectNoSecret(run.stdout + run.stderr, "cached run")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count >= 3, "the successes were cached")
        for file in files {
            #expect(file.wholeMatch(of: /[0-9a-f]{32}\.json/) != nil, "\(file)")
            expectNoSecret(try String(contentsOf: cache.appendingPathComponent(file), encoding: .utf8), "cache file \(file)")
        }
        // A second run answers from the cache, logging hits, still without secrets.
        let again = try await CLI.run(["--cache-dir", cache.path, "-vvv", "pass:snoqualmie", "moon:now"], in: dir, environment: Self.environment)
        #expect(again.status == 0)
        expectNoSecret(again.stdout + again.stderr, "cache hits")
    }
}
