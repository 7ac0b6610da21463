import Foundation
import TestHarness
import Testing

/// `conditions config init --module NAME` through the built binary: each plugin's sample
/// config (`Plugins/<Module>/sample.json`, compiled in) printed to standard output, from a copy
/// of the executable alone in a folder; refusals in one line with exit status 2; the help.
@Suite struct ConfigInitModuleTests {
    /// Every plugin folder and its `sample.json`, as the checkout has them.
    static func samples() throws -> [(module: String, text: String)] {
        let plugins = CLI.packageRoot.appendingPathComponent("Plugins")
        return try FileManager.default.contentsOfDirectory(atPath: plugins.path).sorted().compactMap { name in
            let folder = plugins.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources").path) else { return nil }
            return (name, try String(contentsOf: folder.appendingPathComponent("sample.json"), encoding: .utf8))
        }
    }

    /// A home of its own, so nothing the command might write lands anywhere else.
    func environment(_ home: URL) -> [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path]
    }

    @Test func printsEachPluginsSampleFromACopyOfTheExecutableAlone() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // No resource bundle beside it: the samples are compiled into the executable.
        let lonely = folder.appendingPathComponent("bin/conditions")
        try FileManager.default.createDirectory(at: lonely.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: lonely)
        let samples = try Self.samples()
        #expect(samples.count >= 9, "\(samples.map(\.module))")
        for (module, text) in samples {
            let run = try await CLI.runProgram(lonely, ["config", "init", "--module", module], in: folder,
                                               environment: ["PATH": "/usr/bin:/bin"].merging(environment(folder)) { $1 }, timeout: 60)
            #expect(run.status == 0, "\(module): \(run.stderr)")
            #expect(run.stdout == text, "\(module)")
            #expect(run.stderr.isEmpty, "\(module): \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bin"], "nothing written")
    }

    @Test func aModuleIsNamedInAnyCase() async throws {
        let (module, text) = try #require(try Self.samples().first)
        let run = try await CLI.run(["config", "init", "--module", module.lowercased()])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == text)
    }

    @Test func anUnknownModuleIsOneLineWithSuggestionsAndExitsTwo() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let misspelt = try await CLI.run(["config", "init", "--module", "Snowpak"], in: folder, environment: environment(folder))
        #expect(misspelt.status == 2)
        #expect(misspelt.stdout.isEmpty)
        #expect(misspelt.stderrLines.count == 1, "\(misspelt.stderr)")
        #expect(misspelt.stderr.hasPrefix("conditions: config init: unknown module \"Snowpak\" (did you mean Snowpack?); modules: "), "\(misspelt.stderr)")
        for (module, _) in try Self.samples() { #expect(misspelt.stderr.contains(module), "lists \(module)") }

        let unlike = try await CLI.run(["config", "init", "--module", "Zz"], in: folder, environment: environment(folder))
        #expect(unlike.status == 2)
        #expect(unlike.stderrLines.count == 1)
        #expect(unlike.stderr.hasPrefix("conditions: config init: unknown module \"Zz\"; modules: "), "\(unlike.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }

    @Test func theHelpShowsAnExample() async throws {
        let help = try await CLI.run(["config", "init", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--module <name>"))
        #expect(help.stdout.contains("Examples:"))
        #expect(help.stdout.contains("conditions config init --module "), "\(help.stdout)")
        #expect(help.stdout.contains("With --module, nothing is written"), "\(help.stdout)")
        let config = try await CLI.run(["config", "--help"])
        #expect(config.stdout.contains("conditions config init --module "), "\(config.stdout)")
    }
}
