import Foundation
import TestHarness
import LoopbackServer
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
import Synchronization
import Testing

/// Issue 12, output and input: writes never trap, closed or full streams end the run with one
/// line and a documented status, `watch` notices a closed pipe, stdin may be closed, and
/// results stream. Each case runs the built binary under a real shell, redirections and all,
/// as a user's command line or a service manager would.
@Suite(.serialized) struct OutputStreamsTests {
    /// Runs `script` with bash; `$C` is the binary and `$CONFIG` a fixtures-backed config
    /// (passes and the moon from the shipped recordings: answers are local and instant).
    func shell(_ script: String, timeout: TimeInterval = 60) async throws -> CLI.Output {
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": CLI.home.path, "TZ": "UTC",
                           "C": CLI.binary.path, "CONFIG": config]
        return try await CLI.runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: CLI.packageRoot,
                                  environment: environment, timeout: timeout)
    }

    /// Waits for `semaphore` on a thread outside the cooperative pool, which it must not block.
    static func wait(for semaphore: DispatchSemaphore, seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success) }
        }
    }

    /// Lines mentioning a Swift trap or a stack trace: what exit 132 printed before.
    func trapped(_ output: CLI.Output) -> Bool {
        output.status == 132 || output.stderr.contains("Fatal error") || output.stderr.contains("Stack dump")
    }

    @Test func fullOutputIsOneLineAndStatus3() async throws {
        let result = try await shell(#""$C" --config "$CONFIG" --profile offline pass:snoqualmie moon:now > /dev/full"#)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderrLines == ["conditions: cannot write to standard output: No space left on device"])
        #expect(!trapped(result))

        // Every format takes the same path.
        for format in ["json", "ndjson", "csv"] {
            let other = try await shell(#""$C" --config "$CONFIG" --profile offline --format \#(format) pass:all > /dev/full"#)
            #expect(other.status == 3 && other.stderrLines.count == 1, "\(format): \(other.status) \(other.stderr)")
        }
    }

    @Test func closedOutputIsOneLineAndStatus3() async throws {
        let result = try await shell(#""$C" --config "$CONFIG" --profile offline pass:snoqualmie >&-"#)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderrLines == ["conditions: cannot write to standard output: it is closed"])
    }

    @Test func closedOrFullErrorStreamChangesNothingElse() async throws {
        for redirection in ["2>&-", "2>/dev/full"] {
            // A failing URN must report on stderr; with stderr gone the results and status still tell.
            let result = try await shell(#""$C" --config "$CONFIG" --profile offline pass:snoqualmie pass:nowhere \#(redirection)"#)
            #expect(result.status == 1, "\(redirection): \(result.status) \(result.stderr)")
            #expect(result.stdout.contains("Snoqualmie Pass"))
            #expect(!trapped(result))
            let verbose = try await shell(#""$C" -vvv --config "$CONFIG" --profile offline moon:now \#(redirection)"#)
            #expect(verbose.status == 0, "\(redirection) -vvv: \(verbose.status)")
        }
    }

    /// 3,000 URNs of CSV are more than a pipe holds, so the writer meets the closed reader.
    static let manyURNs = "for i in $(seq 3000); do echo pass:snoqualmie; done"

    @Test func closedPipeWithDefaultSIGPIPEEndsQuietly() async throws {
        let result = try await shell(#"\#(Self.manyURNs) | "$C" --config "$CONFIG" --profile offline --format csv - | head -c 10; echo "status=${PIPESTATUS[1]}""#)
        #expect(result.stdout.hasPrefix("urn,ok,rou"))
        #expect(result.stdout.contains("status=141"), "killed by SIGPIPE, as cat or grep would be: \(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func closedPipeWithIgnoredSIGPIPEIsOneLineAndStatus3() async throws {
        let result = try await shell(#"trap '' PIPE; \#(Self.manyURNs) | "$C" --config "$CONFIG" --profile offline --format csv - | head -c 10; echo "status=${PIPESTATUS[1]}""#)
        #expect(result.stdout.contains("status=3"), "\(result.stdout) \(result.stderr)")
        #expect(result.stderrLines == ["conditions: cannot write to standard output: Broken pipe (the reading end was closed)"])
        #expect(!trapped(result))
    }

    @Test func closedStdinIsLikeAnEmptyOne() async throws {
        let closed = try await shell(#""$C" --config "$CONFIG" --profile offline - <&-"#)
        let empty = try await shell(#""$C" --config "$CONFIG" --profile offline - < /dev/null"#)
        #expect(closed.status == 2, "\(closed.stderr)")
        #expect(closed.stderrLines == ["conditions: no URNs on standard input"])
        #expect(closed.stderr == empty.stderr && closed.status == empty.status)
        // watch reads the same way.
        let watch = try await shell(#""$C" watch --config "$CONFIG" --profile offline --count 1 - <&-"#)
        #expect(watch.status == 2 && watch.stderrLines.count == 1, "\(watch.stderr)")
    }

    @Test func unreadableStdinIsOneLine() async throws {
        let result = try await shell(#""$C" --config "$CONFIG" --profile offline - < /"#)
        #expect(result.status == 2)
        #expect(result.stderrLines == ["conditions: cannot read standard input: Is a directory"])
    }

    /// `watch | head -1` with nothing changing: watch sees the reader go within about a second,
    /// not at its next write an hour later. (The run's own timeout records an issue if it hangs.)
    @Test(arguments: ["", "trap '' PIPE; "])
    func watchNoticesAClosedPipeWhileIdle(prefix: String) async throws {
        // The hour-long interval would outlive the harness's 120 s limit, which fails the test.
        let result = try await shell(#"\#(prefix)"$C" watch --config "$CONFIG" --profile offline --every 1h pass:snoqualmie | head -1; echo "status=${PIPESTATUS[0]}""#, timeout: 120)
        #expect(result.stdout.contains("pass:snoqualmie"))
        #expect(result.stdout.contains(prefix.isEmpty ? "status=141" : "status=3"), "\(result.stdout) \(result.stderr)")
    }

    /// The first result prints while a later one is still waiting for its upstream: the server
    /// holds its answer until the test has read the first line, which only a streaming
    /// printer can deliver.
    @Test(arguments: ["ndjson", "text", "json"])
    func resultsPrintAsSoonAsEveryEarlierOneIsDone(format: String) async throws {
        let arrived = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let server = LoopbackServer()
        let feed = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        server.route(ScriptingTests.feedPath) { _ in
            arrived.signal()
            // Bounded so a printer that waits for every result fails the test instead of hanging it.
            _ = released.wait(timeout: .now() + 60)
            return .json(feed)
        }
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "k"}}, "fixtures": {"module": "Fixtures", "options": {"directory": "\#(CLI.packageRoot.path)/Fixtures"}}"#,
            routes: #""pass": "wsdot", "moon": "fixtures""#)
        defer { try? FileManager.default.removeItem(at: dir) }

        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let marker = format == "text" ? "lit" : "\"phase\""
        let result = try await Subprocess.run(
            .path(FilePath(CLI.binary.path)),
            arguments: ["--no-cache", "--format", format, "moon:now", "pass:snoqualmie"],
            environment: .custom(["PATH": "/usr/bin:/bin", "HOME": dir.path, "TZ": "UTC"]),
            workingDirectory: FilePath(dir.path),
            platformOptions: options,
            input: .none,
            output: .sequence,
            error: .discarded
        ) { execution in
            // With the pass's answer held by the server, the moon's result must come out whole.
            #expect(await Self.wait(for: arrived, seconds: 30), "the pass request reached the server")
            let (seen, markerSeen) = AsyncStream<Void>.makeStream()
            let output = execution.standardOutput
            let reader = Task {
                var text = Data()
                for try await chunk in output {
                    chunk.withUnsafeBytes { text.append(contentsOf: $0) }
                    if String(decoding: text, as: UTF8.self).contains(marker) { markerSeen.yield() }
                }
                markerSeen.finish()
                return String(decoding: text, as: UTF8.self)
            }
            let printedWhileHeld = await withTaskGroup(of: Bool.self) { group in
                group.addTask { await seen.first { _ in true } != nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(30))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            released.signal()
            return (printedWhileHeld, try await reader.value)
        }
        let (printedWhileHeld, text) = result.closureResult
        #expect(printedWhileHeld, "the first result printed while the second was still in flight")
        #expect(text.contains(marker) && text.contains("Snoqualmie"), "\(text)")
        #expect(result.terminationStatus == .exited(0))
        if format == "json" {
            let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
            #expect(array?.map { $0["urn"] as? String } == ["moon:now", "pass:snoqualmie"])
        }
    }

    /// Streamed JSON is byte for byte what the whole array pretty-printed was, duplicates and
    /// failures in the order asked included.
    @Test func streamedFormatsKeepOrderDuplicatesAndFailures() async throws {
        let urns = ["pass:stevens", "moon:now", "pass:nowhere", "pass:stevens", "phases:5", "pass:snoqualmie"]
        let json = try await CLI.run(["--profile", "replay", "--format", "json", "--now", "2026-11-21T14:00:00Z"] + urns)
        #expect(json.status == 1)
        let array = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(array?.map { $0["urn"] as? String } == urns)
        #expect(json.stdout.hasPrefix("[\n  {\n    \"urn\": \"pass:stevens\""))
        #expect(json.stdout.hasSuffix("\n  }\n]\n"))
        let ndjson = try await CLI.run(["--profile", "replay", "--format", "ndjson", "--now", "2026-11-21T14:00:00Z"] + urns)
        let lines = ndjson.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.map { $0["urn"] as? String } == urns)
        #expect(lines.indices.allSatisfy { NSDictionary(dictionary: lines[$0]).isEqual(to: array?[$0] ?? [:]) })
    }

    /// CSV holds rows back only until its header is known: the whole report when short, the
    /// first 1,000 rows when long; a field first seen after the header goes to `data.more`.
    @Test func longCSVStreamsAndKeepsLateFields() async throws {
        let input = Array(repeating: "pass:snoqualmie", count: 1000) + ["moon:now", "pass:stevens"]
        let result = try await CLI.run(["--profile", "replay", "--format", "csv", "-"], stdin: input.joined(separator: "\n"))
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 1003)
        let header = rows[0].split(separator: ",").map(String.init)
        #expect(header.last == "data.more")
        #expect(!header.contains("data.phase"))
        let moonRow = rows[1001]
        #expect(moonRow.hasPrefix("moon:now,true,"))
        #expect(moonRow.contains("\"{\"\"data.phase\"\":"), "the moon's fields are kept as JSON: \(moonRow)")
        #expect(rows[1002].hasPrefix("pass:stevens,true,") && rows[1002].hasSuffix(","), "a pass has no extra fields")

        // A short report keeps its exact header, with no extra column.
        let short = try await CLI.run(["--profile", "replay", "--format", "csv", "pass:snoqualmie", "moon:now"])
        let shortHeader = short.stdout.components(separatedBy: "\r\n")[0]
        #expect(shortHeader.contains("data.phase") && !shortHeader.contains("data.more"))
    }
}
