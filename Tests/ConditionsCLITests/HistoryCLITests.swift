import Foundation
import TestHarness
import Testing

/// The history store through the built binary: what watch and one-shot reports record, two
/// processes writing at once, SIGKILL after a change was shown, and the faults (a corrupt
/// store, a newer schema's, a full disk).
@Suite struct HistoryCLITests {
    typealias Watch = WatchHookTests.Watch

    /// A config folder whose store is `history.sqlite` inside it, and whose `pass:{name}`
    /// answers with the report's clock as its status (`now`), so every pinned `--now` is a
    /// change and equal `--now`s are the same state.
    static func clockConfig() throws -> URL {
        let dir = try Upstream.config(
            sources: #""clock": {"module": "Exec", "options": {"command": ["/bin/sh", "clock.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
            routes: #""pass": "clock", "moon": "astronomy""#,
            extra: #", "history": {"path": "history.sqlite"}"#)
        try WatchHookTests.script(#"""
            now=$(sed 's/.*"now": *"\([^"]*\)".*/\1/')
            case "$now" in 2026-11-21T14*|2026-11-21T16*) status=open ;; 2026-11-21T15*) status=closed ;; *) status="at $now" ;; esac
            printf '{"data": {"status": "%s"}, "fetchedAt": "%s"}\n' "$status" "$now"
            """#, at: dir.appendingPathComponent("clock.sh"))
        return dir
    }

    /// `conditions history …` in `dir`, as NDJSON objects.
    static func history(_ urns: [String], in dir: URL, _ extra: [String] = [], environment: [String: String] = [:]) async throws -> [[String: Any]] {
        let out = try await CLI.run(["history", "--config", "sources.json", "--format", "ndjson", "--since", "36500d"] + extra + urns, in: dir, environment: environment)
        #expect(out.status == 0, "\(out.stderr)")
        return try out.stdout.split(separator: "\n").map { try Upstream.json(String($0)) }
    }

    // MARK: Recording

    @Test func aOneShotReportRecordsOnlyWithRecord() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("history.sqlite")
        let plain = try await CLI.run(["--config", "sources.json", "--now", "2026-11-21T14:00:00Z", "pass:a", "moon:now"], in: dir)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store.path), "a report without --record opens no store")
        for now in ["2026-11-21T06:00:00-08:00", "2026-11-21T06:30:00-08:00", "2026-11-21T07:15:00-08:00", "2026-11-21T08:40:00-08:00"] {
            let out = try await CLI.run(["--config", "sources.json", "--record", "--now", now, "--format", "json", "pass:stevens"], in: dir)
            #expect(out.status == 0, "\(out.stderr)")
            #expect(out.stderr.isEmpty, "\(out.stderr)")
        }
        let changes = try await Self.history(["pass:stevens"], in: dir)
        #expect(changes.map { $0["status"] as? String } == ["open", "closed", "open"])
        #expect(changes.first?["firstSeen"] as? String == "2026-11-21T14:00:00Z")
        #expect(changes.first?["lastSeen"] as? String == "2026-11-21T14:30:00Z")
        #expect(changes.first?["observations"] as? Int == 2)
        let result = changes.first?["result"] as? [String: Any]
        #expect(result?["fetchedAt"] as? String == "2026-11-21T14:00:00Z", "the full result of the change's first observation")
        #expect((result?["data"] as? [String: Any])?["status"] as? String == "open")
        #expect(result?["source"] as? String == "clock")
        // Text: one line per change, local time (the config's Pacific zone), status, how long.
        let text = try await CLI.run(["history", "--config", "sources.json", "--since", "2026-11-21", "--until", "2026-11-22", "pass:stevens"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(text.stdout)")
        for (line, expected) in zip(lines, ["Nov 21 06:00 PST  pass:stevens  open  (seen until 06:30 PST, 2 times)",
                                            "Nov 21 07:15 PST  pass:stevens  closed", "Nov 21 08:40 PST  pass:stevens  open"]) {
            #expect(line.hasSuffix(expected), "\(text.stdout)")
        }
        // A window that ends before the closure leaves it out; one after the first day holds nothing.
        #expect(try await Self.history(["pass:stevens"], in: dir, ["--until", "2026-11-21T06:35:00-08:00"]).count == 1)
        let none = try await CLI.run(["history", "--config", "sources.json", "--since", "2026-11-23", "--until", "2026-11-24", "pass:stevens"], in: dir)
        #expect(none.status == 0 && none.stdout.isEmpty)
        #expect(none.stderr.hasPrefix("conditions: no changes recorded between"), "\(none.stderr)")
    }

    @Test func formatsCarryEveryChange() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        for now in ["2026-11-21T06:00:00-08:00", "2026-11-21T07:00:00-08:00"] {
            let out = try await CLI.run(["--config", "sources.json", "--record", "--now", now, "--format", "json", "pass:a", "pass:b"], in: dir)
            #expect(out.status == 0, "\(out.stderr)")
        }
        let json = try await CLI.run(["history", "--config", "sources.json", "--since", "2026-11-20", "--format", "json", "pass:a", "pass:b"], in: dir)
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(array?.map { "\($0["urn"] ?? "") \($0["status"] ?? "")" } == ["pass:a open", "pass:a closed", "pass:b open", "pass:b closed"])
        let csv = try await CLI.run(["history", "--config", "sources.json", "--since", "2026-11-20", "--format", "csv", "pass:b"], in: dir)
        let rows = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.first == "urn,firstSeen,lastSeen,observations,status,result")
        #expect(rows.count == 3)
        #expect(rows.last?.hasPrefix("pass:b,2026-11-21T15:00:00Z,2026-11-21T15:00:00Z,1,closed,\"{\"\"urn\"\":\"\"pass:b\"\"") == true, "\(rows)")
    }

    @Test func badWindowsAndMissingURNsAreOneLineErrors() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = try await CLI.run(["history", "--config", "sources.json", "--since", "last week", "pass:a"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr == "conditions: --since: \"last week\" is neither a duration back from now (90m, 36h, 7d) nor an ISO 8601 date or date-time (2026-11-01, 2026-11-21T14:00:00Z)\n")
        let backwards = try await CLI.run(["history", "--config", "sources.json", "--since", "1d", "--until", "2d", "pass:a"], in: dir)
        #expect(backwards.status == 2)
        #expect(backwards.stderr.contains("--since") && backwards.stderr.contains("is after --until"), "\(backwards.stderr)")
        let none = try await CLI.run(["history", "--config", "sources.json"], in: dir)
        #expect(none.status == 2)
        #expect(none.stderr.contains("give at least one URN"), "\(none.stderr)")
        let help = try await CLI.run(["history", "--help"])
        #expect(help.stdout.contains("conditions history pass:snoqualmie moon:now --since 30d"))
        #expect(help.stdout.contains("--vacuum"))
    }

    @Test func twoProcessesWriteOneStoreAtOnce() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two writers from the first moment (both create and migrate the new store), each
        // recording 30 changes of the same URN and one of its own, one process per change.
        let writer = #"""
            i=0
            while [ $i -lt 30 ]; do
              now=$(printf '2026-11-2%sT%02d:%02d:00Z' "$2" $((i / 10)) $((i % 10 * 5)))
              "$1" --config sources.json --record --quiet --format ndjson --now "$now" pass:shared "pass:$2" > /dev/null || echo "exit $?" >&2
              i=$((i + 1))
            done
            """#
        async let first = CLI.runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", writer, "sh", CLI.binary.path, "1"], in: dir, environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "TZ": "UTC"], timeout: 120)
        async let second = CLI.runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", writer, "sh", CLI.binary.path, "2"], in: dir, environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "TZ": "UTC"], timeout: 120)
        let (a, b) = try await (first, second)
        #expect(a.status == 0 && b.status == 0)
        #expect(a.stderr.isEmpty, "no locked or busy errors: \(a.stderr)")
        #expect(b.stderr.isEmpty, "no locked or busy errors: \(b.stderr)")
        let shared = try await Self.history(["pass:shared"], in: dir)
        #expect(shared.count == 60, "every write of both processes: \(shared.count)")
        #expect(Set(shared.compactMap { $0["status"] as? String }).count == 60)
        #expect(try await Self.history(["pass:1"], in: dir).count == 30)
        #expect(try await Self.history(["pass:2"], in: dir).count == 30)
    }

    @Test func noHistoryRecordsNothing() async throws {
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state")
        let watch = try Watch(WatchHookTests.watchArguments(polls: 2, ["--no-history"]), in: dir, environment: ["XDG_STATE_HOME": state.path])
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 2)
        #expect(!FileManager.default.fileExists(atPath: state.path), "no store, not even its folder")
        // Without the flag the same watch records in the XDG state folder.
        let recorded = try Watch(WatchHookTests.watchArguments(polls: 2, []), in: dir, environment: ["XDG_STATE_HOME": state.path])
        guard await recorded.finish() else { return }
        #expect(await recorded.status == 0, "\(recorded.stderr)")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("conditions/history.sqlite").path))
        let out = try await CLI.run(["history", "--format", "ndjson", "pass:flip"], in: dir, environment: ["XDG_STATE_HOME": state.path])
        #expect(out.stdout.split(separator: "\n").count == 2, "\(out.stdout) \(out.stderr)")
    }

    // MARK: SIGKILL

    @Test func sigkillNeverLosesAChangeAlreadyShown() async throws {
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let environment = ["XDG_STATE_HOME": dir.appendingPathComponent("state").path]
        let watch = try Watch(WatchHookTests.watchArguments(polls: 1000, []), in: dir, environment: environment)
        let shown = await WatchHookTests.eventually { watch.stdoutLines.count >= 3 }
        await watch.signal(SIGKILL)
        guard await watch.finish(within: 30) else { return }
        #expect(shown, "watch printed an initial state and two changes: \(watch.stdout) \(watch.stderr)")
        #expect(await watch.status == 128 + SIGKILL)
        let printed = try watch.stdoutLines.map { try Upstream.json($0) }
        let stored = try await Self.history(["pass:flip"], in: dir, environment: environment)
        for event in printed {
            #expect(stored.contains { $0["status"] as? String == event["after"] as? String && $0["firstSeen"] as? String == event["at"] as? String },
                    "the store has every change shown: \(event) in \(stored)")
        }
    }

    // MARK: Faults

    @Test func aCorruptStoreFailsHistoryAndWatchGoesOnWithoutIt() async throws {
        let dir = try WatchHookTests.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state/conditions")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let store = state.appendingPathComponent("history.sqlite")
        try Data(repeating: 0x2A, count: 10_000).write(to: store)
        let environment = ["XDG_STATE_HOME": dir.appendingPathComponent("state").path]
        let history = try await CLI.run(["history", "pass:flip"], in: dir, environment: environment)
        #expect(history.status == 2)
        #expect(history.stderr == "conditions: history: \(store.path): file is not a database\n")
        let watch = try Watch(WatchHookTests.watchArguments(polls: 3, []), in: dir, environment: environment)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 3, "watching goes on: \(watch.stdout)")
        let logged = watch.stderrLines(containing: "history")
        #expect(logged.count == 1, "logged once: \(watch.stderr)")
        #expect(logged.first?.contains("history: not recording: \(store.path): file is not a database") == true, "\(watch.stderr)")
        #expect(try Data(contentsOf: store) == Data(repeating: 0x2A, count: 10_000), "the file is left as it was")
    }

    @Test func aStoreFromANewerSchemaIsAClearError() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try await CLI.run(["--config", "sources.json", "--record", "--now", "2026-11-21T14:00:00Z", "pass:a"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        // What a later conditions would leave: a higher user_version (Python's own sqlite3).
        let store = dir.appendingPathComponent("history.sqlite")
        let bump = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/python3"),
                                            ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 7'); c.commit()", store.path],
                                            in: dir, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(bump.status == 0, "\(bump.stderr)")
        let out = try await CLI.run(["history", "--config", "sources.json", "pass:a"], in: dir)
        #expect(out.status == 2)
        #expect(out.stderr.hasPrefix("conditions: history: \(store.path): written by a newer conditions (history schema 7; this one knows up to 2)"), "\(out.stderr)")
        #expect(out.stderr.split(separator: "\n").count == 1)
    }

    /// The store on a 256 KiB tmpfs (a mount namespace of the test's own), and results of
    /// 300 KB: the first write fills the disk. watch logs it and prints every change.
    @Test func aFullDiskIsLoggedAndNothingElseBreaks() async throws {
        let dir = try WatchHookTests.flippingConfig(padding: 300_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let script = #"""
            mount -t tmpfs -o size=256k tmpfs "$1" || exit 97
            shift
            "$@"
            """#
        let arguments = ["--map-root-user", "--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", small.path, CLI.binary.path]
            + WatchHookTests.watchArguments(polls: 3, [])
        let out = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/unshare"), arguments, in: dir,
                                           environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "TZ": "UTC", "XDG_STATE_HOME": small.path], timeout: 120)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n")
        #expect(lines.count == 3, "every change printed: \(out.stdout.prefix(300))")
        #expect(lines.allSatisfy { (try? Upstream.json(String($0))) != nil })
        let logged = out.stderr.split(separator: "\n").filter { $0.contains("history:") }
        #expect(logged.count == 1, "the failed write logged once for the streak: \(out.stderr)")
        #expect(logged.first?.contains("history: could not record pass:flip: \(small.path)/conditions/history.sqlite: database or disk is full") == true, "\(out.stderr)")
    }

    @Test func vacuumCompactsTheStore() async throws {
        let dir = try Self.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try await CLI.run(["--config", "sources.json", "--record", "--now", "2020-01-01T00:00:00Z", "pass:a", "pass:b"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let out = try await CLI.run(["history", "--config", "sources.json", "--vacuum"], in: dir)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasPrefix("\(dir.appendingPathComponent("history.sqlite").path): pruned 2 changes last seen over 180 d 0 h ago;"), "\(out.stdout)")
        #expect(try await Self.history(["pass:a"], in: dir).isEmpty)
    }
}
