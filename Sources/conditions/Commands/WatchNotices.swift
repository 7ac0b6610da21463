import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

/// `watch --notify`: each URN's data kept from poll to poll, and its notice given to the
/// `Notifier` when its change key changes. "Previous" starts as the URN's last stored change
/// (none: no notice), so a restart sends nothing that was sent before it.
final class WatchNotices {
    let notifier: Notifier
    let catalog: SourceCatalog
    private var previous: [String: JSONValue] = [:]
    private let sending: Task<Void, Never>

    private init(notifier: Notifier, catalog: SourceCatalog, previous: [String: JSONValue]) {
        self.notifier = notifier
        self.catalog = catalog
        self.previous = previous
        sending = Task { await notifier.run() }
    }

    /// Nil when no target is named.
    static func start(_ names: [String], runtime: Runtime, watched: [String], recorder: HistoryRecorder?,
                      environment: [String: String], logger: Logger) async throws -> WatchNotices? {
        guard !names.isEmpty else { return nil }
        let settings = runtime.configuration.notify
        let targets = try NotifySetup.targets(names, settings: settings, environment: environment)
        let outbox = await NotifySetup.outbox(recorder: recorder, logger: logger)
        var previous: [String: JSONValue] = [:]
        if let store = await recorder?.store() {
            for urn in watched where previous[urn] == nil {
                guard let last = try? await store.changes(urn: urn, from: .distantPast, to: Date(), limit: 1).changes.last,
                      let result = try? JSONValue.parse(Data(last.resultText.utf8)), let data = result["data"] else { continue }
                previous[urn] = data
            }
        }
        var onlyNamed = settings
        onlyNamed.rules = []  // watch sends to the targets it is given, not the rules' (those are serve's)
        let notifier = Notifier(settings: onlyNamed, targets: targets, outbox: outbox,
                                sender: NoticeSender(http: HTTPClients.make(version: Version.current, logger: logger)(HTTPLimits())),
                                catalog: runtime.catalog, place: runtime.configuration.place, logger: logger, always: names)
        return WatchNotices(notifier: notifier, catalog: runtime.catalog, previous: previous)
    }

    /// This poll's records: a notice for each URN whose change key changed since the last.
    func poll(_ records: [ResultRecord], changeIDs: [Int64?]?, at now: Date) async {
        for (index, record) in records.enumerated() {
            guard case .success(_, _, _, let data, _) = record.outcome else { continue }
            defer { previous[record.urn] = data }
            guard let before = previous[record.urn] else { continue }
            let presentation = catalog.presentation(for: record.kind)
            guard presentation.changeKey(before) != presentation.changeKey(data) else { continue }
            let changeID = changeIDs?[index].map { "\($0)" } ?? "m\(UUID().uuidString.prefix(12).lowercased())"
            await notifier.changed(urn: record.urn, kind: record.kind, before: before, after: data, changeID: changeID, at: now)
        }
    }

    /// Before `watch --count` exits: what is being sent is finished and what is due is sent,
    /// within 20 s; the rest stays in the outbox (sent by the next watch or serve).
    func finish() async {
        let deadline = Date().addingTimeInterval(20)
        await notifier.stop()
        let sending = sending
        let cutoff = Task { try? await Task.sleep(for: .seconds(20)); sending.cancel() }
        await sending.value
        await notifier.settle()
        cutoff.cancel()
        await notifier.flush(until: deadline)
    }
}
