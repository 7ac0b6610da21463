import ConditionsCore
import ConditionsKit
import Foundation
import Logging

/// What `conditions-serve` does with its options: load the configuration as the CLI does,
/// combine the settings, raise the descriptor limit, and serve until SIGTERM. Errors are
/// printed as the CLI prints them (`conditions: …`, exit status 2).
package enum ServerLaunch {
    /// The command line of `conditions-serve`: `conditions serve`'s options, less the token,
    /// which travels in the environment (`CONDITIONS_SERVE_TOKEN`) so `ps` never shows it.
    package struct Options: Sendable {
        package var config: String?
        package var profile: String?
        package var verbosity = 0
        package var listen: String?
        package var noAuth = false
        package var offline = false
        package var refresh = false
        package var noCache = false
        package var cacheDirectory: String?

        /// Options as parsed.
        package init(config: String? = nil, profile: String? = nil, verbosity: Int = 0, listen: String? = nil, noAuth: Bool = false,
                     offline: Bool = false, refresh: Bool = false, noCache: Bool = false, cacheDirectory: String? = nil) {
            self.config = config
            self.profile = profile
            self.verbosity = verbosity
            self.listen = listen
            self.noAuth = noAuth
            self.offline = offline
            self.refresh = refresh
            self.noCache = noCache
            self.cacheDirectory = cacheDirectory
        }
    }

    /// Serves until SIGTERM or SIGINT; returns the exit status (0 after a graceful stop, 2 for
    /// a configuration or start-up error).
    package static func run(_ options: Options, environment: [String: String] = ProcessEnvironment.current()) async -> Int32 {
        let logger = LogSetup.makeLogger(level: level(verbosity: options.verbosity, environment: environment))
        let server: ConditionsServer
        do {
            let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let url = try ConfigFile.locate(explicit: options.config, environment: environment, currentDirectory: cwd)
            let file = try ConfigFile.read(url)
            let profile = options.profile ?? environment["CONDITIONS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 }
            let configuration = try Configuration.load(file, profile: profile)
            let runtime = try Runtime(configuration, environment: environment, logger: logger)
            LogSetup.secrets.withLock { $0.formUnion(runtime.secrets) }
            let resolved = try ServerSettings.resolve(listen: options.listen, token: nil, noAuth: options.noAuth,
                                                      configured: configuration.serve, environment: environment)
            if let token = resolved.settings.token { LogSetup.secrets.withLock { _ = $0.insert(token) } }
            if let warning = resolved.warning { write("conditions: \(warning)\n", to: .standardError) }
            let cachePolicy = try Resolver.CachePolicy(settings: configuration.cache, offline: options.offline, refresh: options.refresh,
                                                       noCache: options.noCache, directory: options.cacheDirectory, environment: environment)
            server = ConditionsServer(runtime: runtime, settings: resolved.settings, cachePolicy: cachePolicy, logger: logger)
        } catch let error as ConfigurationError {
            return fail(error.description)
        } catch {
            return fail(String(describing: error))
        }
        raiseDescriptorLimit(logger: logger)
        do {
            try await server.run { address in write("conditions: listening on http://\(address)\n", to: .standardError) }
            return 0
        } catch {
            return fail("serve: \(error)")
        }
    }

    /// One `conditions: …` line per line of `message`, secrets masked; exit status 2.
    private static func fail(_ message: String) -> Int32 {
        for line in message.split(separator: "\n") {
            write("conditions: \(TerminalText.sanitized(LogSetup.redact(String(line)), oneLine: true))\n", to: .standardError)
        }
        return 2
    }

    static func level(verbosity: Int, environment: [String: String]) -> Logger.Level {
        switch verbosity {
        case 0: environment["CONDITIONS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        case 1: .info
        case 2: .debug
        default: .trace
        }
    }

    /// Every connection is a descriptor, and the usual soft limit (1,024) would refuse the
    /// 1,025th idle event-stream client; the hard limit is what the administrator allows.
    static func raiseDescriptorLimit(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("open files limit raised from \(before) to \(limit.rlim_max)")
        } else {
            logger.warning("cannot raise the open files limit from \(before): \(String(cString: strerror(errno)))")
        }
    }
}
