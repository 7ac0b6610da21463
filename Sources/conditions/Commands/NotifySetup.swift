import ConditionsCore
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// What `watch --notify` and `conditions notify` need of the `notify` section: targets resolved
/// from the environment (their secrets kept out of every line this process writes), and the
/// outbox: the history store's (an SQLite file, or PostgreSQL, which replicas share), else memory.
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

    /// `serve`'s notifier for the config's rules (every target resolved); nil without rules.
    static func notifier(runtime: Runtime, recorder: HistoryRecorder?, environment: [String: String], logger: Logger) async throws(Failure) -> Notifier? {
        let settings = runtime.configuration.notify
        guard !settings.rules.isEmpty else { return nil }
        let targets = try Self.targets(settings.targets.map(\.name), settings: settings, environment: environment)
        let outbox = await outbox(recorder: recorder, logger: logger)
        return Notifier(settings: settings, targets: targets, outbox: outbox,
                        sender: NoticeSender(http: HTTPClients.make(version: Version.current, logger: logger)(HTTPLimits())),
                        catalog: runtime.catalog, place: runtime.configuration.place, logger: logger)
    }

    /// The outbox: the history store's (pending notices survive a restart; in PostgreSQL a fleet
    /// keeps each notice once), or memory, saying so.
    static func outbox(recorder: HistoryRecorder?, logger: Logger) async -> any NoticeOutbox {
        let store = await recorder?.store()
        if let store = store as? HistoryStore { return store }
        if let store = store as? PostgresHistoryStore { return store }
        let why = recorder == nil ? "no history is recorded (--no-history, or history.enabled false)"
            : "the history store cannot be reached now"
        logger.warning("notify: notices are kept in memory only, as \(why): one not yet delivered when this process ends is lost")
        return MemoryOutbox()
    }
}
