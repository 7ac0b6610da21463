import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import ServiceLifecycle

/// `serve`'s notifications (docs/notifications.md): one poller per URN a `notify` rule lists,
/// always running whether or not a client is connected, every rule's `every` (the shortest
/// when several list the URN), else the larger of its instance's TTL and 60 s. Each poll goes
/// through the coordinator, so its history and event streams see the same changes; a change
/// of the change key is given to the `Notifier`, which sends it.
package struct NoticePollers: Service {
    let notifier: Notifier
    let coordinator: ResultCoordinator
    let history: HistoryRecorder?
    let catalog: SourceCatalog
    let settings: NotifySettings
    let logger: Logger

    package init(notifier: Notifier, server: ConditionsServer) {
        self.notifier = notifier
        coordinator = server.coordinator
        history = server.history
        catalog = server.runtime.catalog
        settings = server.runtime.configuration.notify
        logger = server.logger
        notifier.onOutcome { [metrics = server.metrics] target, outcome in metrics.notice(target: target, outcome: outcome) }
    }

    /// Seconds between polls of `urn`.
    func interval(of urn: String) -> Double {
        let given = settings.rules.filter { $0.urns.contains(urn) }.compactMap(\.every).min()
        return given ?? max(coordinator.ttl(of: urn), 60)
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await notifier.run() }
                for urn in settings.ruleURNs {
                    group.addTask { await poll(urn) }
                }
            }
        }
    }

    /// Polls `urn` until cancelled. "Previous" starts as its last stored change (none: no
    /// notice), so a restart sends nothing that was sent before it.
    func poll(_ urn: String) async {
        var previous: JSONValue?
        if let store = await history?.store(), let last = try? await store.changes(urn: urn, from: .distantPast, to: Date(), limit: 1).changes.last,
           let result = try? JSONValue.parse(Data(last.resultText.utf8)) {
            previous = result["data"]
        }
        let every = interval(of: urn)
        while !Task.isCancelled {
            let answer = await coordinator.resolve(urn)
            if case .success(_, _, _, let data, _) = answer.record.outcome {
                if let before = previous {
                    let presentation = catalog.presentation(for: answer.record.kind)
                    if presentation.changeKey(before) != presentation.changeKey(data) {
                        let changeID = answer.rendered.changeID.map { "\($0)" } ?? "m\(UUID().uuidString.prefix(12).lowercased())"
                        await notifier.changed(urn: urn, kind: answer.record.kind, before: before, after: data, changeID: changeID, at: Date())
                    }
                }
                previous = data
            }
            try? await Task.sleep(for: .seconds(every))
        }
    }
}
