import Foundation
import TestHarness
import Testing

/// The inspection subcommands, help, version and usage errors.
@Suite struct CommandsTests {
    let config = CLI.packageRoot.appendingPathComponent("sources.json").path

    @Test func routesPrintsPatternInstanceAndModule() async throws {
        let run = try await CLI.run(["routes", "--config", config, "--profile", "offline"])
        #expect(run.status == 0)
        let line = try #require(run.stdoutLines.first { $0.hasPrefix("pass:{name}") })
        #expect(line.contains("fixtures") && line.contains("Fixtures") && line.contains("pass:all"))
        #expect(run.stdoutLines.first?.hasPrefix("PATTERN") == true)
        let json = try await CLI.run(["routes", "--config", config, "--profile", "offline", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.contains { $0["pattern"] as? String == "pass:{name}" && $0["module"] as? String == "Fixtures" })
    }

    @Test func sourcesListsInstancesAndModules() async throws {
        let run = try await CLI.run(["sources", "--config", config])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Modules:"))
        #expect(run.stdout.contains("Fixtures"))
    }

    @Test func checkPassesOnTheShippedConfig() async throws {
        for profile in [[], ["--profile", "offline"]] {
            let run = try await CLI.run(["check", "--config", config] + profile)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("ok: "))
        }
    }

    @Test func helpHasExamplesAndExitCodes() async throws {
        let run = try await CLI.run(["--help"])
        #expect(run.status == 0)
        // The registered modules' own examples, one per scheme in registration order (Aeris's
        // moon:now and phases:5, then WSDOT's pass:snoqualmie): the host spells none.
        #expect(run.stdout.contains("conditions moon:now phases:5 pass:snoqualmie"))
        #expect(run.stdout.contains("Exit codes"))
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func usageErrorsExitTwoWithOneLine() async throws {
        let unknown = try await CLI.run(["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("Unknown option '--frobnicate'"))
        let badFormat = try await CLI.run(["--config", config, "--format", "xml", "moon:now"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stdout.isEmpty)
    }
}
