import ArgumentParser
import ConditionsCore
import Logging

/// `--no-history` for the commands that record every observation (`watch`, `serve`).
struct HistoryOptions: ParsableArguments {
    @Flag(name: .long, help: "Record nothing in the history store this run (see 'conditions history --help').")
    var noHistory = false

    /// The recorder for this run, nil when `--no-history` or `"history": {"enabled": false}`
    /// turns recording off. Nothing is opened until the first observation. What the store
    /// cannot take meanwhile waits in a spool file in the state folder (`HistorySpool`).
    func recorder(runtime: Runtime, environment: [String: String], logger: Logger) throws -> HistoryRecorder? {
        guard !noHistory, runtime.configuration.history.enabled else { return nil }
        let folder = Configuration.HistorySettings.defaultPath(environment: environment).deletingLastPathComponent()
        return try Self.recorder(runtime: runtime, environment: environment, logger: logger, spool: HistorySpool(folder: folder))
    }

    /// A recorder for the configured store, whether or not recording is on.
    static func recorder(runtime: Runtime, environment: [String: String], logger: Logger, spool: HistorySpool? = nil) throws -> HistoryRecorder {
        HistoryRecorder(location: try location(runtime.configuration.history, environment: environment),
                        retain: runtime.configuration.history.retain, catalog: runtime.catalog, logger: logger, spool: spool)
    }

    /// Where the config (or `$CONDITIONS_HISTORY_URL`) keeps history; a database's password is
    /// kept out of every line this process writes from now on. A problem with the settings is
    /// a configuration failure (exit 2).
    static func location(_ settings: Configuration.HistorySettings, environment: [String: String]) throws(Failure) -> HistoryLocation {
        let location: HistoryLocation
        do { location = try settings.location(environment: environment) } catch { throw Failure.configuration(error) }
        if case .postgres(let database) = location, let password = database.password, !password.isEmpty {
            LogSetup.secrets.withLock { _ = $0.insert(password) }
        }
        return location
    }

    /// For a database: logs in once, so a login the server refuses (a wrong password, an
    /// unknown database) stops the command as the configuration error it is. A server that
    /// cannot be reached is an outage, not the configuration's fault: it is let pass (the
    /// recorder logs it and goes on).
    static func checkLogin(_ location: HistoryLocation, logger: Logger) async throws(Failure) {
        do {
            try await location.logIn(logger: logger)
        } catch where error.kind == .refused {
            throw Failure.configuration(ConfigurationError("history: \(error)"))
        } catch {
            return
        }
    }
}
