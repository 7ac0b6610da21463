import Foundation
import TestHarness
import Testing

/// `conditions serve` and the history store, through the binary on loopback: each fresh
/// resolution recorded before it is answered (SIGKILL right after loses nothing),
/// `GET /v1/history/{urn}`, `--no-history`, and a corrupt store that serving outlives.
@Suite struct ServeHistoryTests {
    /// A config whose `pass:{name}` is an Exec script answering open, then closed, then open…
    /// (one counter per URN), with a 1 h TTL so a second resolution only happens when the
    /// server's memory forgets the first (`/v1/resolve` of the same URN answers from memory).
    static func config(history: String = "") throws -> URL {
        let dir = try Upstream.config(
            sources: #""flip": {"module": "Exec", "ttl": 0, "options": {"command": ["/bin/sh", "flip.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
            routes: #""pass": "flip""#, extra: history)
        try script(#"""
            name=$(sed 's/.*"name": *"\([^"]*\)".*/\1/')
            n=$(cat "count-$name" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "count-$name"
            if [ $((n % 2)) -eq 1 ]; then status=open; else status=closed; fi
            printf '{"data": {"status": "%s"}}\n' "$status"
            """#, at: dir.appendingPathComponent("flip.sh"))
        return dir
    }

    /// Writes an executable `#!/bin/sh` script.
    static func script(_ body: String, at url: URL) throws {
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    @Test func freshResolutionsAreRecordedAndServed() async throws {
        let dir = try Self.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            // A local source's result is made again once the second changes: three answers,
            // open, closed, open, each a change.
            var statuses: [String] = []
            for _ in 0..<3 {
                let reply = try await server.request("/v1/urn/pass:stevens")
                #expect(reply.status == 200)
                statuses.append((reply.object["data"] as? [String: Any])?["status"] as? String ?? "")
                // The server keeps a local answer for the rest of the second it was made in,
                // which is at the latest the second the reply arrived in: wait past that one
                // (the second taken before asking could be older and race the answer).
                let answered = Int(Date().timeIntervalSince1970)
                while Int(Date().timeIntervalSince1970) == answered { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(statuses == ["open", "closed", "open"])
            let history = try await server.request("/v1/history/pass:stevens?since=1h")
            #expect(history.status == 200, "\(history.body)")
            #expect(history.header("Cache-Control") == "no-store")
            #expect(history.object["urn"] as? String == "pass:stevens")
            #expect(history.object["truncated"] as? Bool == false)
            let changes = history.object["changes"] as? [[String: Any]] ?? []
            #expect(changes.map { $0["status"] as? String } == ["open", "closed", "open"], "\(history.body)")
            #expect((changes.first?["result"] as? [String: Any])?["source"] as? String == "flip")
            let latest = try await server.request("/v1/history/pass:stevens?limit=1")
            #expect((latest.object["changes"] as? [[String: Any]])?.count == 1)
            #expect(latest.object["truncated"] as? Bool == true)
            // A URN nobody asked for has no changes; a malformed one, a bad window or limit is 400.
            #expect((try await server.request("/v1/history/pass:white").object["changes"] as? [Any])?.isEmpty == true)
            let badSince = try await server.request("/v1/history/pass:stevens?since=yesterday")
            #expect(badSince.status == 400)
            #expect((badSince.object["error"] as? [String: Any])?["message"] as? String
                    == #"since: "yesterday" is neither a duration back from now (90m, 36h, 7d) nor an ISO 8601 date or date-time (2026-11-01, 2026-11-21T14:00:00Z)"#)
            #expect(try await server.request("/v1/history/pass:stevens?limit=0").status == 400)
            // Bounds in either order: the window between them.
            let backwards = try await server.request("/v1/history/pass:stevens?since=0s&until=1h")
            #expect((backwards.object["changes"] as? [Any])?.count == 3, "\(backwards.body)")
            #expect(try await server.request("/v1/history/%20pass").status == 400)
            // Nonsense URNs are answered but not recorded.
            #expect(try await server.request("/v1/urn/nowhere:at-all").status == 404)
            #expect((try await server.request("/v1/history/nowhere:at-all").object["changes"] as? [Any])?.isEmpty == true)
        }
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(!ended.stderr.contains("history"), "\(ended.stderr)")
        // The CLI reads what the server wrote (HOME is the test folder).
        let out = try await CLI.run(["history", "--format", "ndjson", "pass:stevens"], in: dir, environment: ["HOME": dir.path])
        #expect(out.stdout.split(separator: "\n").count == 3, "\(out.stdout) \(out.stderr)")
    }

    @Test func anAnswerIsRecordedBeforeItIsSent() async throws {
        let dir = try Self.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let reply = try await server.request("/v1/urn/pass:blewett")
            #expect(reply.status == 200)
            kill(server.pid, SIGKILL)
        }
        #expect(ended.status == 128 + SIGKILL)
        let out = try await CLI.run(["history", "--format", "ndjson", "pass:blewett"], in: dir, environment: ["HOME": dir.path])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(#""status":"open""#), "the answer a client got is in the store: \(out.stdout)")
    }

    @Test func noHistoryRecordsNothingAndSaysSo() async throws {
        let dir = try Self.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0", "--no-history"], in: dir) { server in
            #expect(try await server.request("/v1/urn/pass:stevens").status == 200)
            let history = try await server.request("/v1/history/pass:stevens")
            #expect(history.status == 503)
            #expect((history.object["error"] as? [String: Any])?["kind"] as? String == "historyUnavailable")
        }
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(".local/state/conditions").path))
    }

    @Test func aCorruptStoreIsLoggedOnceAndServingGoesOn() async throws {
        let dir = try Self.config(history: #", "history": {"path": "broken.sqlite"}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("broken.sqlite")
        try Data(repeating: 0x41, count: 5000).write(to: store)
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            for name in ["a", "b", "c"] {
                let reply = try await server.request("/v1/urn/pass:\(name)")
                #expect(reply.status == 200)
            }
            let history = try await server.request("/v1/history/pass:a")
            #expect(history.status == 503)
            #expect((history.object["error"] as? [String: Any])?["message"] as? String == "the history store cannot be read: file is not a database")
        }
        #expect(ended.status == 0, "\(ended.stderr)")
        let logged = ended.stderr.split(separator: "\n").filter { $0.contains("history") }
        #expect(logged.count == 1, "\(ended.stderr)")
        #expect(logged.first?.contains("history: not recording: \(store.path): file is not a database") == true, "\(ended.stderr)")
    }
}
