import ConditionsCore
import ConditionsKit
import Foundation
import Logging

/// The `conditions-mcp` program: `[--config FILE] [--profile NAME] [-v…]`, then the server.
/// `conditions mcp` has already parsed these with the CLI's own options; this parse is only
/// as strict as needed to run the same configuration.
package enum MCPMain {
    /// Loads the configuration like the CLI and serves until stdin closes; returns the exit status.
    package static func run(arguments: [String], environment: [String: String] = ProcessEnvironment.current()) async -> Int32 {
        var config: String?
        var profile: String?
        var verbosity = 0
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--config", "--profile":
                guard index + 1 < arguments.count else { return usage("\(argument) needs a value") }
                if argument == "--config" { config = arguments[index + 1] } else { profile = arguments[index + 1] }
                index += 2
                continue
            case "-v", "--verbose": verbosity += 1
            case let flags where flags.hasPrefix("-") && !flags.hasPrefix("--") && flags.dropFirst().allSatisfy({ $0 == "v" }) && flags.count > 1:
                verbosity += flags.count - 1
            default: return usage("unexpected argument \"\(argument.prefix(200))\"")
            }
            index += 1
        }
        let level: Logger.Level
        switch verbosity {
        case 0: level = environment["CONDITIONS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        case 1: level = .info
        case 2: level = .debug
        default: level = .trace
        }
        let logger = LogSetup.makeLogger(level: level)
        let runtime: Runtime
        do {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let url = try ConfigFile.locate(explicit: config, environment: environment, currentDirectory: cwd)
            let file = try ConfigFile.read(url)
            let profileName = profile ?? environment["CONDITIONS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            let configuration = try Configuration.load(file, profile: profileName)
            runtime = try Runtime(configuration, environment: environment, logger: logger)
            LogSetup.secrets.withLock { $0.formUnion(runtime.secrets) }
        } catch {
            for line in error.description.split(separator: "\n") {
                write("conditions: \(TerminalText.sanitized(LogSetup.redact(String(line)), oneLine: true))\n", to: .standardError)
            }
            return 2
        }
        do {
            try await ConditionsMCPServer(runtime: runtime, http: HTTPClients.make(version: Version.current, logger: logger), logger: logger).run()
            return 0
        } catch {
            write("conditions: mcp: \(TerminalText.sanitized(LogSetup.redact(String(describing: error)), oneLine: true))\n", to: .standardError)
            return 1
        }
    }

    private static func usage(_ message: String) -> Int32 {
        write("conditions: mcp: \(message); usage: conditions mcp [--config file] [--profile name] [-v]\n", to: .standardError)
        return 2
    }
}
