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
        let spooled = SpooledChanges()
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await notifier.run() }
                if let history { group.addTask { await notifySpooled(spooled, history: history) } }
                for urn in settings.ruleURNs {
                    group.addTask { await poll(urn, spooled: spooled) }
                }
            }
        }
    }

    /// Changes seen while the store could not take them (a database outage: the recorder
    /// spooled them), waiting for their change ids.
    actor SpooledChanges {
        struct Seen {
            let urn: String
            let kind: ResultKind?
            let before: JSONValue
            let after: JSONValue
            let at: Date
        }

        private var waiting: [String: [Seen]] = [:]

        func add(_ seen: Seen) { waiting[seen.urn, default: []].append(seen) }

        func take(_ urn: String) -> [Seen] {
            defer { waiting[urn] = nil }
            return waiting[urn] ?? []
        }
    }

    /// When the spool is written, each change seen meanwhile gets its notice, under the id of
    /// the change the store says its observation joined (the one row every replica that saw it
    /// shares, so the fleet keeps one notice), subject to `maxAge` from when it was seen.
    func notifySpooled(_ spooled: SpooledChanges, history: HistoryRecorder) async {
        for await recorded in history.changes.changes() {
            let seen = await spooled.take(recorded.urn)
            guard !seen.isEmpty, let store = await history.store() else { continue }
            for change in seen {
                // The change current when it was seen: the latest begun by then (the observation
                // itself was stamped a moment before the poller looked at it).
                let joined = try? await store.changes(urn: change.urn, from: change.at.addingTimeInterval(-300), to: change.at, limit: nil).changes
                    .last { $0.firstSeen <= change.at }
                guard let joined else {
                    await spooled.add(change)  // not written yet: the next news of the URN
                    continue
                }
                await notifier.changed(urn: change.urn, kind: change.kind, before: change.before, after: change.after,
                                       changeID: "\(joined.id)", at: change.at)
            }
        }
    }

    /// Polls `urn` until cancelled. "Previous" starts as its last stored change (none: no
    /// notice), so a restart sends nothing that was sent before it.
    func poll(_ urn: String, spooled: SpooledChanges) async {
        var previous: JSONValue?
        if let store = await history?.store(), let last = try? await store.changes(urn: urn, from: .distantPast, to: Date(), limit: 1).changes.last,
           let result = try? JSONValue.parse(Data(last.resultText.utf8)) {
            previous = result["data"]
        }
        await URNPoller(coordinator: coordinator).poll(urn, every: interval(of: urn)) { answer in
            if case .success(_, _, _, let data, _) = answer.record.outcome {
                if let before = previous {
                    let presentation = catalog.presentation(for: answer.record.kind)
                    if presentation.changeKey(before) != presentation.changeKey(data) {
                        if let id = answer.rendered.changeID {
                            await notifier.changed(urn: urn, kind: answer.record.kind, before: before, after: data, changeID: "\(id)", at: Date())
                        } else if let spool = history?.spool, !spool.isEmpty {
                            // Spooled, not yet stored: its notice waits for its change id.
                            await spooled.add(.init(urn: urn, kind: answer.record.kind, before: before, after: data, at: Date()))
                        } else {
                            // Not recorded at all (no history, or a store that cannot be used):
                            // a notice under an id of its own.
                            await notifier.changed(urn: urn, kind: answer.record.kind, before: before, after: data,
                                                   changeID: "m\(UUID().uuidString.prefix(12).lowercased())", at: Date())
                        }
                    }
                }
                previous = data
            }
        }
    }
}
