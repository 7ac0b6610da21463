import Foundation
import TestHarness
import Testing
@testable import conditions

/// Global options go before or after the subcommand, as in git or kubectl; a subcommand name
/// is never taken for a URN; every accepted `--format` is honoured.
@Suite struct OptionOrderTests {
    /// Each subcommand with the options it shares, given after and then before its name: the
    /// two runs must print the same, successfully.
    @Test(arguments: [
        (["check"], ["--config", "sources.json", "--profile", "offline", "-v"]),
        (["routes"], ["--config", "sources.json", "--profile", "offline", "--format", "csv"]),
        (["sources"], ["--config", "sources.json", "-v"]),
        (["watch", "--count", "1", "pass:stevens"], ["--config", "sources.json", "--profile", "offline", "--offline", "--format", "ndjson"]),
        (["report", "pass:stevens", "moon:now"], ["--config", "sources.json", "--profile", "offline", "--format", "ndjson", "--now", "2026-11-21T14:00:00Z"]),
        (["completion", "bash"], []),
    ])
    func optionsBeforeOrAfterTheSubcommand(command: [String], options: [String]) async throws {
        let after = try await CLI.run(command + options)
        let before = try await CLI.run(options + command)
        #expect(after.status == 0, "\(command) \(options): \(after.stderr)")
        #expect(before.status == 0, "\(options) \(command): \(before.stderr)")
        // watch stamps its events with the real clock; compare what does not depend on it.
        let strip: (String) -> String = { $0.replacingOccurrences(of: #""at":"[^"]*""#, with: "", options: .regularExpression) }
        #expect(strip(before.stdout) == strip(after.stdout))
        #expect(!after.stdout.isEmpty)
    }

    /// `subcommandFirst` takes any positional with a colon for a URN without looking it up
    /// among the commands: no command's name may have one. A report after its options stays a
    /// report, and a command after its options is still moved first.
    @Test func noCommandNameHasAColonSoAPositionalWithOneIsAURN() throws {
        #expect(!Main.subcommandWords.isEmpty && Main.subcommandWords.allSatisfy { !$0.contains(":") }, "\(Main.subcommandWords)")
        #expect(try Main.subcommandFirst(["--config", "sources.json", "moon:now", "phases:5"]) == ["--config", "sources.json", "moon:now", "phases:5"])
        #expect(try Main.subcommandFirst(["--config", "sources.json", "check"]) == ["check", "--config", "sources.json"])
    }

    @Test func helpAfterOptionsShowsTheCommandsHelp() async throws {
        let result = try await CLI.run(["--config", "sources.json", "help", "watch"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Re-resolve URNs on an interval"))
    }

    @Test func aCommandNameAfterAURNIsAnErrorNotAURN() async throws {
        let result = try await CLI.run(["--profile", "offline", "pass:stevens", "check"])
        #expect(result.status == 2)
        #expect(result.stderrLines == [#"conditions: "check" is a command, not a URN; put it first: conditions check [options]"#])
        #expect(result.stdout.isEmpty)
    }

    @Test func routesCSVIsCSV() async throws {
        let result = try await CLI.run(["routes", "--profile", "offline", "--format", "csv"])
        let rows = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first == "pattern,source,module,examples")
        #expect(rows.contains { $0.hasPrefix("pass:{name},fixtures,Fixtures,") && $0.contains(" pass:snoqualmie ") }, "\(rows)")
        #expect(!result.stdout.contains("{\""), "not NDJSON")
    }

    @Test func completionScriptsForEachShell() async throws {
        for (shell, marker) in [("bash", "-F _conditions conditions"), ("zsh", "#compdef conditions"), ("fish", "complete -c 'conditions'")] {
            let result = try await CLI.run(["completion", shell])
            #expect(result.status == 0 && result.stdout.contains(marker), "\(shell): \(result.stdout.prefix(200))")
        }
        let unknown = try await CLI.run(["completion", "tcsh"])
        #expect(unknown.status == 2 && unknown.stderr.contains("bash, zsh and fish"))
    }

    /// The reordering must know every option that takes a value, or it would take the value
    /// for the subcommand; ArgumentParser's own description of the commands is the truth.
    @Test func theListOfOptionsWithValuesIsComplete() async throws {
        let dump = try await CLI.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found = Set<String>()
        func walk(_ command: [String: Any]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                for name in argument["names"] as? [[String: Any]] ?? [] where name["kind"] as? String == "long" {
                    if let text = name["name"] as? String { found.insert("--" + text) }
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub) }
        }
        walk(try #require(root["command"] as? [String: Any]))
        #expect(!found.isEmpty)
        #expect(found == Main.optionsWithValues)
    }
}
