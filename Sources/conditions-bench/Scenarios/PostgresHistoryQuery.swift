import ConditionsCore
import ConditionsText
import Foundation
import Logging

/// Scenario 18: one URN's last 7 days from a PostgreSQL history store of 1,000,000 changes,
/// scenario 13's figure for the SQLite store (target ≤ 10 ms since issue 45, median in process).
///
/// The schema is the store's own: `conditions history` (the release binary) opens the empty
/// database once, which runs the migrations. The rows are then written by one `INSERT …
/// SELECT` over `generate_series` (psql; through the store it would take an hour here): 100
/// URNs × 10,000 changes, in write order (time, then URN) as recording lays them out, over a
/// year: each URN's last 2,016 changes 5 minutes apart (the week queried, as in scenario 13),
/// the 7,984 before spread over the 358 days before that. Each row carries scenario 13's
/// ~700-byte pass result. They are then packed (schema 4) as a live store's hourly passes
/// would have left them: a URN's changes of each hour together. Then one URN's week is read,
/// cycling over the URNs:
/// - in process, through `PostgresHistoryStore.changes` (what `conditions history`,
///   `/v1/history` and the dashboard call), many times: median and p99;
/// - through `GET /v1/history/{urn}?since=7d&limit=10000` of a replica on the database;
/// - through `conditions history --since … --until … --format json` as a process;
/// - and PostgreSQL's plan for the store's statement (`EXPLAIN ANALYZE`).
enum PostgresHistoryQuery {
    static let urnCount = 100
    static let changesPerURN = 10_000
    /// The last week's changes per URN, 5 minutes apart.
    static let weekChanges = 2016
    static let weekStep = 300
    /// The earlier changes' spacing: 7,984 × 3,874 s ≈ 358 days, so the whole is a year.
    static let earlierStep = 3874
    static let queryTarget = 0.010
    static let week: TimeInterval = 7 * 86400

    static func run(_ bench: Bench) async throws -> [Figure] {
        // Whole seconds: the rows' times are, and the window's ends land on changes.
        let anchor = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        return try await ThrowawayPostgres.with(bench) { cluster in
            let config = try bench.workspace.config("pg-history", sources: "", routes: #""moon": "astronomy""#,
                                                    extra: #", "history": {"url": "\#(cluster.configURL)", "retain": "400d"}"#)
            var environment = bench.workspace.environment
            environment[ThrowawayPostgres.passwordVariable] = cluster.password
            func conditions(_ arguments: [String]) async throws -> ChildRun {
                let run = try await ChildProcess.run(bench.binary, arguments, environment: environment, stdout: bench.workspace.file("pg-history.out"),
                                                     stderrPath: bench.workspace.file("pg-history.err"))
                guard run.status == 0 else { throw Bench.Failed(description: "conditions \(arguments.prefix(2).joined(separator: " ")) exited \(run.status)", detail: run.stderr) }
                return run
            }
            // The release binary makes the schema (migrations) on an empty database.
            _ = try await conditions(["history", "--config", config, "--since", "1h", "pass:bench-0"])

            let fillStarted = ContinuousClock.now
            try await cluster.psql(fillStatement(anchor: anchor), database: cluster.database)
            let fill = ContinuousClock.now - fillStarted
            // The layout a live store has (schema 4): a write packs the changes settled in the
            // hour before it, once an hour. So: everything before the week in one pass, then
            // the week an hour at a time, the last hour left unpacked.
            let packStarted = ContinuousClock.now
            let weekStart = Int64(anchor.timeIntervalSince1970 - week) * 1000
            try await cluster.psql("SELECT conditions_history_pack(\(weekStart - 1000), NULL)", database: cluster.database)
            try await cluster.psql("SELECT sum(conditions_history_pack(\(weekStart) + h * 3600000, NULL)) FROM generate_series(1, 167) AS h",
                                   database: cluster.database)
            let pack = ContinuousClock.now - packStarted
            try await cluster.psql("VACUUM ANALYZE conditions_history_changes", database: cluster.database)
            let packed = Int(try await cluster.psql("SELECT count(*) FROM conditions_history_changes WHERE packed", database: cluster.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let rows = Int(try await cluster.psql("SELECT count(*) FROM conditions_history_changes", database: cluster.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let bytes = Double(try await cluster.psql("SELECT pg_total_relation_size('conditions_history_changes')", database: cluster.database)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
            let from = anchor.addingTimeInterval(-week)
            let plan = try await cluster.psql("EXPLAIN (ANALYZE, BUFFERS) " + storeStatement(urn: "pass:bench-42", from: from, to: anchor),
                                              database: cluster.database)

            // In process, through the store.
            var settings = Configuration.HistorySettings(retain: 400 * 86400)
            settings.url = cluster.configURL
            let store: any HistoryStoring
            do {
                store = try await settings.location(environment: environment).open(retain: settings.retain, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
            } catch { throw Bench.Failed(description: "open the PostgreSQL store: \(error)") }
            var queries: [Double] = []
            var found = 0
            do {
                for run in 0..<bench.runs(501) {
                    let urn = "pass:bench-\((run * 37) % urnCount)"
                    let began = ContinuousClock.now
                    found = try await store.changes(urn: urn, from: from, to: anchor).changes.count
                    queries.append((ContinuousClock.now - began) / .seconds(1))
                }
            } catch {
                await store.close()
                throw Bench.Failed(description: "history query: \(error)")
            }
            await store.close()

            // Through a replica's API, on one keep-alive connection.
            let (http, httpFound) = try await ServeFleet.with(bench, count: 1, config: config, prefix: "pg-history", cluster: cluster) { replicas in
                let connection = try await RawClients.open(port: replicas[0].port, count: 1)
                defer { connection.close() }
                var times: [Double] = []
                var count = 0
                for run in 0..<bench.runs(201) {
                    let reply = try await connection.send(RawClients.get("/v1/history/pass:bench-\((run * 13) % urnCount)?since=7d&limit=10000"), timeout: 60)[0]
                    guard reply.status == 200 else {
                        throw Bench.Failed(description: "/v1/history answered \(reply.status)", detail: String(decoding: reply.bytes.prefix(2000), as: UTF8.self))
                    }
                    count = String(decoding: reply.bytes, as: UTF8.self).components(separatedBy: #""firstSeen""#).count - 1
                    times.append(reply.seconds)
                }
                return (Samples(times), count)
            }

            // Through the CLI, as a process.
            var processes: [Double] = []
            for run in 0..<bench.runs(15) {
                processes.append(try await conditions(["history", "--config", config, "--since", Timestamp.string(from: from),
                                                       "--until", Timestamp.string(from: anchor), "--format", "json",
                                                       "pass:bench-\((run * 7) % urnCount)"]).wall)
            }

            let query = Samples(queries)
            let planLines = plan.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let scan = planLines.first { $0.contains("Scan") }.map { String($0.prefix(90)) } ?? "?"
            let executed = planLines.first { $0.hasPrefix("Execution Time") } ?? "?"
            let fillSeconds = fill / .seconds(1)
            return [
                .plain(18, "fill: 1,000,000 changes over a year (psql, INSERT … SELECT generate_series)", value: fillSeconds, unit: "s",
                       text: String(format: "%.1f s; %d rows, %.0f MiB with indexes (%.0f bytes per change)", fillSeconds, rows,
                                    bytes / 1_048_576, bytes / Double(max(rows, 1))),
                       target: "= 1,000,000 rows", passed: rows == urnCount * changesPerURN),
                .plain(18, "packed as a live store's writes pack them: the year before the week, then the week an hour at a time",
                       value: pack / .seconds(1), unit: "s",
                       text: String(format: "%.1f s; %d changes packed, the last hour's %d not", pack / .seconds(1), packed, rows - packed)),
                .plain(18, "plan of the store's statement (EXPLAIN ANALYZE)", value: .nan, unit: "", text: "\(scan); \(executed)"),
                .time(18, "one URN's last 7 days (\(found) changes), in process, median", query, target: "≤ 10 ms", passed: query.median <= queryTarget),
                .plain(18, "the same, p99", value: query.quantile(0.99) * 1000, unit: "ms",
                       text: String(format: "%.1f ms (n=%d)", query.quantile(0.99) * 1000, query.values.count)),
                .plain(18, "GET /v1/history/{urn}?since=7d&limit=10000 (\(httpFound) changes)", value: http.median * 1000, unit: "ms",
                       text: String(format: "median %.1f ms, p99 %.1f ms (%.1f–%.1f, n=%d)", http.median * 1000, http.quantile(0.99) * 1000,
                                    http.min * 1000, http.max * 1000, http.values.count)),
                .time(18, "conditions history URN --since … --until … --format json", Samples(processes)),
            ]
        }
    }

    /// The statement `PostgresHistoryStore.changes(urn:from:to:limit:)` sends, with its values in.
    static func storeStatement(urn: String, from: Date, to: Date) -> String {
        let (a, b) = (Int64(from.timeIntervalSince1970 * 1000), Int64(to.timeIntervalSince1970 * 1000))
        return """
            SELECT id, urn, round(extract(epoch FROM first_seen) * 1000)::bigint, round(extract(epoch FROM last_seen) * 1000)::bigint, \
            observations, status, result FROM conditions_history_changes \
            WHERE urn = '\(urn)' AND last_seen >= to_timestamp(\(a) / 1000.0) AND first_seen <= to_timestamp(\(b) / 1000.0) \
            ORDER BY last_seen DESC, id DESC LIMIT \(Int64.max)
            """
    }

    /// The 1,000,000 rows in one statement: pairs (poll i, URN u) in write order, each row's
    /// time from i, its status cycling, its result scenario 13's with the URN, status and time.
    static func fillStatement(anchor: Date) -> String {
        let earlier = changesPerURN - weekChanges
        return """
            INSERT INTO conditions_history_changes (urn, first_seen, last_seen, observations, status, key, result)
            SELECT 'pass:bench-' || u, t, t, 1, s, decode(md5(s), 'hex'),
                   format(\(resultTemplate()), u, s, to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
              FROM (SELECT i, u FROM generate_series(0, \(changesPerURN - 1)) AS i, generate_series(0, \(urnCount - 1)) AS u ORDER BY i, u) AS pairs,
                   LATERAL (SELECT to_timestamp(\(Int64(anchor.timeIntervalSince1970)) - CASE WHEN i >= \(earlier)
                                   THEN (\(changesPerURN - 1) - i) * \(weekStep)
                                   ELSE \(weekChanges * weekStep) + (\(earlier) - i) * \(earlierStep) END) AS t,
                                   (ARRAY['open', 'restricted', 'closed'])[(i + u) % 3 + 1] AS s) AS made
            """
    }

    /// Scenario 13's result as a `format()` literal: %1$s the URN's number, %2$s the status,
    /// %3$s the time.
    static func resultTemplate() -> String {
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let text = HistoryStoreFill.result(urn: "pass:bench-0", status: "open", at: at).serialized()
            .replacingOccurrences(of: "%", with: "%%")
            .replacingOccurrences(of: "bench-0", with: "bench-%1$s")
            .replacingOccurrences(of: #""open""#, with: #""%2$s""#)
            .replacingOccurrences(of: Timestamp.string(from: at), with: "%3$s")
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
