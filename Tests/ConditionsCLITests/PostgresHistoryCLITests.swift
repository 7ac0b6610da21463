import Foundation
import TestHarness
import Testing

/// History in PostgreSQL through the built binary, against a throwaway cluster: what watch and
/// `--record` write, `conditions history` reads back; a refused login is a configuration error
/// (exit 2, the URL without its password); TLS as sslmode asks.
@Suite struct PostgresHistoryCLITests {
    /// `HistoryCLITests.clockConfig()` with history in `cluster`'s database, its password from
    /// `$PG_TEST_PASSWORD`.
    static func config(_ cluster: PostgresCluster, host: String = "127.0.0.1", query: String = "?sslmode=disable", extra: String = "") throws -> URL {
        let dir = try HistoryCLITests.clockConfig()
        let file = dir.appendingPathComponent("sources.json")
        let url = "postgres://\(cluster.user):${PG_TEST_PASSWORD}@\(host):\(cluster.port)/\(cluster.database)\(query)"
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #""history": {"path": "history.sqlite"}"#, with: #""history": {"url": "\#(url)"\#(extra)}"#)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return dir
    }

    @Test func watchAndRecordWriteTheDatabaseAndHistoryReadsItBack() async throws {
        try await PostgresCluster.with { cluster in
            let dir = try Self.config(cluster)
            defer { try? FileManager.default.removeItem(at: dir) }
            let environment = ["PG_TEST_PASSWORD": cluster.password]
            for now in ["2026-11-21T06:00:00-08:00", "2026-11-21T06:30:00-08:00", "2026-11-21T07:15:00-08:00"] {
                let out = try await CLI.run(["--config", "sources.json", "--record", "--now", now, "--format", "json", "pass:stevens"], in: dir, environment: environment)
                #expect(out.status == 0, "\(out.stderr)")
                #expect(out.stderr.isEmpty, "\(out.stderr)")
            }
            let watch = try await CLI.run(["watch", "--config", "sources.json", "--count", "2", "--every", "1s", "--format", "ndjson", "pass:white"],
                                          in: dir, environment: environment)
            #expect(watch.status == 0, "\(watch.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("history.sqlite").path), "no SQLite file beside it")
            let changes = try await HistoryCLITests.history(["pass:stevens"], in: dir, environment: environment)
            #expect(changes.map { $0["status"] as? String } == ["open", "closed"])
            #expect(changes.first?["observations"] as? Int == 2)
            #expect(changes.first?["firstSeen"] as? String == "2026-11-21T14:00:00Z")
            #expect(changes.first?["lastSeen"] as? String == "2026-11-21T14:30:00Z")
            // The MCP tool reads the same database.
            let mcp = try await MCPSession.converse(["mcp", "--config", "sources.json"], in: dir, environment: environment, timeout: 60) { session in
                try await session.send([MCPCacheTests.initialize])
                await session.waitForReply(to: 1)
                try await session.send([MCPHistoryTests.call(2, #"{"urn": "pass:stevens", "since": "36500d"}"#)])
                await session.waitForReply(to: 2)
            }
            let (replies, _) = try MCPServerTests.replies(mcp)
            let fromMCP = (replies[2]?["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
            #expect((fromMCP?["changes"] as? [[String: Any]])?.compactMap { $0["status"] as? String } == ["open", "closed"], "\(replies[2] ?? [:])")
            let watched = try await HistoryCLITests.history(["pass:white"], in: dir, environment: environment)
            #expect(watched.reduce(0) { $0 + ($1["observations"] as? Int ?? 0) } == 2, "both polls recorded: \(watched)")
            // CONDITIONS_HISTORY_URL wins over the config.
            let elsewhere = try await CLI.run(["history", "--config", "sources.json", "--since", "36500d", "pass:stevens"], in: dir,
                                              environment: ["CONDITIONS_HISTORY_URL": "postgres://\(cluster.user):\(cluster.password)@127.0.0.1:\(cluster.port)/\(cluster.database)"])
            #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
            #expect(elsewhere.stdout.split(separator: "\n").count == 2, "\(elsewhere.stdout)")
        }
    }

    @Test func aRefusedLoginIsAConfigurationErrorNamingTheURLWithoutThePassword() async throws {
        try await PostgresCluster.with { cluster in
            let dir = try Self.config(cluster)
            defer { try? FileManager.default.removeItem(at: dir) }
            let wrong = ["PG_TEST_PASSWORD": "not-the-password"]
            let shown = "postgres://\(cluster.user)@127.0.0.1:\(cluster.port)/\(cluster.database)"
            for arguments in [["check", "--config", "sources.json"], ["serve", "--config", "sources.json", "--listen", "127.0.0.1:0"]] {
                let out = try await CLI.run(arguments, in: dir, environment: wrong)
                #expect(out.status == 2, "\(arguments[0]): \(out.stderr)")
                #expect(out.stderr == "conditions: history: \(shown): password authentication failed for user \"conditions\"\n", "\(arguments[0]): \(out.stderr)")
                #expect(!out.stderr.contains("not-the-password") && !out.stdout.contains("not-the-password"))
            }
            let good = try await CLI.run(["check", "--config", "sources.json"], in: dir, environment: ["PG_TEST_PASSWORD": cluster.password])
            #expect(good.status == 0, "\(good.stderr)")
            // An unreachable server is an outage, not a configuration error.
            try await cluster.stop()
            let down = try await CLI.run(["check", "--config", "sources.json"], in: dir, environment: ["PG_TEST_PASSWORD": cluster.password])
            #expect(down.status == 0, "\(down.stderr)")
            try await cluster.start()
        }
    }

    @Test func aPasswordWrittenInTheConfigIsRefusedWithoutShowingIt() async throws {
        let dir = try HistoryCLITests.clockConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sources.json")
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: #""history": {"path": "history.sqlite"}"#, with: #""history": {"url": "postgres://ana:hunter2@127.0.0.1:5999/h"}"#)
        try text.write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["check", "--config", "sources.json"], ["config", "show", "--config", "sources.json"], ["--config", "sources.json", "moon:now"]] {
            let out = try await CLI.run(arguments, in: dir)
            #expect(out.status == 2, "\(arguments): \(out.stderr)")
            #expect(out.stderr.split(separator: "\n").count == 1, "\(out.stderr)")
            #expect(out.stderr.contains("history.url: a password is written in the config (postgres://ana@127.0.0.1:5999/h)"), "\(out.stderr)")
            #expect(!(out.stderr + out.stdout).contains("hunter2"))
        }
    }

    @Test func sslmodePreferFallsBackToPlainAndRequireRefusesAServerWithoutTLS() async throws {
        try await PostgresCluster.with { cluster in
            let environment = ["PG_TEST_PASSWORD": cluster.password]
            for (query, status) in [("?sslmode=disable", 0), ("?sslmode=prefer", 0), ("", 0), ("?sslmode=require", 2)] {
                let dir = try Self.config(cluster, query: query)
                defer { try? FileManager.default.removeItem(at: dir) }
                let out = try await CLI.run(["check", "--config", "sources.json"], in: dir, environment: environment)
                #expect(out.status == status, "\(query): \(out.stderr)")
                if status == 2 { #expect(out.stderr.contains("does not offer TLS"), "\(out.stderr)") }
            }
        }
    }

    @Test func verifyFullChecksTheChainAndTheHostName() async throws {
        let certificates = try await Self.certificates()
        defer { try? FileManager.default.removeItem(at: certificates.folder) }
        try await PostgresCluster.with(tls: .init(certificate: certificates.server, key: certificates.key)) { cluster in
            let environment = ["PG_TEST_PASSWORD": cluster.password]
            let trusted = #", "sslrootcert": "\#(certificates.ca.path)""#
            let other = #", "sslrootcert": "\#(certificates.otherCA.path)""#
            let cases: [(host: String, extra: String, refusal: String?)] = [("localhost", trusted, nil), ("localhost", other, "TLS: "), ("127.0.0.1", trusted, "needs the server's host name")]
            for (host, extra, refusal) in cases {
                let dir = try Self.config(cluster, host: host, query: "?sslmode=verify-full", extra: extra)
                defer { try? FileManager.default.removeItem(at: dir) }
                guard let refusal else {
                    let out = try await CLI.run(["--config", "sources.json", "--record", "--now", "2026-11-21T06:00:00-08:00", "pass:a"], in: dir, environment: environment)
                    #expect(out.status == 0 && out.stderr.isEmpty, "\(host): \(out.stderr)")
                    let check = try await CLI.run(["check", "--config", "sources.json"], in: dir, environment: environment)
                    #expect(check.status == 0, "\(check.stderr)")
                    #expect(try await HistoryCLITests.history(["pass:a"], in: dir, environment: environment).count == 1)
                    continue
                }
                do {
                    let check = try await CLI.run(["check", "--config", "sources.json"], in: dir, environment: environment)
                    #expect(check.status == 2, "\(host) \(extra): \(check.stderr)")
                    #expect(check.stderr.hasPrefix("conditions: history: postgres://\(cluster.user)@\(host):\(cluster.port)/\(cluster.database): "), "\(check.stderr)")
                    #expect(check.stderr.contains(refusal), "\(check.stderr)")
                }
            }
        }
    }

    /// A CA, a server certificate it signed for `localhost`, and another CA that signed nothing.
    static func certificates() async throws -> (folder: URL, ca: URL, otherCA: URL, server: URL, key: URL) {
        let folder = try CLI.temporaryDirectory()
        let openssl = URL(fileURLWithPath: "/usr/bin/openssl")
        func run(_ arguments: [String]) async throws {
            let out = try await CLI.runProgram(openssl, arguments, in: folder, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
            guard out.status == 0 else { throw PostgresCluster.Failure(description: "openssl \(arguments.joined(separator: " ")): \(out.stderr)") }
        }
        for name in ["ca", "other-ca"] {
            try await run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=conditions test \(name)",
                           "-keyout", "\(name).key", "-out", "\(name).crt"])
        }
        try await run(["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key", "-out", "server.csr"])
        try "subjectAltName=DNS:localhost\n".write(to: folder.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try await run(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                       "-extfile", "san.ext", "-out", "server.crt"])
        return (folder, folder.appendingPathComponent("ca.crt"), folder.appendingPathComponent("other-ca.crt"),
                folder.appendingPathComponent("server.crt"), folder.appendingPathComponent("server.key"))
    }
}
