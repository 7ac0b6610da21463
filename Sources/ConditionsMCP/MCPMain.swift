import ConditionsCore
import ConditionsKit
import Foundation
import Logging

/// The `conditions-mcp` program: `[--config FILE] [--profile NAME] [cache flags] [-v…]`, then
/// the server.
/// `conditions mcp` has already parsed these with the CLI's own options; this parse is only
/// as strict as needed to run the same configuration.
package enum MCPMain {
    /// Loads the configuration like the CLI and serves until stdin closes; returns the exit status.
    package static func run(arguments: [String], environment: [String: String] = ProcessEnvironment.current()) async -> Int32 {
        var config: String?
        var profile: String?
        var cacheDirectory: String?
        var offline = false, refresh = false, noCache = false
        var verbosity = 0
        var index = 0
        while index < arguments.count {
            var argument = arguments[index]
            // `--cache-dir=DIR` as well as `--cache-dir DIR`, as ArgumentParser reads them.
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                attached = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            switch argument {
            case "--config", "--profile", "--cache-dir":
                let value: String
                if let attached {
                    value = attached
                    index += 1
                } else {
                    guard index + 1 < arguments.count else { return usage("\(argument) needs a value") }
                    value = arguments[index + 1]
                    index += 2
                }
                switch argument {
                case "--config": config = value
                case "--profile": profile = value
                default: cacheDirectory = value
                }
                continue
            case _ where attached != nil:
                return usage("\(argument) takes no value")
            case "--offline": offline = true
            case "--refresh": refresh = true
            case "--no-cache": noCache = true
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
        let cache: Resolver.CachePolicy
        do {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let url = try ConfigFile.locate(explicit: config, environment: environment, currentDirectory: cwd)
            let file = try ConfigFile.read(url)
            let profileName = profile ?? environment["CONDITIONS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            let configuration = try Configuration.load(file, profile: profileName)
            runtime = try Runtime(configuration, environment: environment, logger: logger)
            LogSetup.secrets.withLock { $0.formUnion(runtime.secrets) }
            cache = try Resolver.CachePolicy(settings: configuration.cache, offline: offline, refresh: refresh, noCache: noCache,
                                             directory: cacheDirectory, environment: environment)
        } catch {
            for line in String(describing: error).split(separator: "\n") {
                write("conditions: \(TerminalText.sanitized(LogSetup.redact(String(line)), oneLine: true))\n", to: .standardError)
            }
            return 2
        }
        do {
            let httpClients = { @Sendable in HTTPClients.make(version: Version.current, logger: logger) }
            try await ConditionsMCPServer(runtime: runtime, cache: cache, httpClients: httpClients, logger: logger).run()
            return 0
        } catch {
            write("conditions: mcp: \(TerminalText.sanitized(LogSetup.redact(String(describing: error)), oneLine: true))\n", to: .standardError)
            return 1
        }
    }

    private static func usage(_ message: String) -> Int32 {
        write("conditions: mcp: \(message); usage: conditions mcp [--config file] [--profile name] [--offline | --refresh | --no-cache] [--cache-dir dir] [-v]\n", to: .standardError)
        return 2
    }
}
