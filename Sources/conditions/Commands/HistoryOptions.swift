import ArgumentParser
import ConditionsCore
import Logging

/// `--no-history` for the commands that record every observation (`watch`, `serve`).
struct HistoryOptions: ParsableArguments {
    @Flag(name: .long, help: "Record nothing in the history store this run (see 'conditions history --help').")
    var noHistory = false

    /// The recorder for this run, nil when `--no-history` or `"history": {"enabled": false}`
    /// turns recording off. Nothing is opened until the first observation.
    func recorder(runtime: Runtime, environment: [String: String], logger: Logger) -> HistoryRecorder? {
        guard !noHistory, runtime.configuration.history.enabled else { return nil }
        return HistoryRecorder(settings: runtime.configuration.history, catalog: runtime.catalog, environment: environment, logger: logger)
    }
}
