import ConditionsProcess
import Foundation
import Testing

/// The toolkit's own contract, for the combinations one caller alone does not exercise.
/// Exec's tests (Plugins/Exec/Tests) cover collecting, timeouts and leftovers killed through a
/// plugin; WSDOT's RenderTests the renderer; WatchHookTests the hooks through the binary.
/// No test here times anything: a program's deadline is what it tests, and an outcome (the
/// ending, the signal, what is left running) is what it judges.
@Suite struct SupervisedProcessTests {
    func shell(_ script: String, output: SupervisedProcess.Output = .collect(limit: 1 << 20, stderrTail: 64),
               timeout: Duration = .seconds(60), onTimeout: SupervisedProcess.OnTimeout = .terminate(grace: .seconds(1)),
               leftovers: SupervisedProcess.Leftovers = .kill) -> SupervisedProcess {
        SupervisedProcess(program: "/bin/sh", arguments: ["-c", script], output: output, timeout: timeout, onTimeout: onTimeout, leftovers: leftovers)
    }

    @Test func feedsStdinAndCollectsStdoutStatusAndTheEndOfStderr() async throws {
        let outcome = try await shell("cat; printf 'x%.0s' $(seq 100) >&2; exit 3").run(input: Data("hello\n".utf8))
        #expect(outcome.ending == .exited(3))
        #expect(outcome.stdout == Data("hello\n".utf8))
        #expect(outcome.stderrTail == Data(repeating: UInt8(ascii: "x"), count: 64))
        #expect(outcome.stderrTruncated)
    }

    @Test func anEmptyInputIsAnEmptyStdin() async throws {
        let outcome = try await shell("wc -c").run()
        #expect(outcome.ending == .exited(0))
        #expect(String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func moreOutputThanTheLimitEndsTheProgram() async throws {
        let outcome = try await shell("yes", output: .collect(limit: 1000, stderrTail: 0)).run()
        #expect(outcome.ending == .outputTooLarge)
        #expect(outcome.stdout.count == 1000)
    }

    /// Judged by how the group ended, never by how long it took: the shell died of the
    /// deadline's SIGTERM and no SIGKILL was needed, it printed nothing after, and the sleep it
    /// started in its group no longer runs. The grace is an hour, so SIGKILL can only come if
    /// SIGTERM failed, never because a loaded machine was slow to reap the group; a group that
    /// outlived SIGTERM would hold the test until its time limit, failing it.
    @Test(.timeLimit(.minutes(2))) func theDeadlineSendsSIGTERMToTheGroup() async throws {
        let sleeper = FileManager.default.temporaryDirectory.appendingPathComponent("sleeper-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: sleeper) }
        // The deadline runs from the spawn, so on a loaded machine SIGTERM can come before the
        // shell has started its sleep; the sleep's PID, published once it runs, tells such a run
        // apart (no evidence either way), and the next try allows longer.
        for timeout: Duration in [.milliseconds(200), .seconds(2), .seconds(20)] {
            let outcome = try await shell("sleep 1000 & echo $! > '\(sleeper).tmp' && mv '\(sleeper).tmp' '\(sleeper)'; wait; echo late",
                                          timeout: timeout, onTimeout: .terminate(grace: .seconds(3600))).run()
            guard let text = try? String(contentsOfFile: sleeper, encoding: .utf8),
                  let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            defer { if Self.isRunning(pid) { kill(pid, SIGKILL) } }
            #expect(outcome.ending == .timedOut(killed: false))
            #expect(outcome.signal == SIGTERM, "the shell died of the deadline's SIGTERM")
            #expect(outcome.stdout.isEmpty, "nothing ran after the SIGTERM")
            // The sleep, in the shell's group, was sent the same SIGTERM (and the leftovers'
            // SIGKILL once the shell had gone): it ends as soon as it is scheduled, waited for
            // here by looking until it has, not by a deadline.
            while Self.isRunning(pid) { try await Task.sleep(for: .milliseconds(20)) }
            return
        }
        Issue.record("the shell never started its sleep before its deadline, even in 20 s")
    }

    /// Whether `pid` runs: its /proc entry exists and it is not a zombie (an orphan's reaper in a
    /// container may never come, so an ended sleep can stay one).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
    }

    @Test func aGroupIgnoringSIGTERMGetsSIGKILLAfterTheGrace() async throws {
        // The child keeps the ignored disposition the shell set; only SIGKILL ends them. The
        // deadline runs from the spawn, so on a loaded machine SIGTERM can come before the shell
        // has set its trap; the file it writes next tells such a run apart (no evidence either
        // way), and the next try allows longer.
        let ready = FileManager.default.temporaryDirectory.appendingPathComponent("trap-set-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: ready) }
        for timeout: Duration in [.milliseconds(200), .seconds(2), .seconds(20)] {
            let outcome = try await shell("trap '' TERM; : > '\(ready)'; sleep 1000", timeout: timeout,
                                          onTimeout: .terminate(grace: .milliseconds(200)), leftovers: .keep).run()
            guard FileManager.default.fileExists(atPath: ready) else { continue }
            #expect(outcome.ending == .timedOut(killed: true))
            return
        }
        Issue.record("the shell never set its trap before its deadline, even in 20 s")
    }

    @Test func killOnTimeoutSendsSIGKILLAtOnce() async throws {
        let outcome = try await shell("trap '' TERM; sleep 1000", timeout: .milliseconds(200), onTimeout: .kill).run()
        #expect(outcome.ending == .timedOut(killed: true))
    }

    @Test func keptLeftoversOutliveTheProgram() async throws {
        let outcome = try await shell("sleep 1000 >/dev/null 2>&1 & echo $!", leftovers: .keep).run()
        #expect(outcome.ending == .exited(0))
        let pid = try #require(pid_t(String(decoding: outcome.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        #expect(kill(pid, 0) == 0, "a daemon a hook starts on purpose is left running")
    }

    @Test func aMissingProgramIsAStartError() async throws {
        let process = SupervisedProcess(program: "conditions-no-such-program", arguments: [], output: .standardError,
                                        timeout: .seconds(5), onTimeout: .kill, leftovers: .keep)
        await #expect(throws: SupervisedProcess.StartError.self) { try await process.run() }
        do { _ = try await process.run() } catch { #expect(error.programNotFound) }
    }

    @Test func theEnvironmentIsExactlyWhatWasGiven() async throws {
        let process = SupervisedProcess(program: "/usr/bin/env", arguments: [], environment: .exactly(["ONLY": "this"]),
                                        output: .collect(limit: 4096, stderrTail: 0), timeout: .seconds(30), onTimeout: .kill, leftovers: .kill)
        let outcome = try await process.run()
        #expect(String(decoding: outcome.stdout, as: UTF8.self) == "ONLY=this\n")
    }

    @Test func signalsHaveNames() {
        #expect(SignalName.of(SIGKILL) == "SIGKILL")
        #expect(SignalName.of(64) == nil)
        #expect(SignalName.describe(SIGSEGV) == "SIGSEGV")
        #expect(SignalName.describe(64) == "signal 64")
    }
}
