import ArgumentParser
import ConditionsCore
import ConditionsKit
import ConditionsModules
import Foundation
import Logging

/// Options every subcommand shares: which config, which profile, how chatty.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Config file. Without it: $CONDITIONS_CONFIG, ./sources.json, $XDG_CONFIG_HOME/conditions/sources.json (~/.config/…), /etc/conditions/sources.json, else the built-in default; `conditions config path` says which.",
        valueName: "file"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Apply the named profile from the config (default: $CONDITIONS_PROFILE).", valueName: "name"))
    var profile: String?

    @Flag(name: .shortAndLong, help: "Log to stderr; repeat for more detail (-v info, -vv debug, -vvv trace).")
    var verbose: Int

    /// The process's environment, read once: a command asks for it several times per start
    /// (the log level, the config's lookup, `${ENV}`, the cache), and the program never
    /// changes it (~0.05 ms a reading: scenario 1, docs/performance.md, "Issue 45").
    var environment: [String: String] { Self.processEnvironment }
    static let processEnvironment = ProcessEnvironment.current()

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
        try loadConfiguration(from: try configFile())
    }

    /// `file` read under the profile asked for.
    func loadConfiguration(from file: ConfigFile) throws(ConfigurationError) -> Configuration {
        let profileName = profile ?? environment["CONDITIONS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = try Configuration.load(file, profile: profileName, catalog: catalog)
        configuration.dataDirectory = Self.dataDirectory
        return configuration
    }

    /// The config file the lookup finds, or the built-in default.
    func configFile() throws(ConfigurationError) -> ConfigFile {
        guard let url = try ConfigFile.locate(explicit: config, environment: environment, currentDirectory: ProcessEnvironment.currentDirectory()) else {
            return try Self.builtInConfig()
        }
        return try ConfigFile.read(url)
    }

    /// The repository's `sources.json`, compiled in: what runs when no config file is found.
    static var builtInConfigText: Data { Data(PackageResources.sources_json) }

    /// The built-in default, its relative paths resolving against the program's data folder,
    /// with only the modules this program links (a build without a plugin runs the rest).
    static func builtInConfig() throws(ConfigurationError) -> ConfigFile {
        try ConfigFile.builtIn(builtInConfigText, directory: dataDirectory).keepingOnly(modules: RegisteredModules.all.map { $0.moduleName })
    }

    /// `share/conditions` beside the program's `bin` folder (`/usr/share/conditions` for
    /// `/usr/bin/conditions`): where `scripts/install-tree` puts the recordings behind the
    /// `offline` and `replay` profiles. Symbolic links to the program are followed first.
    /// Found as text (realpath, then two folders up): URL's path operations cost a first use
    /// at every start (scenario 1, docs/performance.md, "Issue 45").
    static let dataDirectory: URL = {
        var folder = ProcessEnvironment.executablePath() ?? "/proc/self/exe"
        for _ in 0..<2 { folder = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? folder }
        return URL(filePath: folder + "/share/conditions", directoryHint: .isDirectory)
    }()

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
