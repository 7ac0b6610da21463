import ArgumentParser
import ConditionsCore
import ConditionsKit
import ConditionsModules
import Foundation
import Logging

/// Options every subcommand shares: which config, which profile, how chatty.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Config file (default: $CONDITIONS_CONFIG, ./sources.json, ~/.config/conditions/sources.json).", valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Apply the named profile from the config (default: $CONDITIONS_PROFILE).", valueName: "name"))
    var profile: String?

    @Flag(name: .shortAndLong, help: "Log to stderr; repeat for more detail (-v info, -vv debug, -vvv trace).")
    var verbose: Int

    var environment: [String: String] { ProcessEnvironment.current() }

    /// The modules this program links (`RegisteredModules`), for everything that creates or
    /// presents results: made once per process.
    var catalog: SourceCatalog { Self.registered }
    static let registered = SourceCatalog(RegisteredModules.all)

    /// Reads, overlays and instantiates the configuration.
    /// `validatingUnrouted`: also create (and so check the options of) instances no scheme routes to.
    func loadRuntime(logger: Logger, validatingUnrouted: Bool = false) throws(ConfigurationError) -> Runtime {
        let configuration = try loadConfiguration()
        let runtime = try Runtime(configuration, catalog: catalog, environment: environment, logger: logger, validatingUnrouted: validatingUnrouted)
        LogSetup.secrets.withLock { $0.formUnion(runtime.secrets) }
        return runtime
    }

    func loadConfiguration() throws(ConfigurationError) -> Configuration {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let url = try ConfigFile.locate(explicit: config, environment: environment, currentDirectory: cwd)
        let file = try ConfigFile.read(url)
        let profileName = profile ?? environment["CONDITIONS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        return try Configuration.load(file, profile: profileName, catalog: catalog)
    }

    var logLevel: Logger.Level {
        if let level = environment["CONDITIONS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)), verbose == 0 { return level }
        switch verbose {
        case 0: return .warning
        case 1: return .info
        case 2: return .debug
        default: return .trace
        }
    }
}

// The core knows no argument parser; the CLI reads `--format` values by their raw names.
extension OutputFormat: ExpressibleByArgument {}
