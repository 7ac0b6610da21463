import Foundation
import TestHarness
import LoopbackServer
import Testing
@testable import ConditionsCore

/// Issue 12, items 11–15, through the binary: literal secrets never reach cache files or
/// output, the cache cleans up after killed writers and damage, `--offline` means no network,
/// and odd config files, repeated keys and far-off `--now` instants are usage errors.
@Suite(.serialized) struct CacheHygieneTests {
    static let accessCode = "SECRETCODE123-literal"
    static let clientId = "aeris-literal-ID-91c2"
    static let clientSecret = "aeris-literal-SECRET-5e7a"

    /// A WSDOT API instance behind a loopback server, cached for 5 minutes, and the config's folder.
    func setup(ttl: String = "5m") throws -> (LoopbackServer, URL) {
        let server = LoopbackServer()
        server.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try server.start()
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": "\#(ttl)", "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "code-77"}}"#,
            routes: #""pass": "wsdot", "moon": "astronomy""#)
        return (server, dir)
    }

    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    // MARK: 11. Literal secrets

    @Test func literalSecretsNeverReachCacheFilesOrOutput() async throws {
        let server = try SecretsTests.upstream()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": "5m", "options": {"mode": "api", "baseURL": "\#(server.url("/ok").absoluteString)", "accessCode": "\#(Self.accessCode)"}}, "#
                + #""aeris": {"module": "Aeris", "ttl": "3h", "options": {"baseURL": "\#(server.url("/aeris-ok/").absoluteString)", "clientId": "\#(Self.clientId)", "clientSecret": "\#(Self.clientSecret)"}}"#,
            routes: #""pass": "wsdot", "moon": "aeris", "phases": "aeris""#)
        defer { try? FileManager.default.removeItem(at: dir) }
        let secrets = [Self.accessCode, Self.clientId, Self.clientSecret]
        func expectNoSecret(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
            for secret in secrets { #expect(!text.contains(secret), "\(context) shows \(secret)", sourceLocation: sourceLocation) }
        }

        let cache = dir.appendingPathComponent("cache")
        let run = try await CLI.run(["--cache-dir", cache.path, "-vvv", "pass:snoqualmie", "pass:all", "moon:now", "phases:3"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        expectNoSecret(run.stdout + run.stderr, "report at -vvv")
        // The upstream did get them, so there was something to keep out.
        #expect(server.requests.contains { $0.query?.contains("AccessCode=\(Self.accessCode)") == true })
        #expect(server.requests.contains { $0.query?.contains("client_secret=\(Self.clientSecret)") == true })

        let entries = try files(in: cache)
        #expect(entries.count == 4, "\(entries)")
        for name in entries {
            let text = try String(contentsOf: cache.appendingPathComponent(name), encoding: .utf8)
            expectNoSecret(name + text, "cache file \(name)")
            let key = try #require(try Upstream.json(text)["key"] as? String)
            #expect(key.wholeMatch(of: /[0-9a-f]{64}/) != nil, "key field \(key)")
        }
        let hit = try await CLI.run(["--cache-dir", cache.path, "-vvv", "pass:snoqualmie", "moon:now"], in: dir)
        #expect(hit.status == 0)
        #expect(hit.stderr.contains("cache hit"))
        expectNoSecret(hit.stdout + hit.stderr, "cache hits")

        for command in [["sources"], ["check", "-vvv"], ["routes"]] {
            let other = try await CLI.run(command, in: dir)
            #expect(other.status == 0, "\(command): \(other.stdout) \(other.stderr)")
            expectNoSecret(other.stdout + other.stderr, "\(command)")
        }

        // Errors quoting a value built from a literal secret are masked too.
        try #"{"location": {"latitude": 1, "longitude": 2}, "sources": {"w": {"module": "WSDOT", "options": {"mode": "api", "accessCode": "\#(Self.accessCode)", "baseURL": "ftp://x/\#(Self.accessCode)"}}}, "routes": {"pass": "w"}}"#
            .write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        for command in [["--config", "broken.json", "-vvv", "pass:white"], ["check", "--config", "broken.json"]] {
            let broken = try await CLI.run(command, in: dir)
            #expect(broken.status == 2)
            #expect(broken.stderr.contains("ftp://x/REDACTED"), "\(broken.stderr)")
            expectNoSecret(broken.stdout + broken.stderr, "\(command)")
        }
    }

    // MARK: 12. Abandoned temporary files

    @Test func abandonedTemporaryFilesAreRemovedOnTheNextWrite() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let old = cache.appendingPathComponent(".tmp-4242-1.json")
        let fresh = cache.appendingPathComponent(".tmp-4243-2.json")
        try Data("{\"partial".utf8).write(to: old)
        try Data("{\"partial".utf8).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: old.path)

        // A report that writes nothing leaves them alone…
        let local = try await CLI.run(["--cache-dir", cache.path, "moon:now"], in: dir)
        #expect(local.status == 0)
        #expect(FileManager.default.fileExists(atPath: old.path))
        // …the next write removes the old one and keeps the one a writer may still be renaming.
        let run = try await CLI.run(["--cache-dir", cache.path, "pass:white"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(try files(in: cache).filter { !$0.hasPrefix(".") }.count == 1)
    }

    // MARK: 14. Oversize entries, folder permissions, one-line warnings

    @Test func anOversizeEntryIsDeletedUnreadAndResolvedAnew() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        #expect(try await CLI.run(["--cache-dir", cache.path, "pass:white"], in: dir).status == 0)
        let name = try #require(try files(in: cache).first)
        let entry = cache.appendingPathComponent(name)
        // Sparse: 40 MiB of size without the disk blocks.
        #expect(truncate(entry.path, 40 << 20) == 0)

        // --offline cannot refetch, so what happens to the entry is plain: deleted unread.
        let offline = try await CLI.run(["--cache-dir", cache.path, "--offline", "pass:white"], in: dir)
        #expect(offline.status == 1)
        #expect(!FileManager.default.fileExists(atPath: entry.path))
        let warnings = offline.stderrLines.filter { $0.contains("cache:") }
        #expect(warnings.count == 1, "\(offline.stderr)")
        #expect(warnings.first?.contains("41943040 bytes is over the 33554432-byte limit") == true, "\(offline.stderr)")

        #expect(FileManager.default.createFile(atPath: entry.path, contents: nil))
        #expect(truncate(entry.path, 40 << 20) == 0)
        let requests = server.requestCount("/api/GetMountainPassConditionsAsJson")
        // A hang would meet the harness's 60 s limit and fail the test.
        let run = try await CLI.run(["--cache-dir", cache.path, "pass:white"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requestCount("/api/GetMountainPassConditionsAsJson") == requests + 1)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: entry.path)[.size] as? Int)
        #expect(size < 1 << 20, "the entry was rewritten with the new answer")
    }

    @Test func anExistingCacheFolderIsTightenedTo0700() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(chmod(cache.path, 0o755) == 0)
        let run = try await CLI.run(["--cache-dir", cache.path, "pass:white"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: cache.path)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o700)
    }

    @Test(arguments: ["file", "file/sub"])
    func anUnusableCacheFolderWarnsOnceInOneLine(_ relative: String) async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        try "not a folder".write(to: dir.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        let cache = dir.appendingPathComponent(relative).path
        let run = try await CLI.run(["--cache-dir", cache, "pass:white", "pass:snoqualmie", "pass:stevens"], in: dir)
        #expect(run.status == 0, "the cache is an optimisation: \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        let line = try #require(run.stderrLines.first)
        #expect(line.contains("cache: cannot "), "\(line)")
        #expect(line.contains(cache))
        #expect(line.hasSuffix(relative == "file" ? "not a folder" : "Not a directory"), "\(line)")
        #expect(!line.contains("Error Domain") && !line.contains("NSError"))
    }

    // MARK: 13. --offline means no network

    @Test func offlineAnswersLocalSources() async throws {
        let cache = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try await CLI.run(["--offline", "--profile", "offline", "--cache-dir", cache.path, "--format", "ndjson", "moon:now", "phases:2", "pass:snoqualmie"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdoutLines.count == 3)
        #expect(!run.stdout.contains("\"error\""))
        #expect(try files(in: cache).isEmpty, "local sources are not cached")
    }

    @Test func offlineRefusesTheNetworkToAnUncachedSource() async throws {
        let (server, dir) = try setup(ttl: "0")
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--offline", "--cache-dir", dir.appendingPathComponent("cache").path, "--format", "ndjson", "pass:white", "moon:now"], in: dir)
        #expect(run.status == 1)
        let lines = run.stdoutLines
        #expect(lines.count == 2)
        let failure = try #require(try Upstream.json(lines[0])["error"] as? [String: Any])
        #expect(failure["kind"] as? String == "network")
        #expect((failure["message"] as? String)?.contains("--offline: no network requests") == true, "\(failure)")
        #expect(!lines[1].contains("\"error\""), "the local moon still answers")
        #expect(server.requests.isEmpty)
    }

    // MARK: 15. Config files, repeated keys, --now range

    @Test func nonRegularConfigFilesAreRefusedWithoutOpeningThem() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("sources.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for config in [fifo, "/dev/zero"] {
            // Opening the FIFO or reading the device would block or never end: the harness's
            // 60 s limit would kill the run and fail the test.
            for command in [["--config", config, "moon:now"], ["check", "--config", config]] {
                let run = try await CLI.run(command, timeout: 60)
                #expect(run.status == 2, "\(command)")
                #expect(run.stderr == "conditions: \(config): not a regular file (\(config == fifo ? "a FIFO" : "a character device"))\n", "\(command)")
            }
        }
        // Found by the lookup order too (./sources.json), not only by --config.
        let found = try await CLI.run(["moon:now"], in: dir, timeout: 30)
        #expect(found.status == 2)
        #expect(found.stderr.contains("not a regular file"))
    }

    @Test func duplicateKeysAreErrorsWithLineAndColumn() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        {"location": {"latitude": 47.6, "longitude": -122.3},
         "sources": {"sky": {"module": "Astronomy"},
                     "sky": {"module": "Fixtures"}},
         "routes": {"moon": "sky"}}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("sources.json").path
        for command in [["check"], ["moon:now"]] {
            let run = try await CLI.run(command, in: dir)
            #expect(run.status == 2, "\(command)")
            #expect(run.stderr == "conditions: \(path):3:14: invalid JSON: duplicate member name \"sky\" (first at line 2, column 14)\n", "\(command)")
        }
    }

    @Test(arguments: ["0001-01-01T00:00:00Z", "0000-01-01", "0999-12-31T23:59:59Z", "9999-12-31T23:00-08:00"])
    func nowOutsideTheSupportedRangeIsAUsageError(_ now: String) async throws {
        let run = try await CLI.run(["--now", now, "--profile", "offline", "moon:now"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "conditions: --now: \"\(now)\" is outside the supported range, 1000-01-01T00:00:00Z to 9999-12-31T23:59:59Z\n")
    }

    @Test func nowHelpStatesTheRange() async throws {
        let help = try await CLI.run(["report", "--help"])
        #expect(help.status == 0)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(1000-01-01T00:00:00Z to 9999-12-31T23:59:59Z)"), "\(help.stdout)")
    }

    @Test func earlyInstantsInRangePrintWithFourDigitYears() async throws {
        // Astronomy refuses years outside 1900–2100 per URN, echoing the instant it was given.
        let utc = try await CLI.run(["--now", "1200-03-01T00:00:00Z", "--profile", "offline", "--format", "ndjson", "moon:now"])
        #expect(utc.status == 1)
        #expect(utc.stdout.contains(#"now \"1200-03-01T00:00:00Z\""#), "\(utc.stdout)")
        // A date alone is local midnight: Seattle's mean solar time then, 7:52:58 behind UTC.
        let local = try await CLI.run(["--now", "1000-01-01", "--profile", "offline", "--format", "ndjson", "moon:now"])
        #expect(local.status == 1)
        #expect(local.stdout.contains(#"now \"1000-01-01T07:52:58Z\""#), "\(local.stdout)")
    }

    // MARK: Cache keys

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "conditions ", count: 100), "9f6ac76f4a38786afb3e81977050a087c45aeece89ea4808e23da45c2a8f142f"),
    ])
    func cacheKeysAreSHA256InHex(_ input: String, _ digest: String) async {
        #expect(CacheKey.digest(input) == digest)
    }
}
