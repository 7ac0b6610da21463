import ConditionsCore
import ConditionsJSON
import ConditionsKit
import ConditionsModules
import Foundation
import Logging
import LoopbackServer
import Synchronization

/// Scenario 20: 1,000 changes across 100 URNs, each a notice to an ntfy-like loopback target,
/// through the Notifier as `serve` runs it with its outbox in an SQLite history file (each
/// notice stored before it is sent, marked sent after the 2xx). Ten rounds of 100 changes (one
/// per URN), each round's notices all delivered before the next. Notices per second, and the
/// time from a change to its target's 2xx, p50 and p99.
enum NoticeThroughput {
    static func run(_ bench: Bench) async throws -> [Figure] {
        let arrivals = Mutex<[String: Date]>([:])
        let server = LoopbackServer()
        server.fallback { request in
            if let title = request.headers["title"] { arrivals.withLock { $0[title] = Date() } }
            return .init(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"id":"x","event":"message"}"#.utf8))
        }
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let file = try bench.workspace.folder("notices").appendingPathComponent("outbox.sqlite")
        let store = try await HistoryStore.open(file, logger: logger)
        defer { Task { await store.close() } }
        let topic = server.url("/bench")
        var settings = NotifySettings()
        settings.targets = [.init(name: "phone", kind: .ntfy(url: topic.absoluteString, token: nil, username: nil, password: nil), insecure: false)]
        let urns = (0..<100).map { "bench:u\($0)" }
        settings.rules = [.init(urns: urns, to: ["phone"], minPriority: .min, every: nil)]
        let notifier = Notifier(settings: settings, targets: [ResolvedTarget(name: "phone", kind: .ntfy(url: topic, authorization: nil), secrets: [])],
                                outbox: store, sender: NoticeSender(http: HTTPClients.make(version: "bench", logger: logger)(HTTPLimits())),
                                catalog: SourceCatalog(RegisteredModules.all), place: Place(name: "Seattle", latitude: 47.6, longitude: -122.3), logger: logger)
        let sending = Task { await notifier.run() }
        defer { sending.cancel() }

        var enqueued: [String: Date] = [:]
        let started = Date()
        for round in 0..<10 {
            for (index, urn) in urns.enumerated() {
                let title = "\(urn): r\(round)"
                enqueued[title] = Date()
                // GenericPresentation's notice: the title is the URN and its new status.
                await notifier.changed(urn: urn, kind: ResultKind?.none, before: ["status": .string("r\(round - 1)")], after: ["status": .string("r\(round)")],
                                       changeID: "\(round * 100 + index)", at: Date())
            }
            let deadline = Date().addingTimeInterval(120)
            while arrivals.withLock({ $0.count }) < (round + 1) * 100 {
                guard Date() < deadline else { throw Bench.Failed(description: "round \(round): \(arrivals.withLock { $0.count }) of \((round + 1) * 100) notices arrived in 2 min") }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        let delays = arrivals.withLock { arrived in enqueued.compactMap { title, at in arrived[title].map { $0.timeIntervalSince(at) } } }
        let samples = Samples(delays)
        return [
            .plain(20, "notices delivered, 1,000 changes × 100 URNs (SQLite outbox)", value: Double(delays.count), unit: "notices", text: "\(delays.count)",
                   target: "= 1000", passed: delays.count == 1000),
            .plain(20, "notices per second", value: Double(delays.count) / elapsed, unit: "/s", text: String(format: "%.0f /s", Double(delays.count) / elapsed)),
            .plain(20, "change → target's 2xx, p50", value: samples.quantile(0.5) * 1000, unit: "ms", text: String(format: "%.1f ms", samples.quantile(0.5) * 1000)),
            .plain(20, "change → target's 2xx, p99", value: samples.quantile(0.99) * 1000, unit: "ms", text: String(format: "%.1f ms", samples.quantile(0.99) * 1000)),
        ]
    }
}
