import Foundation
import TestHarness
import Testing

/// The Exec module end to end: the Python example through the built binary and its own
/// sources.json (examples/ferries), and a failing plugin next to working sources.
@Suite struct ExecPluginTests {
    let config = CLI.packageRoot.appendingPathComponent("examples/ferries/sources.json").path

    func objects(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func theFerriesExampleAnswersThroughTheBinary() async throws {
        let run = try await CLI.run(["--config", config, "--now", "2026-11-21T14:00:00Z", "--format", "ndjson", "ferry:seattle-bainbridge", "ferry:Mukilteo-Clinton"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let results = try objects(run)
        #expect(results.count == 2)
        let first = try #require(results.first)
        #expect(first["route"] as? String == "ferry:{route}")
        #expect(first["source"] as? String == "ferries")
        #expect(first["fetchedAt"] as? String == "2026-11-21T14:00:00Z")
        let data = try #require(first["data"] as? [String: Any])
        #expect(data["name"] as? String == "Seattle / Bainbridge Island")
        let sailings = try #require(data["sailings"] as? [[String: Any]])
        // 06:00 PST: the next boats leave Seattle at 06:10, 07:05 and 07:55 (count 3 from the config).
        #expect(sailings.first?["from"] as? String == "Seattle")
        #expect(sailings.first?["departures"] as? [String] == ["2026-11-21T14:10:00Z", "2026-11-21T15:05:00Z", "2026-11-21T15:55:00Z"])
        #expect((data["nearestTerminal"] as? [String: Any])?["name"] as? String == "Seattle")
        // Arguments arrive as typed; the plugin decides how to match them.
        #expect((results[1]["data"] as? [String: Any])?["route"] as? String == "mukilteo-clinton")
    }

    @Test func anUnknownRouteIsNotFoundWithTheClosestSuggested() async throws {
        let run = try await CLI.run(["--config", config, "ferry:seatle-bainbridge", "moon:now"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("moon:now"))
        #expect(run.stderrLines == ["conditions: ferry:seatle-bainbridge: notFound: no ferry route \"seatle-bainbridge\" (routes: edmonds-kingston, mukilteo-clinton, seattle-bainbridge); did you mean ferry:seattle-bainbridge?"])
    }

    @Test func theFerriesRoutesAreListed() async throws {
        let run = try await CLI.run(["routes", "--config", config])
        #expect(run.status == 0)
        #expect(run.stdout.contains("ferry:{route}"))
        #expect(run.stdout.contains("ferry:seattle-bainbridge"))
    }

    @Test func aCrashingPluginFailsOnlyItsOwnURNs() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("import sys\nsys.stdin.read()\nraise RuntimeError('the tide table is missing')\n".utf8)
            .write(to: folder.appendingPathComponent("broken.py"))
        try FileManager.default.copyItem(at: CLI.packageRoot.appendingPathComponent("Fixtures"), to: folder.appendingPathComponent("Fixtures"))
        try Data(#"""
            {
              "location": { "name": "Seattle", "latitude": 47.6097, "longitude": -122.3331 },
              "sources": {
                "fixtures": { "module": "Fixtures" },
                "tides": { "module": "Exec", "options": { "command": ["python3", "broken.py"], "routes": ["tide:{station}"], "timeout": 600 } }
              },
              "routes": { "pass": "fixtures", "tide": "tides" }
            }
            """#.utf8).write(to: folder.appendingPathComponent("sources.json"))
        let run = try await CLI.run(["--format", "ndjson", "tide:9447130", "pass:stevens"], in: folder)
        #expect(run.status == 1)
        let results = try objects(run)
        let error = try #require(results.first?["error"] as? [String: Any])
        #expect(error["kind"] as? String == "upstream")
        let message = try #require(error["message"] as? String)
        #expect(message.hasPrefix("python3 broken.py exited with status 1; stderr: Traceback (most recent call last):"))
        #expect(message.hasSuffix("RuntimeError: the tide table is missing"))
        #expect(!message.contains("\n"))
        #expect(results.last?["data"] != nil)
    }

    @Test func aMissingProgramIsAConfigurationError() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"""
            {
              "location": { "latitude": 47.6, "longitude": -122.3 },
              "sources": { "tides": { "module": "Exec", "options": { "command": ["tides-plugin"], "routes": ["tide:{station}"] } } },
              "routes": { "tide": "tides" }
            }
            """#.utf8).write(to: folder.appendingPathComponent("sources.json"))
        let run = try await CLI.run(["check"], in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("sources.json: sources.tides: sources.tides.options.command[0]: no program \"tides-plugin\" on PATH"))
    }
}
