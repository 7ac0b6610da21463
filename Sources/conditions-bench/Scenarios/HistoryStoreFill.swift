import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

/// Scenario 13: the history store with 1,000,000 changes (100 URNs × 10,000), in process,
/// through the same `HistoryStore` calls `watch` and `serve` make:
/// - filling it as 10,000 polls of 100 pass results each (one `watch` poll's transaction, every
///   observation a change), timed per change;
/// - on the full store, one observation per commit (a `serve` resolution), timed per commit;
/// - one URN's last 7 days (2,016 changes, polls 5 min apart), target ≤ 10 ms (issue 45), and the same
///   through `conditions history --since 7d --format json` as a process;
/// - the store's size on disk.
enum HistoryStoreFill {
    static let urnCount = 100
    static let polls = 10_000
    static let pollInterval: TimeInterval = 300
    static let queryTarget = 0.010

    /// A pass result the size and shape WSDOT's are (the shipped Stevens Pass fixture), with
    /// `status` and the restriction texts changed per poll so every observation is news.
    static func result(urn: String, status: String, at: Date) -> JSONValue {
        let restriction: JSONValue = ["direction": "Eastbound", "text": .string(status == "open" ? "No restrictions" : "Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW"), "status": .string(status)]
        let data: JSONValue = [
            "id": .string(String(urn.dropFirst(5))), "name": "Stevens Pass US 2", "status": .string(status),
            "conditions": "Snow and ice on the roadway. Chains required on vehicles over 10,000 GVW.", "weather": "Snowing",
            "temperatureF": 26, "elevationFt": 4061, "restrictions": [restriction, restriction], "updated": JSONValue(at),
            "url": "https://wsdot.com/travel/real-time/mountain-passes/stevens", "travelAdvisory": .null,
        ]
        return ["urn": .string(urn), "route": "pass:{name}", "source": "wsdot", "fetchedAt": JSONValue(at), "data": data]
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        let folder = try bench.workspace.folder("history")
        let file = folder.appendingPathComponent("history.sqlite")
        let store: HistoryStore
        do { store = try await HistoryStore.open(file, logger: logger) } catch { throw Bench.Failed(description: "open: \(error)") }
        let urns = (0..<urnCount).map { "pass:bench-\($0)" }
        let now = Date()
        let start = now.addingTimeInterval(-Double(polls) * pollInterval)
        let statuses = ["open", "restricted", "closed"]

        // Fill: each poll's 100 observations in one transaction, as watch records a poll.
        let fillStarted = ContinuousClock.now
        var pollTimes: [Double] = []
        pollTimes.reserveCapacity(polls)
        for poll in 0..<polls {
            let at = start.addingTimeInterval(Double(poll) * pollInterval)
            let observations = urns.enumerated().map { index, urn in
                let status = statuses[(poll + index) % statuses.count]
                return HistoryObservation(urn: urn, at: at, state: ResultState(status: status), result: result(urn: urn, status: status, at: at))
            }
            let began = ContinuousClock.now
            do { try await store.record(observations) } catch { throw Bench.Failed(description: "record poll \(poll): \(error)") }
            pollTimes.append(seconds(ContinuousClock.now - began))
        }
        let fill = seconds(ContinuousClock.now - fillStarted)
        let count = try await checked { try await store.count() }
        let sizeAfterFill = await store.bytesOnDisk()

        // One URN's last 7 days, in process and through the CLI.
        var queries: [Double] = []
        var found = 0
        for run in 0..<bench.runs(51) {
            let urn = urns[(run * 37) % urns.count]
            let began = ContinuousClock.now
            let changes = try await checked { try await store.changes(urn: urn, from: now.addingTimeInterval(-7 * 86400), to: now).changes }
            queries.append(seconds(ContinuousClock.now - began))
            found = changes.count
        }

        // serve's path on the full store: one observation, one commit.
        var singles: [Double] = []
        for index in 0..<bench.runs(2001) {
            let urn = urns[index % urns.count]
            let at = now.addingTimeInterval(Double(index) / 1000)
            let status = index % 2 == 0 ? "open" : "closed"
            let observation = HistoryObservation(urn: urn, at: at, state: ResultState(status: status), result: result(urn: urn, status: status, at: at))
            let began = ContinuousClock.now
            _ = try await checked { try await store.record([observation]) }
            singles.append(seconds(ContinuousClock.now - began))
        }
        await store.close()
        // Closing checkpoints the log into the file; what stays on disk.
        let size = [file.path, file.path + "-wal"].reduce(Int64(0)) { total, path in
            total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0)
        }

        let config = try bench.workspace.config("history", sources: "", routes: #""moon": "astronomy""#,
                                                extra: #", "history": {"path": "\#(file.path)"}"#)
        var processes: [Double] = []
        for run in 0..<bench.runs(15) {
            let urn = urns[(run * 13) % urns.count]
            processes.append(try await bench.conditions(["history", "--config", config, "--since", "7d", "--format", "json", urn]).wall)
        }

        let query = Samples(queries)
        let perChange = fill / Double(count)
        let single = Samples(singles)
        return [
            .plain(13, "fill: 1,000,000 changes as 10,000 polls of 100", value: fill, unit: "s",
                   text: String(format: "%.1f s: %.1f µs per change, %.0f changes/s; a poll's commit %.1f ms median (%.1f–%.1f)", fill, perChange * 1e6,
                                Double(count) / fill, Samples(pollTimes).median * 1000, Samples(pollTimes).min * 1000, Samples(pollTimes).max * 1000),
                   target: "= 1,000,000 rows", passed: count == urnCount * polls),
            .plain(13, "one observation per commit (serve), full store", value: single.median * 1e6, unit: "µs",
                   text: String(format: "%.0f µs median (p90 %.0f, max %.1f ms, n=%d)", single.median * 1e6, single.quantile(0.9) * 1e6,
                                single.max * 1000, single.values.count)),
            .time(13, "one URN's last 7 days (\(found) changes), in process", query,
                  target: "≤ 10 ms", passed: query.median <= queryTarget),
            .time(13, "conditions history URN --since 7d --format json", Samples(processes)),
            .plain(13, "store size on disk", value: Double(size) / 1_048_576, unit: "MiB",
                   text: String(format: "%.0f MiB (%.0f bytes per change; %.0f MiB with the log before closing)",
                                Double(size) / 1_048_576, Double(size) / Double(count), Double(sizeAfterFill) / 1_048_576)),
        ]
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func checked<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw Bench.Failed(description: "history store: \(error)") }
    }
}
