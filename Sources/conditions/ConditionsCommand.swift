import ArgumentParser
import ConditionsCore
import ConditionsKit
import ConditionsProcess
import Foundation
import NIOCore
import NIOPosix

/// The root command: `conditions [options] [URN ...]` plus its inspection subcommands.
struct ConditionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conditions",
        abstract: "Outdoor conditions from many sources behind one address scheme.",
        discussion: """
        \(HelpExamples.block([
            ("conditions \(HelpExamples.list(3))", nil),
            ("conditions", "the config's \"report\" list"),
            ("conditions --profile offline --format ndjson \(HelpExamples.urn(2))", nil),
            ("conditions --now 2026-11-21T14:00:00Z \(HelpExamples.urn(0))", nil),
            ("conditions routes", "what URNs can be asked"),
            ("conditions check", "validate sources.json"),
            ("conditions watch \(HelpExamples.urn(2)) --every 5m", "print changes as they happen"),
            ("conditions history \(HelpExamples.urn(2)) --since 30d", "what watch and serve recorded"),
            ("conditions serve --listen 127.0.0.1:8080", "the same URNs over HTTP"),
        ]))

        Report options (--config, --profile, --format text|json|ndjson|csv, --template, --now, \
        --offline, --refresh, --no-cache, --quiet, -v): see 'conditions help report'.

        Exit codes: 0 every URN resolved; 1 at least one URN failed (the others are still \
        printed); 2 usage or configuration error; 3 output could not be written (disk full, \
        stdout closed; a closed pipe ends the run by SIGPIPE unless SIGPIPE is ignored).
        """,
        version: Version.current,
        subcommands: [ReportCommand.self, WatchCommand.self, HistoryCommand.self, ServeCommand.self, RoutesCommand.self, SourcesCommand.self, CheckCommand.self, DoctorCommand.self, NotifyCommand.self, ConfigCommand.self, CompletionCommand.self, MCPCommand.self],
        defaultSubcommand: ReportCommand.self)
}

/// Runs the command with the documented exit codes (ArgumentParser's own usage errors
/// would exit 64; ours are 2) and one-line errors on stderr.
@main
enum Main {
    static func main() async {
        StandardStreams.prepare()
        let command: any ParsableCommand
        do {
            command = try parseCommand(Array(CommandLine.arguments.dropFirst()))
        } catch {
            exit(with: error)
        }
        if command is ServeCommand {
            // Swift concurrency's jobs run on NIO's event loops instead of a pool of their own:
            // a request's handler no longer hops between the loop that read it and a pool
            // thread and back (scenario 9, docs/performance.md). Installed before the first
            // job reaches the global executor: only the main task, on the main thread, has run.
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        await run(command)
    }

    /// Runs the command and ends the process from wherever it finishes. Returning to `main`
    /// would resume on the main actor, whose thread `dispatch_main` has already retired by
    /// then, so libdispatch would start a thread only to call exit (~0.1 ms of a local answer).
    nonisolated static func run(_ command: sending any ParsableCommand) async -> Never {
        do {
            var command = command
            // A report, the common case, is cast to its type first: the cast to a protocol
            // looks its conformance up among every one in the program (~11,000), ~0.07 ms of a
            // local answer here (scenario 1, docs/performance.md, "Issue 45").
            if let report = command as? ReportCommand {
                try await report.run()
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            end(status: 0)
        } catch {
            exit(with: error)
        }
    }

    /// Ends the process with `status` once a handled signal that is ending it has (whose
    /// status wins). A command may call it with its work still held, so that nothing is taken
    /// apart just before the process's exit frees it all.
    static func end(status: Int32) -> Never {
        InterruptSignals.yieldToAnEndingSignal()
        Foundation.exit(status)
    }

    static func exit(with error: any Error) -> Never {
        // A SIGTERM being handled decides the status, whatever the command made of its
        // children's ending meanwhile.
        InterruptSignals.yieldToAnEndingSignal()
        switch error {
        case let exit as ExitCode:
            Foundation.exit(exit.rawValue)
        case let failure as Failure:
            for line in failure.description.split(separator: "\n") {
                // A config can hold megabyte-long keys; one line stays readable.
                let redacted = LogSetup.redact(String(line))
                let shown = redacted.count > 2000 ? redacted.prefix(1900) + "… (\(redacted.utf8.count) bytes)" : redacted
                write("conditions: \(TerminalText.sanitized(String(shown), oneLine: true))\n", to: .standardError)
            }
            Foundation.exit(2)
        default:
            let code = ConditionsCommand.exitCode(for: error)
            if code == .success {
                // --help and --version
                write(ConditionsCommand.fullMessage(for: error) + "\n", to: .standardOutput)
                Foundation.exit(0)
            }
            write("conditions: \(TerminalText.sanitized(String(ConditionsCommand.fullMessage(for: error).split(separator: "\n").first ?? ""), oneLine: true))\n", to: .standardError)
            write("Run 'conditions --help' for usage.\n", to: .standardError)
            Foundation.exit(2)
        }
    }

    /// Parses the command line, options before the subcommand included (see `subcommandFirst`).
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        try ConditionsCommand.parseAsRoot(try subcommandFirst(arguments))
    }

    /// The root's subcommand names and "help".
    static let subcommandWords: Set<String> = Set(ConditionsCommand.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])

    /// Options that take a value as the next argument, in any subcommand (`OptionOrderTests`
    /// checks this list against `--experimental-dump-help`).
    static let optionsWithValues: Set<String> = [
        "--config", "--profile", "--cache-dir", "--format", "--template", "--now",
        "--every", "--exec", "--exec-timeout", "--count", "--notify", "--listen", "--token", "--since", "--until", "--timeout", "--module",
    ]

    /// Lets options come before the subcommand, as git and kubectl allow:
    /// `conditions --config my.json check` becomes `conditions check --config my.json`. The
    /// subcommand is the first argument that is neither an option nor an option's value; a
    /// subcommand name anywhere after a URN is an error, never a URN (URNs have a colon).
    static func subcommandFirst(_ arguments: [String]) throws(Failure) -> [String] {
        var index = 0
        var firstPositional: Int?
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if optionsWithValues.contains(argument) {
                index += 2
                continue
            }
            if argument.hasPrefix("-"), argument != "-" {
                index += 1
                continue
            }
            // A later positional with a colon is a URN, never a command's name, and is not looked
            // up: `subcommandWords` is made from every subcommand's configuration, help and
            // examples included, 0.5–1 ms a report need not spend (scenario 1, issue 45).
            if firstPositional == nil {
                firstPositional = index
            } else if !argument.utf8.contains(UInt8(ascii: ":")), subcommandWords.contains(argument), let first = firstPositional,
                      !subcommandWords.contains(arguments[first]) {
                throw Failure.usage("\"\(argument)\" is a command, not a URN; put it first: conditions \(argument) [options]")
            }
            index += 1
        }
        // Nor is a first positional with a colon (a report after its options, `conditions
        // --config F moon:now`): a URN, as no command's name has a colon (OptionOrderTests).
        guard let first = firstPositional, first > 0, !arguments[first].utf8.contains(UInt8(ascii: ":")), subcommandWords.contains(arguments[first]) else {
            return arguments
        }
        // `help` takes command names only: `conditions --config x help watch` is `help watch`.
        if arguments[first] == "help" { return arguments[first...].filter { !$0.hasPrefix("-") } }
        var reordered = arguments
        let word = reordered.remove(at: first)
        return [word] + reordered
    }
}
