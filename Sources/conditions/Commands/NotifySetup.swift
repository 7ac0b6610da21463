import ConditionsCore
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// What `watch --notify` and `conditions notify` need of the `notify` section: targets resolved
/// from the environment (their secrets kept out of every line this process writes), and the
/// outbox: the history store's when it is an SQLite file, else memory.
enum NotifySetup {
    /// The targets named, resolved; an unknown name or a missing variable is a configuration
    /// failure (exit 2) naming it.
    static func targets(_ names: [String], settings: NotifySettings, environment: [String: String]) throws(Failure) -> [ResolvedTarget] {
        var resolved: [ResolvedTarget] = []
        for name in names {
            guard let target = settings.target(named: name) else {
                let known = settings.targets.map(\.name)
                let close = Suggestions.closest(to: name, among: known, limit: 1)
                throw Failure.usage("--notify: no target \"\(name)\" in notify.targets" + (known.isEmpty ? "; the config names none (docs/notifications.md)"
                    : close.isEmpty ? "; targets: \(known.joined(separator: ", "))" : "; did you mean \"\(close[0])\"?"))
            }
            do { resolved.append(try target.resolve(environment: environment)) } catch { throw Failure.configuration(error) }
        }
        LogSetup.secrets.withLock { secrets in for target in resolved { for secret in target.secrets { secrets.insert(secret) } } }
        return resolved
    }

    /// The outbox: the history file's (pending notices survive a restart), or memory, saying so.
    static func outbox(recorder: HistoryRecorder?, logger: Logger) async -> any NoticeOutbox {
        if let store = await recorder?.store() as? HistoryStore { return store }
        let why = recorder == nil ? "no history is recorded (--no-history, or history.enabled false)"
            : "the history store is not an SQLite file here"
        logger.warning("notify: notices are kept in memory only, as \(why): one not yet delivered when this process ends is lost")
        return MemoryOutbox()
    }
}
