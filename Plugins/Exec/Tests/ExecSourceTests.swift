import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsProcess
import Foundation
import Logging
import Testing
@testable import Exec

/// Runs real programs (small shell scripts written to a temporary folder) through
/// `ExecSource.resolve`, for the success path and every way a program can fail.
///
/// Time bounds are well under what the failure they guard against would take (a sleep or
/// timeout of 30 s or more) but loose enough for a loaded machine.
@Suite final class ExecSourceTests: Sendable {
    let folder: URL
    /// Seattle with one named place, the clock pinned, no network.
    let contexts = SourceContextBuilder(
        now: Timestamp.parse("2026-11-21T12:46:40Z") ?? Date(),
        places: Places(location: .seattle, named: [("stevens", Place.stevens)]),
        logger: Logger(label: "test"), http: UnavailableHTTPClient(reason: "offline test"))
    let hostEnvironment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8", "SECRET_TOKEN": "hunter2", "AWS_SECRET_ACCESS_KEY": "abc"]

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("exec-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    // MARK: Helpers

    /// Writes `body` as an executable `/bin/sh` script named `name` in the test folder.
    func script(_ name: String, _ body: String) throws {
        let file = folder.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
    }

    func source(_ options: JSONValue) throws -> ExecSource {
        var object = options.objectValue ?? JSONObject()
        if object["routes"] == nil { object["routes"] = ["ferry:{route}"] }
        return try ExecSource(configuration: .testing(instance: "plugin", options: object, configDirectory: folder, logger: Logger(label: "test")),
                              hostEnvironment: hostEnvironment)
    }

    /// A source running `body` as a script, with extra options. The script is run by `sh`
    /// rather than exec'd itself: exec'ing a file just written fails with ETXTBSY when
    /// another thread forks while the write is open, which concurrent tests do.
    ///
    /// Its timeout is 600 s unless `options` gives one: a test of what a program prints must
    /// not read as a timeout because a loaded machine started `sh` slowly (the default 10 s
    /// was outlasted once, at a load average of 10); tests of the timeout say theirs.
    func source(running body: String, _ options: JSONValue = [:]) throws -> ExecSource {
        let name = "plugin-\(UUID().uuidString.prefix(8)).sh"
        try script(name, body)
        var object = options.objectValue ?? JSONObject()
        object["command"] = ["sh", .string(name)]
        if object["timeout"] == nil { object["timeout"] = 600 }
        return try source(.object(object))
    }

    func resolve(_ source: ExecSource, _ urn: String = "ferry:seattle-bainbridge") async throws -> SourceResult {
        try await source.resolve(urn, context: contexts.build())
    }

    /// The `(kind, message)` a resolve fails with.
    func failure(_ source: ExecSource, _ urn: String = "ferry:seattle-bainbridge") async -> (kind: ErrorKind, message: String)? {
        do {
            _ = try await resolve(source, urn)
            return nil
        } catch {
            return ConditionsError.report(error)
        }
    }

    func configurationError(_ options: JSONValue) -> String? {
        do {
            _ = try source(options)
            return nil
        } catch let error as ConditionsError {
            #expect(error.kind == .configuration)
            return error.message
        } catch {
            return "\(error)"
        }
    }

    // MARK: Success

    @Test func theEnvironmentOptionIsDeclaredSecret() {
        #expect(ExecSource.secretOptions == ["environment"])
    }

    @Test func sendsTheRequestOnStdinAndReturnsTheData() async throws {
        let exec = try source(running: #"printf '{"data": '; cat; printf '}'"#, ["options": ["count": 3, "units": "metric"]])
        let result = try await resolve(exec)
        #expect(result.data["urn"] == "ferry:seattle-bainbridge")
        #expect(result.data["route"] == "ferry:{route}")
        #expect(result.data["arguments"] == ["route": "seattle-bainbridge"])
        #expect(result.data["now"] == "2026-11-21T12:46:40Z")
        #expect(result.data["location"]?["name"] == "Seattle")
        #expect(result.data["location"]?["latitude"] == .double(47.6097))
        #expect(result.data["location"]?["timeZone"] == "America/Los_Angeles")
        #expect(result.data["places"] == ["stevens": ["name": "Stevens Pass", "latitude": .double(Place.stevens.latitude), "longitude": .double(Place.stevens.longitude)]])
        #expect(result.data["options"] == ["count": 3, "units": "metric"])
        #expect(result.fetchedAt == nil)
    }

    @Test func argumentsArePercentDecodedAndFetchedAtIsPassedOn() async throws {
        let exec = try source(running: #"printf '{"data": '; cat; printf ', "fetchedAt": "2026-11-21T10:00:00Z"}'"#)
        let result = try await resolve(exec, "ferry:anacortes%2Ffriday-harbor")
        #expect(result.data["urn"] == "ferry:anacortes%2Ffriday-harbor")
        #expect(result.data["arguments"] == ["route": "anacortes/friday-harbor"])
        #expect(result.data["options"] == [:])
        #expect(result.fetchedAt == Timestamp.parse("2026-11-21T10:00:00Z"))
    }

    @Test func runsInTheConfigFolderWithAMinimalEnvironment() async throws {
        let exec = try source(running: #"""
            cat > /dev/null
            printf '{"data": {"cwd": "%s", "env": "%s"}}' "$(pwd -P)" "$(env | cut -d= -f1 | sort | tr '\n' ' ')"
            """#, ["environment": ["FERRY_API_KEY": "k-123"]])
        let result = try await resolve(exec)
        let real = try #require(folder.resolvingSymlinksInPath().path.removingPercentEncoding)
        #expect(result.data["cwd"]?.stringValue == real)
        let names = Set((result.data["env"]?.stringValue ?? "").split(separator: " ").map(String.init))
        #expect(names.isSuperset(of: ["PATH", "HOME", "LANG", "FERRY_API_KEY"]))
        // Only what the shell itself adds (PWD, SHLVL, _) beyond the minimal set.
        #expect(names.isSubset(of: ["PATH", "HOME", "LANG", "TZ", "FERRY_API_KEY", "PWD", "SHLVL", "_", "OLDPWD"]))
        #expect(!names.contains("SECRET_TOKEN") && !names.contains("AWS_SECRET_ACCESS_KEY"))
    }

    @Test func aProgramThatIgnoresItsInputStillAnswers() async throws {
        // 4 MiB of options the program never reads: the host's write fails with EPIPE,
        // which must neither kill the host (SIGPIPE) nor fail the URN.
        let big = String(repeating: "x", count: 4 << 20)
        let exec = try source(running: #"echo '{"data": "ignored the input"}'"#, ["options": ["blob": .string(big)]])
        let result = try await resolve(exec)
        #expect(result.data == "ignored the input")
    }

    @Test func theProgramStartsWithACleanSignalStateInAGroupOfItsOwn() async throws {
        // Ignored dispositions survive exec: were the host's SIG_IGN for SIGPIPE passed on, a
        // plugin writing to a closed pipe would get EPIPE it never expects instead of dying
        // quietly. SIGPIPE stays ignored afterwards, as NIO leaves it in this same test process:
        // restoring a disposition saved here would bring SIGPIPE's default back under a loopback
        // server another test started meanwhile, and a client hanging up on it would then kill
        // the whole test process (what ended run 6 of issue 30's fresh clones).
        signal(SIGPIPE, SIG_IGN)
        let exec = try source(running: #"""
            cat > /dev/null
            printf '{"data": "%s pgid=%s pid=%s"}' "$(grep -E '^Sig(Blk|Ign):' /proc/$$/status | tr '\t\n' '  ')" "$(cut -d' ' -f5 /proc/$$/stat)" "$$"
            """#)
        let report = try #require(try await resolve(exec).data.stringValue)
        let fields = report.split(separator: " ")
        func value(_ name: String) -> UInt64? {
            fields.firstIndex(of: Substring(name)).flatMap { fields.index(after: $0) < fields.endIndex ? UInt64(fields[fields.index(after: $0)], radix: 16) : nil }
        }
        #expect(value("SigBlk:") == 0, "nothing blocked: \(report)")
        // Signals 1-31 (bit n-1 for signal n). 32 and 33 are glibc's own, which its sigaction
        // refuses to change, so swift-subprocess leaves them as the host had them.
        let ignored = try #require(value("SigIgn:"), "\(report)")
        #expect(ignored & 0x7FFF_FFFF == 0, "nothing ignored, SIGPIPE included: \(report)")
        let ids = fields.filter { $0.hasPrefix("pgid=") || $0.hasPrefix("pid=") }.map { $0.split(separator: "=").last ?? "" }
        #expect(ids.count == 2 && ids[0] == ids[1], "leads a process group of its own: \(report)")
    }

    @Test func leftoverBackgroundProcessesDoNotDelayTheAnswer() async throws {
        // The background sleep holds stdout open; the group is killed once the program exits.
        // Judged by the answer, not by the time it took: a host that waited for the end of
        // stdout would meet the 600 s timeout (the sleep lasts an hour) and fail with it.
        let exec = try source(running: #"cat > /dev/null; sleep 3600 & echo '{"data": 1}'"#, ["timeout": 600])
        let result = try await resolve(exec)
        #expect(result.data == 1)
    }

    @Test func runsConcurrentlyAndNoProgramInheritsAnotherOnesPipes() async throws {
        // Each program checks in and waits until all eight have (so they provably overlap),
        // then lists its open descriptors: only its own stdin, stdout, stderr and the one
        // `ls` uses to read the folder, never another program's pipes.
        let barrier = folder.appendingPathComponent("barrier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: barrier, withIntermediateDirectories: true)
        let exec = try source(running: """
            read line
            touch '\(barrier.path)'/$$
            i=0
            while [ "$(ls '\(barrier.path)' | wc -l)" -lt 8 ]; do
              i=$((i+1)); [ $i -gt 400 ] && { echo "only $(ls '\(barrier.path)' | wc -l) of 8 started" >&2; exit 9; }
              sleep 0.05
            done
            printf '{"data": "%s"}' "$(ls /proc/self/fd | tr '\n' ' ')"
            """, ["timeout": 30])
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<8 { group.addTask { try await self.resolve(exec).data } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: "0 1 2 3 ", count: 8))
    }

    @Test func closesEveryDescriptorItOpens() async throws {
        let exec = try source(["command": ["sh", "-c", #"echo '{"data": 1}'"#]])
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))
        for _ in 0..<150 { _ = try await resolve(exec) }
        _ = await failure(try source(["command": ["sh", "-c", "sleep 5"], "timeout": 0.1]))
        // Three pipes a run: leaking even one of them would leave 150 more open for good. The
        // other suites running meanwhile (programs, browsers, brokers, servers: a few descriptors
        // each) open and close theirs, so what is new is looked at until it falls under 140,
        // which a leak never does.
        func opened() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count { !before.contains($0) }
        }
        #expect(await Self.eventually { opened() < 140 }, "\(opened()) descriptors more than before")
    }

    // MARK: Failures

    @Test(.timeLimit(.minutes(5))) func aTimeoutKillsTheProgramAndItsChildrenPromptly() async throws {
        // The shell waits on a child sleep of an hour: both must die, and the answer must not
        // wait for them (an answer that did would come after the test's time limit, failing it).
        // The deadline runs from the spawn, so on a loaded machine it can come before the
        // program has written the sleep's PID; such a run shows nothing, and the next try
        // allows longer.
        for timeout in [2, 10, 30] {
            let pidFile = folder.appendingPathComponent("sleep-\(UUID().uuidString).pid")
            let exec = try source(running: "cat > /dev/null; echo 'started' >&2; sleep 3600 & echo $! > '\(pidFile.path)'; wait", ["timeout": .int(timeout)])
            let error = await failure(exec)
            guard let sleeper = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else { continue }
            #expect(error?.kind == .timeout)
            #expect(error?.message.hasPrefix("sh plugin-") == true)
            #expect(error?.message.contains("timed out after \(timeout) s; stderr: started") == true, "\(error?.message ?? "")")
            // The group had its signal before the answer came; a process dies when it next runs,
            // which on a loaded machine is a moment later, so its state is looked at until then.
            #expect(await Self.eventually { !Self.isRunning(pid: String(sleeper)) }, "the sleep outlived its program")
            return
        }
        Issue.record("the program never wrote its child's PID before its deadline, even in 30 s")
    }

    /// Looks at `condition` until it holds, suspending (not blocking) between looks; false if
    /// the test is cancelled first. No deadline of its own: the test's time limit is what ends
    /// a wait for something that never comes.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        while !condition() {
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return condition() }
        }
        return true
    }

    /// Whether a process is alive: its /proc entry exists and it is not a zombie (which a
    /// container's init may never reap).
    static func isRunning(pid: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    @Test(.timeLimit(.minutes(5))) func aProgramIgnoringSIGTERMIsKilledAfterTheGracePeriod() async throws {
        // The deadline runs from the spawn, so on a loaded machine SIGTERM can come before the
        // shell has set its trap; the file it writes next tells such a run apart (no evidence
        // either way), and the next try allows longer. The sleep lasts an hour: only the SIGKILL
        // after the grace ends it before the test's time limit.
        let ready = folder.appendingPathComponent("trap-set-\(UUID().uuidString)")
        for timeout in [2, 10, 30] {
            let exec = try source(running: "trap '' TERM; : > '\(ready.path)'; sleep 3600", ["timeout": .int(timeout)])
            let started = Date()
            let error = await failure(exec)
            let elapsed = Date().timeIntervalSince(started)
            guard FileManager.default.fileExists(atPath: ready.path) else { continue }
            #expect(error?.kind == .timeout)
            // The 1 s grace was waited out before the SIGKILL.
            #expect(elapsed >= Double(timeout) + 0.9, "\(elapsed) s")  // wall-clock-ok: a lower bound, timed from before the spawn: a stall only lengthens it
            return
        }
        Issue.record("the shell never set its trap before its deadline, even in 30 s")
    }

    @Test func aNonZeroExitReportsTheStatusAndStderr() async throws {
        let exec = try source(running: "echo 'Traceback: something broke' >&2; exit 3")
        let error = await failure(exec)
        #expect(error?.kind == .upstream)
        #expect(error?.message.hasSuffix("exited with status 3; stderr: Traceback: something broke") == true)
    }

    @Test func aNonZeroExitWithAnErrorResponseReportsTheProgramsError() async throws {
        let exec = try source(running: #"echo '{"error": {"kind": "invalidArguments", "message": "bad route"}}'; exit 1"#)
        let error = await failure(exec)
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message == "bad route")
    }

    @Test func aCrashNamesTheSignal() async throws {
        let exec = try source(running: "echo 'about to crash' >&2; kill -SEGV $$")
        let error = await failure(exec)
        #expect(error?.kind == .upstream)
        #expect(error?.message.contains("was killed by signal 11 (SIGSEGV); stderr: about to crash") == true)
    }

    @Test func invalidJSONNamesLineAndColumn() async throws {
        let exec = try source(running: #"echo '{"data": nope}'"#)
        let error = await failure(exec)
        #expect(error?.kind == .badResponse)
        #expect(error?.message.contains("printed invalid JSON at line 1, column 10") == true)
    }

    @Test(.timeLimit(.minutes(5))) func tooMuchOutputStopsTheProgram() async throws {
        // 2 MB against the default 1 MiB limit, then an hour's sleep that must not be waited
        // for: an answer that waited would come after the test's time limit, failing it.
        let exec = try source(running: "head -c 2000000 /dev/zero | tr '\\0' 'a'; sleep 3600", ["timeout": 600])
        let error = await failure(exec)
        #expect(error?.kind == .badResponse)
        #expect(error?.message.hasSuffix("printed more than 1048576 bytes") == true)
    }

    @Test func theOutputLimitIsConfigurable() async throws {
        let exec = try source(running: #"echo '{"data": "0123456789"}'"#, ["maxOutputBytes": 10])
        #expect(await failure(exec)?.message.hasSuffix("printed more than 10 bytes") == true)
    }

    @Test func anErrorResponseKeepsItsKindMessageAndSuggestions() async throws {
        let exec = try source(running: #"echo '{"error": {"kind": "notFound", "message": "no ferry route \"seatle\"", "suggestions": ["ferry:seattle-bainbridge"]}}'"#)
        do {
            _ = try await resolve(exec)
            Issue.record("expected an error")
        } catch let error as ConditionsError {
            #expect(error.kind == .notFound)
            #expect(error.message == "no ferry route \"seatle\"")
            #expect(error.suggestions == ["ferry:seattle-bainbridge"])
            #expect(error.description == "no ferry route \"seatle\"; did you mean ferry:seattle-bainbridge?")
        }
    }

    @Test func errorKindsOutsideTheContractBecomeUpstreamAndMessagesStayOneLine() async throws {
        let unknown = try source(running: #"printf '{"error": {"kind": "rateLimited", "message": "slow\\ndown\\u001b[31m"}}'"#)
        let error = await failure(unknown)
        #expect(error?.kind == .upstream)
        #expect(error?.message == "slow down [31m")
        let network = try source(running: #"echo '{"error": {"kind": "network", "message": "connection refused"}}'"#)
        #expect(await failure(network)?.kind == .network)
    }

    @Test func responsesWithoutDataOrErrorAreRejected() async throws {
        let neither = try source(running: #"echo '{"result": 1}'"#)
        #expect(await failure(neither)?.message.contains("neither \"data\" nor \"error\"") == true)
        let notObject = try source(running: "echo '[1, 2]'")
        #expect(await failure(notObject)?.message.contains("printed array, not an object") == true)
        let badError = try source(running: #"echo '{"error": "oops"}'"#)
        #expect(await failure(badError)?.kind == .badResponse)
        let nothing = try source(running: "echo 'only a warning' >&2")
        #expect(await failure(nothing)?.message.contains("printed nothing; expected one JSON object") == true)
        let badDate = try source(running: #"echo '{"data": 1, "fetchedAt": "yesterday"}'"#)
        #expect(await failure(badDate)?.message.contains("fetchedAt \"yesterday\"") == true)
    }

    @Test func stderrIsCutToItsTailOnOneLine() async throws {
        let exec = try source(running: #"""
            i=0; while [ $i -lt 2000 ]; do echo "noise line $i" >&2; i=$((i+1)); done
            printf 'last\tline\033[0m\n' >&2
            exit 1
            """#)
        let message = try #require(await failure(exec)?.message)
        #expect(message.contains("; stderr: …"))
        #expect(message.hasSuffix("noise line 1999 last line [0m"))
        #expect(!message.contains("noise line 1000 "))
        #expect(message.count < 2200)
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test(.timeLimit(.minutes(5))) func cancellingTheTaskKillsTheProgram() async throws {
        // Cancelled once the program runs (its PID file says so), not after a guessed delay.
        // Judged by the outcome: the program sleeps 900 s under a 600 s timeout, so only a
        // cancelled run ends in CancellationError, with the program gone.
        let pidFile = folder.appendingPathComponent("program-\(UUID().uuidString).pid")
        let exec = try source(running: "echo $$ > '\(pidFile.path).tmp' && mv '\(pidFile.path).tmp' '\(pidFile.path)'; exec sleep 900", ["timeout": 600])
        let task = Task { try await resolve(exec) }
        #expect(await Self.eventually { FileManager.default.fileExists(atPath: pidFile.path) }, "the program never started")
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        let program = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(await Self.eventually { !Self.isRunning(pid: program) }, "the program outlived its cancelled task")
    }

    // MARK: Configuration

    @Test func findsProgramsOnPathOrRelativeToTheConfigFolder() throws {
        let onPath = try source(["command": ["sh", "-c", "true"]])
        #expect(onPath.process.program == "/usr/bin/sh" || onPath.process.program == "/bin/sh")
        try script("relative.sh", "true")
        let relative = try source(["command": ["./relative.sh"]])
        #expect(relative.process.program == folder.appendingPathComponent("relative.sh").standardizedFileURL.path)
        #expect(relative.process.workingDirectory == folder.path)
    }

    @Test func rejectsBadCommands() throws {
        #expect(configurationError([:])?.contains("sources.plugin.options.command: expected the program and its arguments") == true)
        #expect(configurationError(["command": []])?.contains("options.command: expected") == true)
        #expect(configurationError(["command": "python3 x.py"])?.contains("options.command: expected an array of strings") == true)
        #expect(configurationError(["command": ["no-such-program-xyz"]]) == "sources.plugin.options.command[0]: no program \"no-such-program-xyz\" on PATH")
        #expect(configurationError(["command": ["bin/missing.py"]]) == "sources.plugin.options.command[0]: no program at \(folder.appendingPathComponent("bin/missing.py").path)")
        try Data("print(1)".utf8).write(to: folder.appendingPathComponent("plain.py"))
        #expect(configurationError(["command": ["./plain.py"]])?.contains("plain.py is not executable") == true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        #expect(configurationError(["command": ["./sub"]]) == "sources.plugin.options.command[0]: \(folder.appendingPathComponent("sub").path) is not a file")
    }

    @Test func rejectsBadRoutesAndOptions() throws {
        let command: JSONValue = ["sh"]
        #expect(configurationError(["command": command, "routes": []])?.contains("options.routes: expected the URN patterns") == true)
        #expect(configurationError(["command": command, "routes": ["{scheme}:{id}"]])?.contains("routes[0]: \"{scheme}:{id}\" is not a route pattern starting with a scheme") == true)
        #expect(configurationError(["command": command, "routes": ["ferry:{route}", "ferry"]])?.contains("routes[1]") == true)
        #expect(configurationError(["command": command, "timeout": 0])?.contains("options.timeout: 0.0 is outside 0.1…600.0") == true)
        #expect(configurationError(["command": command, "maxOutputBytes": 0])?.contains("options.maxOutputBytes") == true)
        #expect(configurationError(["command": command, "environment": ["N": 1]]) == "sources.plugin.options.environment.N: expected a string, found number")
        #expect(configurationError(["command": command, "options": [1]])?.contains("options.options: expected an object") == true)
        #expect(configurationError(["command": command, "examples": ["ferry:"]])?.contains("options.examples[0]") == true)
        #expect(configurationError(["command": command, "timout": 5])?.contains("options.timout (did you mean \"timeout\"?)") == true)
    }

    @Test func servesItsConfiguredRoutesAndExamples() throws {
        let exec = try source(["command": ["sh"], "routes": ["ferry:{route}", "ferry:all"], "examples": ["ferry:seattle-bainbridge"]])
        #expect(exec.routes.map(\.text) == ["ferry:{route}", "ferry:all"])
        #expect(exec.examples == ["ferry:seattle-bainbridge"])
        #expect(exec.timeout == 10)
        #expect(exec.maxOutputBytes == 1 << 20)
        #expect(exec.process.timeout == .seconds(10))
        #expect(exec.process.output == .collect(limit: 1 << 20, stderrTail: ExecSource.stderrTailBytes))
    }

    @Test func timeoutsAndSignalsReadNaturally() {
        #expect(ExecProtocol.seconds(5) == "5")
        #expect(ExecProtocol.seconds(0.5) == "0.5")
    }
}
