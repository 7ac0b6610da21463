import Foundation
import LoopbackServer
import TestHarness
import Testing

/// The system unit docs/server.md gives for `conditions serve`: systemd accepts it, and its
/// command line, run with the environment the unit gives it, serves with the token required
/// and caches where the unit's cache directory is.
@Suite struct SystemdUnitTests {
    static let heading = "```ini\n# /etc/systemd/system/conditions.service\n"

    /// The unit's text, from the documentation itself.
    static func documentedUnit() throws -> String {
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let start = try #require(doc.range(of: heading), "docs/server.md has no \(heading)")
        let end = try #require(doc[start.upperBound...].range(of: "```"))
        return String(doc[start.upperBound..<end.lowerBound])
    }

    /// `Key=value` settings in order, comments and section headers left out.
    static func settings(_ unit: String) -> [(key: String, value: String)] {
        unit.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    @Test func theDocumentedUnitVerifiesAndItsCommandServes() async throws {
        let unit = try Self.documentedUnit()
        let settings = Self.settings(unit)
        func value(_ key: String) -> String? { settings.last { $0.key == key }?.value }
        #expect(value("DynamicUser") == "yes")
        #expect(value("StateDirectory") == "conditions")
        #expect(value("CacheDirectory") == "conditions")
        let environmentFile = try #require(value("EnvironmentFile"))
        let command = try #require(value("ExecStart")).split(separator: " ").map(String.init)
        #expect(Array(command.prefix(2)) == ["/usr/local/bin/conditions", "serve"], "scripts/dev install's path")

        // systemd's own check, with the paths of this machine.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = "unit-token-0123456789abcdef0123"
        let envFile = dir.appendingPathComponent("serve.env")
        try "# written by the administrator\nCONDITIONS_SERVE_TOKEN=\(token)\n".write(to: envFile, atomically: true, encoding: .utf8)
        let local = unit.replacingOccurrences(of: "/usr/local/bin/conditions", with: CLI.binary.path)
            .replacingOccurrences(of: environmentFile, with: envFile.path)
        let unitFile = dir.appendingPathComponent("conditions.service")
        try local.write(to: unitFile, atomically: true, encoding: .utf8)
        let verify = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", unitFile.path], in: dir,
                                              environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!verify.stderr.contains("conditions.service"), "\(verify.stderr)")

        // The command line as systemd runs it: the unit's Environment= with %S and %C (the
        // state and cache roots) expanded, and the environment file's variables.
        let stateRoot = dir.appendingPathComponent("lib"), cacheRoot = dir.appendingPathComponent("cache")
        for made in [stateRoot, cacheRoot] {
            // What StateDirectory= and CacheDirectory= make before the start.
            try FileManager.default.createDirectory(at: made.appendingPathComponent("conditions"), withIntermediateDirectories: true)
        }
        var environment = ["WSDOT_ACCESS_CODE": ServeTests.secret]
        for assignment in (value("Environment") ?? "").split(separator: " ") {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1].replacingOccurrences(of: "%S", with: stateRoot.path).replacingOccurrences(of: "%C", with: cacheRoot.path)
        }
        for line in try String(contentsOf: envFile, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts[1]
        }
        #expect(environment["XDG_CACHE_HOME"] == cacheRoot.path)

        let upstream = LoopbackServer()
        upstream.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try upstream.start()
        defer { upstream.stop() }
        let configured = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\#(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}, "ttl": 300}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#)
        defer { try? FileManager.default.removeItem(at: configured) }
        // The unit's options, but a free port: "0.0.0.0:8080" may be taken on this machine.
        let arguments = command.dropFirst(2).map { argument in
            argument == "/etc/conditions/sources.json" ? configured.appendingPathComponent("sources.json").path
                : argument == "0.0.0.0:8080" ? "0.0.0.0:0" : argument
        }
        #expect(arguments.contains("0.0.0.0:0"), "the unit listens off loopback, so the token is required")
        let ended = try await ServeProcess.with(arguments, in: dir, environment: environment) { server in
            #expect(try await server.request("/v1/urn/pass:snoqualmie").status == 401)
            let pass = try await server.request("/v1/urn/pass:snoqualmie", headers: [("Authorization", "Bearer \(token)")])
            #expect(pass.status == 200)
            let cached = (try? FileManager.default.subpathsOfDirectory(atPath: cacheRoot.appendingPathComponent("conditions").path)) ?? []
            #expect(!cached.isEmpty, "the result is cached in the unit's CacheDirectory")
        }
        // systemd stops a service with SIGTERM: the server drains and exits 0.
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(!ended.stderr.contains(token))
    }

    /// The fleet's template unit (docs/server.md, "A fleet"): systemd accepts an instance of it,
    /// and each replica gets a state folder (its history spool) and a cache of its own.
    @Test func theDocumentedFleetUnitVerifies() async throws {
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/server.md"), encoding: .utf8)
        let heading = "```ini\n# /etc/systemd/system/conditions@.service\n"
        let start = try #require(doc.range(of: heading), "docs/server.md has no \(heading)")
        let end = try #require(doc[start.upperBound...].range(of: "```"))
        let unit = String(doc[start.upperBound..<end.lowerBound])
        let settings = Self.settings(unit)
        func value(_ key: String) -> String? { settings.last { $0.key == key }?.value }
        #expect(value("StateDirectory") == "conditions-%i")
        #expect(value("CacheDirectory") == "conditions-%i")
        #expect(value("Environment") == "XDG_STATE_HOME=%S/conditions-%i XDG_CACHE_HOME=%C/conditions-%i")
        #expect(value("ExecStart")?.hasSuffix("--listen 127.0.0.1:%i") == true)
        let environmentFile = try #require(value("EnvironmentFile"))

        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let envFile = dir.appendingPathComponent("fleet.env")
        try "CONDITIONS_DB_PASSWORD=secret\n".write(to: envFile, atomically: true, encoding: .utf8)
        let local = unit.replacingOccurrences(of: "/usr/local/bin/conditions", with: CLI.binary.path)
            .replacingOccurrences(of: environmentFile, with: envFile.path)
        // systemd-analyze verifies an instance: the template under an instance's name.
        let unitFile = dir.appendingPathComponent("conditions@8081.service")
        try local.write(to: unitFile, atomically: true, encoding: .utf8)
        let verify = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", unitFile.path], in: dir,
                                              environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(!verify.stderr.contains("conditions@"), "\(verify.stderr)")
    }
}
