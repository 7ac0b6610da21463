import Foundation
import TestHarness
import Subprocess
import Synchronization
import Testing
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// `watch --exec` hooks through the binary: hooks that ignore stdin, are missing, hang, leave
/// daemons behind, chatter, crash or get a huge event, and SIGTERM to watch itself.
///
/// Every test watches one URN served by an Exec script that flips between open and closed on
/// each fetch, so each poll after the first is a change and runs the hook once.
@Suite struct WatchHookTests {
    /// A config folder whose `pass:{name}` answers alternate open/closed; `padding` bytes of
    /// filler in each result make the change event that large.
    static func flippingConfig(padding: Int = 0) throws -> URL {
        let dir = try Upstream.config(
            sources: #""flip": {"module": "Exec", "options": {"command": ["/bin/sh", "flip.sh"], "routes": ["pass:{name}"], "environment": {"PAD": "\#(padding)"}, "timeout": 600}}"#,
            routes: #""pass": "flip""#)
        try script("""
            cat > /dev/null
            n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > count
            if [ $((n % 2)) -eq 1 ]; then status=open; else status=closed; fi
            pad=""
            if [ "$PAD" -gt 0 ]; then pad=$(head -c "$PAD" /dev/zero | tr '\\0' x); fi
            printf '{"data": {"status": "%s", "padding": "%s"}}\\n' "$status" "$pad"
            """, at: dir.appendingPathComponent("flip.sh"))
        return dir
    }

    /// Writes an executable `#!/bin/sh` script.
    @discardableResult
    static func script(_ body: String, at url: URL) throws -> URL {
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    /// Shell text writing `value` to `file` atomically, so a test polling for it never reads half.
    static func publish(_ value: String, to file: URL) -> String {
        "echo \(value) > '\(file.path).tmp' && mv '\(file.path).tmp' '\(file.path)'"
    }

    static func pid(in file: URL) -> pid_t? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Running, as opposed to gone or a zombie nobody has reaped yet (an orphan's reaper in a
    /// container may never come).
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    /// Polls `condition` until it holds; suspends between polls rather than blocking a thread
    /// of the shared pool. The two minutes only decide how long a failing test waits.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while !condition() {
            if Date() >= deadline { return false }  // wall-clock-ok: a hang guard: it ends when the condition holds, 2 min after a hang
            try? await Task.sleep(for: .milliseconds(25))
        }
        return true
    }

    /// `conditions` (any command) running in the background with stdout and stderr in files: a hook's
    /// daemon keeping watch's stderr open then holds no pipe that the test reads to its end.
    /// Started through swift-subprocess in a process group of its own; its exit is awaited,
    /// not polled for.
    final class Watch: Sendable {
        let out: URL, err: URL
        private let run: Task<Int32, any Error>
        /// The PID once swift-subprocess has handed it over (nil if the spawn failed). Under a
        /// full parallel suite that can come seconds after the program is running (its task
        /// waits for a thread of the shared pool), so `signal` waits for it: a signal sent on
        /// "no PID yet" was lost, and the program ran on (CI saw watch "not finish").
        private let started: Task<pid_t?, Never>
        private let state: ProcessState
        private let arguments: [String]
        private let signals = Mutex<[String]>([])

        /// `program` is the binary itself unless a test needs a wrapper (a shell that sets up
        /// the process first).
        init(_ arguments: [String], in dir: URL, program: String = CLI.binary.path, path: String = "/usr/bin:/bin", environment: [String: String] = [:]) throws {
            out = dir.appendingPathComponent("watch.out")
            err = dir.appendingPathComponent("watch.err")
            let outFile = try FileDescriptor.open(FilePath(out.path), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: .ownerReadWrite)
            let errFile: FileDescriptor
            do {
                errFile = try FileDescriptor.open(FilePath(err.path), .writeOnly, options: [.create, .truncate, .closeOnExec], permissions: .ownerReadWrite)
            } catch {
                try? outFile.close()
                throw error
            }
            let variables = ["PATH": path, "HOME": CLI.home.path, "TZ": "UTC"]
                .merging(environment) { $1 }
            var options = PlatformOptions()
            options.processGroupID = 0
            let state = ProcessState()
            self.state = state
            self.arguments = arguments
            let (pids, announce) = AsyncStream<pid_t>.makeStream()
            started = Task {
                var iterator = pids.makeAsyncIterator()
                return await iterator.next()
            }
            run = Task {
                defer { announce.finish() }
                let result = try await Subprocess.run(
                    .path(FilePath(program)),
                    arguments: Arguments(arguments),
                    environment: .custom(Dictionary(uniqueKeysWithValues: variables.compactMap { name, value in Environment.Key(rawValue: name).map { ($0, value) } })),
                    workingDirectory: FilePath(dir.path),
                    platformOptions: options,
                    input: .none,
                    output: .fileDescriptor(outFile, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errFile, closeAfterSpawningProcess: true)
                ) { execution in
                    let pid = execution.processIdentifier.value
                    state.value.withLock { $0.pid = pid }
                    announce.yield(pid)
                }
                state.value.withLock { $0.ended = true }
                switch result.terminationStatus {
                case .exited(let code): return Int32(code)
                case .signaled(let signal): return 128 + Int32(signal)
                }
            }
        }

        /// Sends `signal` to the process once its PID is known, unless it has been reaped.
        func signal(_ signal: Int32) async {
            _ = await started.value
            let sent: String = state.value.withLock { state in
                guard !state.ended, let pid = state.pid else { return "not sent (ended: \(state.ended))" }
                return kill(pid, signal) == 0 ? "sent" : "kill failed: errno \(errno)"
            }
            signals.withLock { $0.append("\(signal): \(sent)") }
        }

        /// What a test that timed out needs to know: the signals sent, and the process's signal
        /// state and threads as /proc shows them.
        var processReport: String {
            let pid = state.value.withLock { $0.pid }
            var report = "signals: \(signals.withLock { $0 })"
            guard let pid else { return report + "; never started" }
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let lines = status.split(separator: "\n").filter { ["State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt", "Threads"].contains($0.split(separator: ":").first.map(String.init) ?? "") }
            report += "; /proc/\(pid): \(lines.joined(separator: ", "))"
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks.sorted() {
                let base = "/proc/\(pid)/task/\(task)"
                let name = ((try? String(contentsOfFile: base + "/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines)
                let wchan = (try? String(contentsOfFile: base + "/wchan", encoding: .utf8)) ?? "?"
                let blocked = ((try? String(contentsOfFile: base + "/status", encoding: .utf8)) ?? "").split(separator: "\n").first { $0.hasPrefix("SigBlk") } ?? ""
                report += "; \(task) \(name) \(wchan) \(blocked)"
            }
            return report
        }

        /// Waits for watch to exit; a watch still running after `seconds` has its group killed
        /// and the test fails.
        func finish(within seconds: Double = 60) async -> Bool {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask { _ = try? await self.run.value; return true }
                group.addTask {
                    do { try await Task.sleep(for: .milliseconds(Int64(seconds * 1000))) } catch { return true }
                    return false
                }
                let finished = await group.next() ?? false
                if !finished {
                    Issue.record("\(arguments.first ?? "conditions") did not finish within \(seconds) s; stderr: \(stderr); \(processReport)")
                    state.value.withLock { state in
                        if !state.ended, let pid = state.pid { kill(-pid, SIGKILL) }
                    }
                }
                group.cancelAll()
                return finished
            }
        }

        /// The exit status (128 + the signal when killed by one), once `finish` returned true.
        var status: Int32 {
            get async { (try? await run.value) ?? -1 }
        }
        var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
        func stderrLines(containing text: String) -> [String] {
            stderr.split(separator: "\n").map(String.init).filter { $0.contains(text) }
        }
    }

    /// `watch` on the flipping URN for `polls` polls a second apart.
    static func watchArguments(polls: Int, _ extra: [String]) -> [String] {
        ["watch", "--no-cache", "--every", "1s", "--count", "\(polls)", "--format", "ndjson"] + extra + ["pass:flip"]
    }

    // MARK: Hooks that do not read stdin

    @Test func hookThatIgnoresStdinIsNormal() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try Watch(Self.watchArguments(polls: 3, ["--exec", "true"]), in: dir)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 3, "an initial line and two changes: \(watch.stdout)")
        #expect(watch.stderrLines(containing: "--exec").isEmpty, "\(watch.stderr)")
    }

    @Test func missingProgramIsOneLogLinePerChangeAndWatchGoesOn() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try Watch(Self.watchArguments(polls: 3, ["--exec", "nonexistent-prog"]), in: dir)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 3)
        let lines = watch.stderrLines(containing: "--exec nonexistent-prog")
        #expect(lines.count == 2, "\(watch.stderr)")
        #expect(lines.allSatisfy { $0.contains("cannot run: no such program on PATH") })
    }

    @Test func hugeEventReachesAHookThatDoesNotReadIt() async throws {
        // The hook's deadline runs from its start, so on a loaded machine it can come before the
        // hook has written what it saw; such a run shows nothing, and the next try allows longer.
        for timeout in [1, 5, 25] {
            let dir = try Self.flippingConfig(padding: 200_000)
            defer { try? FileManager.default.removeItem(at: dir) }
            let size = dir.appendingPathComponent("size"), pid = dir.appendingPathComponent("hook.pid")
            // Sizes stdin without reading it, then hangs like a hook that never reads.
            let hook = try Self.script("""
                \(Self.publish("$(stat -L -c %s /dev/stdin) $(test -f /dev/stdin && echo file)", to: size))
                \(Self.publish("$$", to: pid))
                exec sleep 1000
                """, at: dir.appendingPathComponent("hook.sh"))
            let watch = try Watch(Self.watchArguments(polls: 2, ["--exec-timeout", "\(timeout)s", "--exec", hook.path]), in: dir)
            defer { if let hookPID = Self.pid(in: pid) { kill(hookPID, SIGKILL) } }
            guard await watch.finish() else { return }
            guard Self.pid(in: pid) != nil else { continue }
            #expect(await watch.status == 0, "\(watch.stderr)")
            let recorded = (try? String(contentsOf: size, encoding: .utf8))?.split(separator: " ") ?? []
            #expect(recorded.count == 2 && (Int(recorded[0]) ?? 0) > 200_000, "stdin holds the whole event: \(recorded)")
            #expect(recorded.last == "file\n", "stdin is a regular file")
            #expect(watch.stderrLines(containing: "--exec").count == 1, "\(watch.stderr)")
            #expect(watch.stderrLines(containing: "timed out after \(timeout) s for pass:flip").count == 1, "\(watch.stderr)")
            return
        }
        Issue.record("the hook never wrote what it saw before its deadline, even in 25 s")
    }

    // MARK: Killing

    @Test func timedOutHookLosesItsWholeProcessGroup() async throws {
        // The hook's deadline runs from its start, so on a loaded machine SIGTERM can come before
        // the grandchild has set its trap; the hook's PID file, written only once the
        // grandchild has published its own after the trap, tells such a run apart (no evidence
        // either way), and the next try allows longer.
        for timeout in [1, 5, 25] {
            let dir = try Self.flippingConfig()
            defer { try? FileManager.default.removeItem(at: dir) }
            let hookPIDFile = dir.appendingPathComponent("hook.pid"), childPIDFile = dir.appendingPathComponent("child.pid")
            // The grandchild ignores SIGTERM, so only the SIGKILL after the grace ends it.
            let child = try Self.script("""
                trap '' TERM
                \(Self.publish("$$", to: childPIDFile))
                exec sleep 1000
                """, at: dir.appendingPathComponent("child.sh"))
            let hook = try Self.script("""
                sh '\(child.path)' &
                until [ -f '\(childPIDFile.path)' ]; do sleep 0.05; done
                \(Self.publish("$$", to: hookPIDFile))
                exec sleep 1000
                """, at: dir.appendingPathComponent("hook.sh"))
            let watch = try Watch(Self.watchArguments(polls: 2, ["--exec-timeout", "\(timeout)s", "--exec", hook.path]), in: dir)
            defer { for file in [hookPIDFile, childPIDFile] { if let pid = Self.pid(in: file) { kill(pid, SIGKILL) } } }
            guard await watch.finish() else { return }
            guard let hookPID = Self.pid(in: hookPIDFile) else { continue }
            #expect(await watch.status == 0, "\(watch.stderr)")
            let lines = watch.stderrLines(containing: "--exec")
            #expect(lines.count == 1, "\(watch.stderr)")
            #expect(lines.first?.contains("timed out after \(timeout) s for pass:flip") == true, "\(watch.stderr)")
            #expect(lines.first?.contains("SIGKILL") == true, "the grandchild ignored SIGTERM: \(watch.stderr)")
            let childPID = try #require(Self.pid(in: childPIDFile))
            #expect(await Self.eventually { !Self.isAlive(hookPID) && !Self.isAlive(childPID) }, "the hook's group is gone")
            return
        }
        Issue.record("the hook's grandchild never set its trap before the hook's deadline, even in 25 s")
    }

    @Test func sigtermToWatchEndsRunningHooks() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hookPIDFile = dir.appendingPathComponent("hook.pid"), childPIDFile = dir.appendingPathComponent("child.pid")
        let hook = try Self.script("""
            sleep 1000 &
            \(Self.publish("$!", to: childPIDFile))
            \(Self.publish("$$", to: hookPIDFile))
            wait
            """, at: dir.appendingPathComponent("hook.sh"))
        let watch = try Watch(Self.watchArguments(polls: 1000, ["--exec-timeout", "10m", "--exec", hook.path]), in: dir)
        defer { for file in [hookPIDFile, childPIDFile] { if let pid = Self.pid(in: file) { kill(pid, SIGKILL) } } }
        let started = await Self.eventually { Self.pid(in: hookPIDFile) != nil && Self.pid(in: childPIDFile) != nil }
        guard started else {
            await watch.signal(SIGKILL)
            Issue.record("the hook never started: \(watch.stderr)")
            return
        }
        let hookPID = try #require(Self.pid(in: hookPIDFile)), childPID = try #require(Self.pid(in: childPIDFile))
        #expect(Self.isAlive(hookPID) && Self.isAlive(childPID))
        await watch.signal(SIGTERM)
        guard await watch.finish(within: 30) else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(await Self.eventually { !Self.isAlive(hookPID) && !Self.isAlive(childPID) }, "the hook's group got SIGTERM")
    }

    // MARK: What a hook leaves behind or prints

    @Test func daemonizingHookDoesNotStallWatch() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let daemonPIDFile = dir.appendingPathComponent("daemon.pid")
        // Its own session, inheriting the hook's stdin, stdout and stderr: a daemon. It outlives
        // watch's 30 s deadline by far, so a stalled test still finds it running.
        let hook = try Self.script("""
            setsid sleep 300 &
            \(Self.publish("$!", to: daemonPIDFile))
            """, at: dir.appendingPathComponent("hook.sh"))
        let watch = try Watch(Self.watchArguments(polls: 2, ["--exec", hook.path]), in: dir)
        defer { if let pid = Self.pid(in: daemonPIDFile) { kill(pid, SIGKILL) } }
        guard await watch.finish(within: 30) else { return }
        let daemonPID = try #require(Self.pid(in: daemonPIDFile))
        #expect(Self.isAlive(daemonPID), "watch finished while the daemon still runs")
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 2)
        #expect(watch.stderrLines(containing: "--exec").isEmpty, "\(watch.stderr)")
    }

    @Test func chattyHookNeverWritesIntoStdout() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        // No newlines, so any byte of it in stdout would break an event line.
        let hook = try Self.script("""
            i=0
            while [ $i -lt 500 ]; do printf 'CHATTY-OUT %d ' $i; printf 'CHATTY-ERR %d ' $i >&2; i=$((i + 1)); done
            """, at: dir.appendingPathComponent("hook.sh"))
        let watch = try Watch(Self.watchArguments(polls: 3, ["--exec", hook.path]), in: dir)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(!watch.stdout.contains("CHATTY"))
        #expect(watch.stdoutLines.count == 3)
        for line in watch.stdoutLines { #expect((try? Upstream.json(line)) != nil, "not JSON: \(line)") }
        #expect(watch.stderr.contains("CHATTY-OUT 499"), "the hook's stdout goes to watch's stderr")
        #expect(watch.stderr.contains("CHATTY-ERR 499"))
    }

    // MARK: Failures are one log line each

    @Test func segfaultingHookIsLoggedWithItsSignal() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try Watch(Self.watchArguments(polls: 2, ["--exec", #"["sh", "-c", "kill -SEGV $$"]"#]), in: dir)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        let lines = watch.stderrLines(containing: "--exec")
        #expect(lines.count == 1, "\(watch.stderr)")
        #expect(lines.first?.contains("--exec sh: killed by SIGSEGV for pass:flip") == true, "\(watch.stderr)")
    }

    @Test func failingHookIsLoggedWithItsStatus() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try Watch(Self.watchArguments(polls: 3, ["--exec", #"["sh", "-c", "exit 3"]"#]), in: dir)
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        let lines = watch.stderrLines(containing: "--exec")
        #expect(lines.count == 2, "one line per change: \(watch.stderr)")
        #expect(lines.allSatisfy { $0.contains("--exec sh: exited with status 3 for pass:flip") }, "\(watch.stderr)")
    }

    @Test func execTimeoutIsValidatedAndDocumented() async throws {
        let bad = try await CLI.run(["watch", "--exec-timeout", "soon", "--exec", "true", "moon:now"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--exec-timeout: \"soon\""), "\(bad.stderr)")
        let help = try await CLI.run(["watch", "--help"])
        #expect(help.stdout.contains("--exec-timeout <duration>"))
        #expect(help.stdout.contains("SIGTERM to its group, then SIGKILL"))
    }

    // MARK: The README

    /// README: `conditions watch pass:stevens --every 5m --exec notify-send --exec "Stevens Pass changed"`,
    /// polled every second instead, with a stand-in notify-send that, like the real one, never reads stdin.
    @Test func readmeNotificationExampleRunsAsWritten() async throws {
        let dir = try Self.flippingConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = dir.appendingPathComponent("bin"), log = dir.appendingPathComponent("notify.log")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Self.script("""
            { printf '%s\\n' "$@"; echo "$CONDITIONS_URN $CONDITIONS_PREVIOUS_STATUS -> $CONDITIONS_STATUS"; } >> '\(log.path)'
            """, at: bin.appendingPathComponent("notify-send"))
        let watch = try Watch(["watch", "pass:stevens", "--every", "1s", "--count", "2", "--exec", "notify-send", "--exec", "Stevens Pass changed"],
                              in: dir, path: "\(bin.path):/usr/bin:/bin")
        guard await watch.finish() else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdoutLines.count == 2)
        #expect(watch.stdoutLines.last?.hasSuffix("pass:stevens  open → closed") == true, "\(watch.stdout)")
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
        #expect(try String(contentsOf: log, encoding: .utf8) == "Stevens Pass changed\npass:stevens open -> closed\n")
    }
}

/// A background program's PID and whether it has been reaped, shared with the task running it.
final class ProcessState: Sendable {
    let value = Mutex<(pid: pid_t?, ended: Bool)>((nil, false))
}
