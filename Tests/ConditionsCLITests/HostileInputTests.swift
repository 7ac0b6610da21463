import Foundation
import TestHarness
import Testing
@testable import conditions

/// Hostile URNs (HostileURNs.swift) through the binary, as arguments and on stdin: no crash,
/// no hang, one result or one error line each, exit 1, and never a file outside the fixtures.
@Suite(.serialized) struct HostileURNTests {
    let config = CLI.packageRoot.appendingPathComponent("sources.json").path
    static let kinds: Set<String> = ["invalidURN", "notFound", "invalidArguments"]
    /// What `pass:$(touch /tmp/conditions-pwned)` would create if anything ran a shell.
    static let sentinel = "/tmp/conditions-pwned"

    func objects(_ run: CLI.Output) throws -> [[String: Any]] {
        try run.stdoutLines.map(Upstream.json)
    }

    @Test func theCorpusIsLargeAndVaried() async {
        #expect(HostileURNs.all.count >= 100)
        #expect(Set(HostileURNs.all).count == HostileURNs.all.count, "no duplicates")
    }

    @Test func everyHostileURNAsAnArgumentGivesOneResult() async throws {
        try? FileManager.default.removeItem(atPath: Self.sentinel)
        // "-" means stdin (tested below); "--" ends the options so "-v" and "--help" are URNs.
        let urns = HostileURNs.all.filter { $0 != "-" }
        // The harness's 60 s limit is the bound: a hang fails the test, and no wall-clock bound
        // races a loaded machine's stalls.
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--no-cache", "--format", "ndjson", "--"] + urns)
        #expect(run.status == 1)
        let objects = try objects(run)
        #expect(objects.count == urns.count)
        for (urn, object) in zip(urns, objects) {
            #expect(object["urn"] as? String == urn)
            if let error = object["error"] as? [String: Any] {
                #expect(Self.kinds.contains(error["kind"] as? String ?? ""), "\(urn.debugDescription): \(error)")
                let message = error["message"] as? String ?? ""
                #expect(!message.isEmpty && !message.contains("\n") && message.utf8.count < 4096, "\(urn.debugDescription)")
            } else {
                #expect(object["data"] != nil, "\(urn.debugDescription)")
            }
        }
        for (urn, object) in zip(urns, objects) where HostileURNs.traversal.contains(urn) {
            #expect(object["error"] != nil, "traversal \(urn.debugDescription) must fail")
        }
        #expect(!FileManager.default.fileExists(atPath: Self.sentinel))
    }

    @Test func textModePrintsOneSafeLinePerFailure() async throws {
        let urns = HostileURNs.all.filter { $0 != "-" }
        let json = try objects(try await CLI.run(["--config", config, "--profile", "replay", "--no-cache", "--format", "ndjson", "--"] + urns))
        let failures = json.filter { $0["error"] != nil }.count
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--no-cache", "--"] + urns)
        #expect(run.status == 1)
        #expect(run.stderrLines.count == failures)
        #expect(run.stderrLines.allSatisfy { $0.hasPrefix("conditions: ") })
        // No escape sequence, carriage return or other control character reaches the terminal.
        for line in run.stdoutLines + run.stderrLines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription)")
        }
    }

    @Test func everyHostileURNOnStandardInputGivesOneResult() async throws {
        // NUL cannot be an argument, but it can be a line.
        let text = (HostileURNs.all + ["pass:a\u{0}b", "\u{0}", "pass:\u{0}", "pass:%00"]).joined(separator: "\n")
        let expected = ReportInput.parseList(text)
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--no-cache", "--format", "ndjson", "-"], stdin: text)
        #expect(run.status == 1)
        let objects = try objects(run)
        #expect(objects.map { $0["urn"] as? String } == expected)
        for object in objects {
            if let error = object["error"] as? [String: Any] {
                #expect(Self.kinds.contains(error["kind"] as? String ?? ""), "\(error)")
            }
        }
    }

    @Test func hugeInputIsRejectedQuickly() async throws {
        let megabyte = "pass:" + String(repeating: "x", count: 1 << 20)
        let many = (0..<5000).map { $0.isMultiple(of: 2) ? "pass:%2e%2e%2f\($0)" : "pass:snoqualmie" }
        // Quickly: within the harness's 60 s limit, which a quadratic scan of a megabyte misses.
        let run = try await CLI.run(["--config", config, "--profile", "replay", "--no-cache", "--format", "ndjson", "-"],
                              stdin: ([megabyte] + many).joined(separator: "\n"))
        #expect(run.status == 1)
        let objects = try objects(run)
        #expect(objects.count == 5001)
        let first = try #require(objects.first?["error"] as? [String: Any])
        #expect(first["kind"] as? String == "invalidURN")
        #expect((first["message"] as? String)?.contains("1048581 bytes long") == true)
        #expect(run.stdout.utf8.count < 5_000_000, "a 1 MB URN is never echoed in full")
    }
}

/// Hostile local data: fixtures are the user's own files, but a hand-edited one must not crash the renderer.
@Suite struct HostileFixtureTests {
    @Test func absurdNumbersInAFixtureRenderWithoutATrap() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let moon = dir.appendingPathComponent("Fixtures/moon")
        try FileManager.default.createDirectory(at: moon, withIntermediateDirectories: true)
        try #"{"data": {"phase": "full moon", "illumination": 1e300, "age": -1e300}}"#.write(to: moon.appendingPathComponent("now.json"), atomically: true, encoding: .utf8)
        try #"{"location": {"latitude": 1, "longitude": 2}, "sources": {"f": {"module": "Fixtures"}}, "routes": {"moon": "f"}}"#
            .write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        for format in ["text", "json", "csv"] {
            let run = try await CLI.run(["--format", format, "moon:now"], in: dir)
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("full moon"))
        }
    }
}

/// Broken configuration files: each one exits 2 with one or more one-line errors naming the
/// file (or how it was given), never a crash or a hang.
@Suite(.serialized) struct HostileConfigTests {
    static let valid = #"{"location": {"latitude": 47.6, "longitude": -122.3}, "sources": {"a": {"module": "Astronomy"}}, "routes": {"moon": "a"}}"#

    /// Writes `contents` as a config file in a new folder; returns the folder and the file.
    static func write(_ contents: Data) throws -> (URL, URL) {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("sources.json")
        try contents.write(to: file)
        return (dir, file)
    }

    static func text(_ text: String) -> Data { Data(text.utf8) }

    /// The broken configs, by name. Each returns the value for --config and the folder to remove.
    static let cases: [(name: String, make: @Sendable () throws -> (dir: URL, path: String))] = [
        ("empty file (fuzz regression)", { let (d, f) = try write(Data()); return (d, f.path) }),
        ("whitespace only", { let (d, f) = try write(text(" \n\t\r\n ")); return (d, f.path) }),
        ("truncated object", { let (d, f) = try write(text(#"{"location": {"latitude": 1"#)); return (d, f.path) }),
        ("top-level array", { let (d, f) = try write(text("[]")); return (d, f.path) }),
        ("top-level string", { let (d, f) = try write(text(#""sources""#)); return (d, f.path) }),
        ("top-level null", { let (d, f) = try write(text("null")); return (d, f.path) }),
        ("trailing comma", { let (d, f) = try write(text(#"{"location": {"latitude": 1, "longitude": 2},}"#)); return (d, f.path) }),
        ("comments", { let (d, f) = try write(text("// config\n" + valid)); return (d, f.path) }),
        ("single quotes", { let (d, f) = try write(text("{'location': {'latitude': 1}}")); return (d, f.path) }),
        ("BOM then garbage", { let (d, f) = try write(Data([0xEF, 0xBB, 0xBF]) + text("{location}")); return (d, f.path) }),
        ("NUL byte in a string", { let (d, f) = try write(text(#"{"location": {"name": "a"#) + Data([0]) + text(#"b", "latitude": 1, "longitude": 2}}"#)); return (d, f.path) }),
        ("NUL byte between tokens", { let (d, f) = try write(Data([0]) + text(valid)); return (d, f.path) }),
        ("invalid UTF-8", { let (d, f) = try write(text(#"{"location": {"name": ""#) + Data([0xC0, 0xAF, 0xFF]) + text(#"", "latitude": 1, "longitude": 2}}"#)); return (d, f.path) }),
        ("100k levels of nesting", { let (d, f) = try write(text(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))); return (d, f.path) }),
        ("100k nested objects", { let (d, f) = try write(text(String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000))); return (d, f.path) }),
        ("5 MB file", { let (d, f) = try write(text(#"{"report": [""# + String(repeating: "x", count: 5 << 20) + #""]}"#)); return (d, f.path) }),
        ("huge numbers", { let (d, f) = try write(text(#"{"location": {"latitude": 1e400, "longitude": 2}, "sources": {}, "routes": {}}"#)); return (d, f.path) }),
        ("out-of-range limits", { let (d, f) = try write(text(#"{"location": {"latitude": 1, "longitude": 2}, "http": {"timeout": 1e308, "maxBodyBytes": 9223372036854775807, "maxRedirects": -1}, "sources": {"a": {"module": "Astronomy", "ttl": -5}}, "routes": {"moon": "a"}}"#)); return (d, f.path) }),
        ("wrong types everywhere", { let (d, f) = try write(text(#"{"location": "Seattle", "sources": [], "routes": 1, "report": {}, "http": "fast", "cache": true, "profiles": []}"#)); return (d, f.path) }),
        ("wrong types inside sources", { let (d, f) = try write(text(#"{"location": {"latitude": "47", "longitude": null}, "sources": {"a": {"module": 7, "options": []}, "b": "x", "c": {"module": "WSDOT", "options": {"passes": "all", "mode": 1, "baseURL": "ftp://x"}, "http": [], "ttl": "forever"}}, "routes": {"pass": "c"}, "report": [1, null]}"#)); return (d, f.path) }),
        ("unknown keys at every level", { let (d, f) = try write(text(#"{"locaton": {}, "location": {"latitude": 1, "longitude": 2, "alt": 3}, "sources": {"a": {"module": "Astronomy", "opts": {}, "options": {"x": 1}}}, "routes": {"moon": "a"}, "cache": {"dir": "x"}, "http": {"retries": 3}}"#)); return (d, f.path) }),
        ("escape sequences and a megabyte key", { let (d, f) = try write(text(#"{"\u001b[2J\u001b]0;pwned\u0007": 1, "\#(String(repeating: "k", count: 1 << 20))": 2, "location": {"latitude": 1, "longitude": 2}, "sources": {}, "routes": {}}"#)); return (d, f.path) }),
        ("routes to nothing and bad schemes", { let (d, f) = try write(text(#"{"location": {"latitude": 1, "longitude": 2}, "sources": {"a": {"module": "Nope"}}, "routes": {"moon": "zzz", "Bad Scheme": "a", "../x": "a", "": "a"}}"#)); return (d, f.path) }),
        ("unset environment variable", { let (d, f) = try write(text(#"{"location": {"latitude": 1, "longitude": 2}, "sources": {"w": {"module": "WSDOT", "options": {"mode": "api", "accessCode": "${CONDITIONS_TEST_UNSET_VARIABLE}"}}}, "routes": {"pass": "w"}}"#)); return (d, f.path) }),
        ("fixtures directory is a file", { let (d, f) = try write(text(#"{"location": {"latitude": 1, "longitude": 2}, "sources": {"f": {"module": "Fixtures", "options": {"directory": "/etc/passwd"}}}, "routes": {"pass": "f"}}"#)); return (d, f.path) }),
        ("symlink loop", {
            let dir = try CLI.temporaryDirectory()
            let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
            try FileManager.default.createSymbolicLink(at: a, withDestinationURL: b)
            try FileManager.default.createSymbolicLink(at: b, withDestinationURL: a)
            return (dir, a.path)
        }),
        ("dangling symlink", {
            let dir = try CLI.temporaryDirectory()
            let a = dir.appendingPathComponent("sources.json")
            try FileManager.default.createSymbolicLink(at: a, withDestinationURL: dir.appendingPathComponent("gone.json"))
            return (dir, a.path)
        }),
        ("a directory", { let dir = try CLI.temporaryDirectory(); return (dir, dir.path) }),
        ("a device", { (try CLI.temporaryDirectory(), "/dev/zero") }),
        ("a missing file", { let dir = try CLI.temporaryDirectory(); return (dir, dir.appendingPathComponent("nope.json").path) }),
    ]

    @Test func everyBrokenConfigExitsTwoWithOneLineErrors() async throws {
        #expect(Self.cases.count >= 20)
        for (name, make) in Self.cases {
            let (dir, path) = try make()
            defer { try? FileManager.default.removeItem(at: dir) }
            for arguments in [["--config", path, "moon:now"], ["check", "--config", path]] {
                // A hang (reading /dev/zero, say) never ends: the harness kills it at 60 s and
                // the test fails, so no wall-clock bound need race a loaded machine's stalls.
                let run = try await CLI.run(arguments, in: dir, timeout: 60)
                #expect(run.status == 2, "\(name) \(arguments[0]): exit \(run.status): \(run.stderr.prefix(300))")
                #expect(run.stdout.isEmpty, "\(name)")
                #expect(!run.stderrLines.isEmpty, "\(name)")
                for line in run.stderrLines {
                    #expect(line.hasPrefix("conditions: "), "\(name): \(line.prefix(200))")
                    #expect(line.contains(path) || line.contains("--config"), "\(name): \(line.prefix(200))")
                    #expect(line.utf8.count < 4000, "\(name): a \(line.utf8.count)-byte line")
                    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(name)")
                }
            }
        }
    }

    @Test func anUnreadableFileIsAOneLineError() async throws {
        let (dir, file) = try Self.write(Self.text(Self.valid))
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        // Root reads any file whatever its mode, so as root the binary runs as nobody.
        let arguments = [CLI.binary.path, "--config", file.path, "moon:now"]
        let run = geteuid() == 0
            ? try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups"] + arguments,
                                       in: URL(fileURLWithPath: "/"), environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"], timeout: 60)
            : try await CLI.runProgram(CLI.binary, Array(arguments.dropFirst()),
                                       in: URL(fileURLWithPath: "/"), environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"], timeout: 60)
        let stderr = run.stderr
        #expect(run.status == 2, "\(stderr)")
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains(file.path) && stderr.contains("cannot read"), "\(stderr)")
    }
}
