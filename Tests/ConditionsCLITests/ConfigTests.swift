import Foundation
import TestHarness
import Testing

/// sources.json errors and lookup, through the built binary: exit code 2 and one line per problem.
@Suite struct ConfigTests {
    let fixtures = CLI.packageRoot.appendingPathComponent("Fixtures").path

    /// Writes `json` as sources.json in a new folder and returns the folder.
    func folder(with json: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try json.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    func minimal(directory: String? = nil, extra: String = "") -> String {
        """
        {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331},
         "sources": {"fixtures": {"module": "Fixtures", "options": {"directory": "\(directory ?? fixtures)"}}},
         "routes": {"pass": "fixtures", "moon": "fixtures"}\(extra)}
        """
    }

    @Test func invalidJSONNamesFileLineAndColumn() async throws {
        let dir = try folder(with: "{\n  \"location\": {\"latitude\": 1, \"longitude\": 2},\n  \"routes\": {,}\n}")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["pass:white"], in: dir)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("sources.json:3:14: invalid JSON"))
    }

    @Test func unknownModuleSuggestsTheClosest() async throws {
        let dir = try folder(with: """
        {"location": {"latitude": 1, "longitude": 2},
         "sources": {"f": {"module": "Fixture"}}, "routes": {"pass": "f"}}
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["pass:white"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("sources.f.module: unknown module \"Fixture\" (did you mean \"Fixtures\"?)"))
    }

    @Test func routeToMissingInstance() async throws {
        let dir = try folder(with: minimal(extra: #", "profiles": {"p": {"routes": {"moon": "astronmy"}}}"#))
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--profile", "p", "pass:white"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("routes.moon: no source instance \"astronmy\""))
    }

    @Test func checkReportsEveryProblemAtOnce() async throws {
        let dir = try folder(with: """
        {"location": {"latitude": 123, "longitude": 2},
         "sources": {"f": {"module": "Fixtures", "options": {"directory": "\(fixtures)", "dir": 1}},
                     "g": {"module": "Nope"}},
         "routes": {"pass": "f", "moon": "missing", "Bad Scheme": "f"},
         "reprot": []}
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["check"], in: dir)
        #expect(run.status == 2)
        let text = run.stderr
        #expect(text.contains("reprot: unknown key (did you mean \"report\"?)"))
        #expect(text.contains("location.latitude: 123"))
        #expect(text.contains("sources.g.module: unknown module \"Nope\""))
        #expect(text.contains("routes.moon: no source instance \"missing\""))
        #expect(text.contains("routes.Bad Scheme"))
        #expect(run.stderrLines.count >= 5)
        #expect(run.stderrLines.allSatisfy { $0.hasPrefix("conditions: ") })
    }

    @Test func moduleOptionsAreValidatedWithTheirPath() async throws {
        let dir = try folder(with: """
        {"location": {"latitude": 1, "longitude": 2},
         "sources": {"f": {"module": "Fixtures", "options": {"directory": "\(fixtures)", "directroy": "x"}}},
         "routes": {"pass": "f"}}
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["check"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown option sources.f.options.directroy (did you mean \"directory\"?)"))
        let typed = try folder(with: """
        {"location": {"latitude": 1, "longitude": 2},
         "sources": {"f": {"module": "Fixtures", "options": {"directory": 7}}}, "routes": {"pass": "f"}}
        """)
        defer { try? FileManager.default.removeItem(at: typed) }
        let typedRun = try await CLI.run(["check"], in: typed)
        #expect(typedRun.status == 2)
        #expect(typedRun.stderr.contains("sources.f.options.directory: expected a string, found number"))
    }

    @Test func environmentInterpolationAndMissingVariables() async throws {
        let dir = try folder(with: """
        {"location": {"latitude": 1, "longitude": 2},
         "sources": {"f": {"module": "Fixtures", "options": {"directory": "${FIXTURE_DIR}"}},
                     "unused": {"module": "Fixtures", "options": {"directory": "${NOT_SET_ANYWHERE}"}}},
         "routes": {"pass": "f"}}
        """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ok = try await CLI.run(["--format", "ndjson", "pass:white"], in: dir, environment: ["FIXTURE_DIR": fixtures])
        #expect(ok.status == 0, "an unrouted source may reference unset variables: \(ok.stderr)")
        #expect(ok.stdout.contains("\"White Pass US 12\""))
        let missing = try await CLI.run(["pass:white"], in: dir)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("sources.f.options.directory: environment variable FIXTURE_DIR is not set"))
        #expect(!missing.stderr.contains("NOT_SET_ANYWHERE"))
    }

    @Test func anUnroutedBrokenSourceFailsCheckButNotAReport() async throws {
        let dir = try folder(with: minimal(extra: "").replacingOccurrences(
            of: #""sources": {"#, with: #""sources": {"spare": {"module": "Fixtures", "options": {"directory": 5}}, "#))
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try await CLI.run(["pass:white"], in: dir)
        #expect(report.status == 0, "an instance no scheme routes to answers nothing: \(report.stderr)")
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.status == 2)
        #expect(check.stderr.contains("sources.spare.options.directory: expected a string, found number"))
    }

    @Test func lookupOrderAndRelativePaths() async throws {
        // Relative "directory" resolves against the config's folder, not the working directory.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Data").path, withDestinationPath: fixtures)
        try minimal(directory: "Data").write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let elsewhere = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: elsewhere) }

        let viaEnvironment = try await CLI.run(["pass:white"], in: elsewhere, environment: ["CONDITIONS_CONFIG": dir.appendingPathComponent("sources.json").path])
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.stderr)")
        let viaWorkingDirectory = try await CLI.run(["pass:white"], in: dir)
        #expect(viaWorkingDirectory.status == 0)
        // --config beats $CONDITIONS_CONFIG.
        let broken = elsewhere.appendingPathComponent("broken.json")
        try "{".write(to: broken, atomically: true, encoding: .utf8)
        let explicit = try await CLI.run(["--config", broken.path, "pass:white"], in: elsewhere, environment: ["CONDITIONS_CONFIG": dir.appendingPathComponent("sources.json").path])
        #expect(explicit.status == 2)
        #expect(explicit.stderr.contains("broken.json:1:2"))
        // XDG config home comes after the working folder.
        let xdg = elsewhere.appendingPathComponent("xdg/conditions")
        try FileManager.default.createDirectory(at: xdg, withIntermediateDirectories: true)
        try minimal().write(to: xdg.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let viaXDG = try await CLI.run(["pass:white"], in: elsewhere, environment: ["XDG_CONFIG_HOME": elsewhere.appendingPathComponent("xdg").path])
        #expect(viaXDG.status == 0, "\(viaXDG.stderr)")
        #expect(try await CLI.run(["config", "path"], in: elsewhere, environment: ["XDG_CONFIG_HOME": elsewhere.appendingPathComponent("xdg").path]).stdout
                == xdg.appendingPathComponent("sources.json").path + "\n")
        // Nothing anywhere: the built-in default answers (a local URN; no network here).
        let nowhere = try await CLI.run(["--format", "ndjson", "moon:now"], in: elsewhere)
        #expect(nowhere.status == 0, "\(nowhere.stderr)")
        #expect(nowhere.stdout.contains(#""source":"astronomy""#))
        #expect(try await CLI.run(["config", "path"], in: elsewhere).stdout == "built-in\n")
        // A --config or $CONDITIONS_CONFIG that names nothing is an error, never the default.
        let missing = try await CLI.run(["moon:now"], in: elsewhere, environment: ["CONDITIONS_CONFIG": "nope.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "conditions: CONDITIONS_CONFIG: nope.json: no such file\n")
        // A folder is not a config file; a link to a file is followed.
        try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent("folder.json"), withIntermediateDirectories: true)
        let folder = try await CLI.run(["--config", "folder.json", "moon:now"], in: elsewhere)
        #expect(folder.status == 2)
        #expect(folder.stderr == "conditions: --config: folder.json is a folder, not a file\n", "\(folder.stderr)")
        try FileManager.default.createSymbolicLink(at: elsewhere.appendingPathComponent("link.json"), withDestinationURL: xdg.appendingPathComponent("sources.json"))
        let linked = try await CLI.run(["--config", "link.json", "pass:white"], in: elsewhere)
        #expect(linked.status == 0, "\(linked.stderr)")
    }

    @Test func profilesFromFlagOrEnvironment() async throws {
        let dir = try folder(with: minimal(extra: #", "profiles": {"moonless": {"routes": {"moon": "nowhere"}}, "empty": {}}"#))
        defer { try? FileManager.default.removeItem(at: dir) }
        let unknown = try await CLI.run(["--profile", "bogus", "pass:white"], in: dir)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown profile \"bogus\"; known: moonless, empty"))
        let fromEnvironment = try await CLI.run(["pass:white"], in: dir, environment: ["CONDITIONS_PROFILE": "moonless"])
        #expect(fromEnvironment.status == 2)
        #expect(fromEnvironment.stderr.contains("routes.moon: no source instance \"nowhere\""))
        let flagWins = try await CLI.run(["--profile", "empty", "pass:white"], in: dir, environment: ["CONDITIONS_PROFILE": "moonless"])
        #expect(flagWins.status == 0)
    }

    @Test func noURNsAndNoReportIsAUsageError() async throws {
        let dir = try folder(with: minimal())
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run([], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.contains("no URNs given"))
    }

    @Test func configShowAppliesTheProfileAndMasksALiteralSecret() async throws {
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "accessCode": "literal-code-7f3a"}}, "nws": {"module": "NWS"}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#,
            extra: #", "serve": {"token": "literal-token-91c2"}, "profiles": {"night": {"routes": {"moon": "astronomy", "forecast": "nws"}}}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shown = try await CLI.run(["config", "show", "--profile", "night"], in: dir)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stdout.contains("literal-code-7f3a") && !shown.stdout.contains("literal-token-91c2"), "\(shown.stdout)")
        #expect(shown.stdout.contains(#""accessCode": "REDACTED""#) && shown.stdout.contains(#""token": "REDACTED""#), "\(shown.stdout)")
        #expect(shown.stdout.contains(#""forecast": "nws""#), "the profile is applied")
        #expect(!shown.stdout.contains(#""profiles""#))
        let parsed = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        #expect(parsed?["routes"] != nil, "the output is JSON")
        #expect(try await CLI.run(["config", "path"], in: dir).stdout == dir.appendingPathComponent("sources.json").path + "\n")
    }
}
