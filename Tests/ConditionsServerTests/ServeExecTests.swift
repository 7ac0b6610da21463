import Foundation
import TestHarness
import Testing

/// `conditions serve` checks its options and config, then execs `conditions-serve` with every
/// option but the token, which travels in the environment so no process listing shows it.
@Suite struct ServeExecTests {
    static let serveBinary = CLI.binary.deletingLastPathComponent().appendingPathComponent("conditions-serve")

    @Test func everyOptionReachesTheServerAndTheTokenOnlyThroughTheEnvironment() async throws {
        let (upstream, dir) = try ServeTests.setUp(extra: #", "profiles": {"dash": {"serve": {"cors": ["https://dash.example"]}}}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let cacheDir = dir.appendingPathComponent("elsewhere").path
        let config = dir.appendingPathComponent("sources.json").path
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--token", ServeTests.token, "--config", config, "--profile", "dash",
                                                 "-vv", "--cache-dir", cacheDir, "--refresh"],
                                                in: dir, environment: ServeTests.environment) { server in
            let argv = try String(contentsOfFile: "/proc/\(server.pid)/cmdline", encoding: .utf8).split(separator: "\0").map(String.init)
            #expect(argv == ["conditions-serve", "--config=\(config)", "--profile=dash", "-vv", "--listen=127.0.0.1:0", "--refresh", "--cache-dir=\(cacheDir)"])
            let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.pid)/exe")
            #expect(exe.hasSuffix("/conditions-serve"), "conditions serve became conditions-serve: \(exe)")
            // What any user on the machine can see.
            let listing = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/ps"), ["-eo", "pid,args"], in: dir, environment: ["PATH": "/usr/bin:/bin"], timeout: 30)
            #expect(listing.stdout.contains("\(server.pid) conditions-serve --config="))
            #expect(!listing.stdout.contains(ServeTests.token))

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
        #expect(!ended.stderr.contains(ServeTests.token))
    }

    @Test func aMissingServerProgramIsOneLine() async throws {
        // conditions alone in a folder, as if installed without its sibling.
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lonely = folder.appendingPathComponent("conditions")
        try FileManager.default.copyItem(at: CLI.binary, to: lonely)
        let run = try await CLI.runProgram(lonely, ["serve", "--config", CLI.packageRoot.appendingPathComponent("sources.json").path, "--listen", "127.0.0.1:0"],
                                           in: folder, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], timeout: 60)
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("conditions: serve: cannot run \(folder.path)/conditions-serve: No such file or directory"), "\(run.stderr)")
    }

    @Test func badOptionsAndConfigsFailBeforeTheExec() async throws {
        let offlineRefresh = try await CLI.run(["serve", "--offline", "--refresh"])
        #expect(offlineRefresh.status == 2)
        #expect(offlineRefresh.stderrLines.count == 1)
        #expect(offlineRefresh.stderr.contains("--offline cannot be combined"))
        let missing = try await CLI.run(["serve", "--config", "/nonexistent/sources.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/sources.json"))
        // The server program run by hand: the same one-line usage errors.
        let direct = try await CLI.runProgram(Self.serveBinary, ["--token", "x"], in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(direct.status == 2)
        #expect(direct.stderrLines.count == 1)
        #expect(direct.stderr.contains("--token"))
    }

    @Test func helpShowsTheOptionsAndExamples() async throws {
        let help = try await CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        for text in ["--listen", "--token", "--no-auth", "--config", "--profile", "--cache-dir", "--no-cache", "Examples:", "conditions serve --listen 127.0.0.1:0 -v"] {
            #expect(help.stdout.contains(text), "\(text) in conditions serve --help")
        }
    }

    /// Both programs declare the options (the CLI for help and checking, the server to run);
    /// ArgumentParser's description of each must agree, the token excepted.
    @Test func bothProgramsTakeTheSameOptions() async throws {
        func options(_ command: [String: Any]) -> Set<String> {
            var names = Set<String>()
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for name in argument["names"] as? [[String: Any]] ?? [] {
                    if let text = name["name"] as? String { names.insert((name["kind"] as? String == "long" ? "--" : "-") + text) }
                }
            }
            return names.subtracting(["--help", "-h", "--version"])
        }
        let cli = try await CLI.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
        let serve = try #require(((root["command"] as? [String: Any])?["subcommands"] as? [[String: Any]])?.first { $0["commandName"] as? String == "serve" })
        let server = try await CLI.runProgram(Self.serveBinary, ["--experimental-dump-help"], in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        let serverRoot = try #require(try JSONSerialization.jsonObject(with: Data(server.stdout.utf8)) as? [String: Any])
        let cliOptions = options(serve), serverOptions = options(try #require(serverRoot["command"] as? [String: Any]))
        #expect(cliOptions.contains("--listen") && cliOptions.contains("--cache-dir"))
        #expect(cliOptions.subtracting(["--token"]) == serverOptions)
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
