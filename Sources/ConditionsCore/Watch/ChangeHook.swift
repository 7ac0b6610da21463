import ConditionsKit
import Foundation
import Logging
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// `watch --exec`: runs a program for each change, argv only (no shell), with the change event
/// as JSON on stdin and `CONDITIONS_URN`, `CONDITIONS_STATUS`, `CONDITIONS_PREVIOUS_STATUS` in
/// its environment.
///
/// The contract a hook gets, and why:
/// - stdin is an unlinked regular file holding the event, not a pipe, so writing it never
///   blocks watch and a hook that ignores it (`true`, `notify-send`) is normal;
/// - it starts with a clean signal mask and default dispositions (swift-subprocess resets both;
///   watch itself ignores SIGINT/SIGTERM for its dispatch sources) in a process group of its
///   own, so one signal reaches the hook and everything it started;
/// - its stdout and stderr are watch's stderr descriptor itself: nothing it prints can land
///   inside watch's stdout lines, and watch never waits on a pipe a grandchild might hold;
/// - watch waits for the hook process only (pidfd, off the cooperative pool); after `timeout`
///   its group gets SIGTERM, then SIGKILL after `grace`;
/// - every outcome but exit 0 is one log line.
package struct ChangeHook: Sendable {
    let argv: [String]
    /// A hook that hangs is killed after this long, so one stuck notifier cannot stop watching.
    var timeout: Duration = .seconds(30)
    /// How long a timed-out hook's group has between SIGTERM and SIGKILL.
    var grace: Duration = .seconds(2)

    /// `--exec notify-send --exec "Pass changed"` or `--exec '["notify-send", "Pass changed"]'`.
    package init(arguments: [String], timeout: Duration = .seconds(30)) throws(Failure) {
        if arguments.count == 1, let first = arguments.first, first.hasPrefix("[") {
            guard let value = try? JSONValue.parse(first), let array = value.arrayValue,
                  let strings = Optional(array.compactMap(\.stringValue)), strings.count == array.count, !strings.isEmpty
            else { throw Failure.usage("--exec: \(first) is not a JSON array of strings") }
            argv = strings
        } else {
            argv = arguments
        }
        guard let program = argv.first, !program.isEmpty else { throw Failure.usage("--exec: no program given") }
        self.timeout = timeout
    }

    /// How one run ended; everything but `.succeeded` is logged.
    package enum Outcome: Equatable, Sendable {
        case succeeded
        case exited(Int32)
        case signalled(Int32)
        /// Ran past the timeout; `killed` when its group still had members after the grace.
        case timedOut(killed: Bool)
        case notFound
        case cannotRun(String)
    }

    /// Runs the hook for one change and logs its outcome unless it exited 0. Returns when the
    /// hook process has ended (at most `timeout` plus `grace`), not when its descendants have.
    @discardableResult
    package func run(event: JSONValue, urn: String, status: String, previous: String?, logger: Logger) async -> Outcome {
        let outcome: Outcome
        do {
            let eventFile = try Self.eventFile(holding: Array((event.serialized() + "\n").utf8))
            // Ours alone: swift-subprocess duplicates it onto the child's 0 and never closes it.
            defer { try? eventFile.close() }
            outcome = await execute(stdin: eventFile, environment: [
                "CONDITIONS_URN": urn,
                "CONDITIONS_STATUS": status,
                "CONDITIONS_PREVIOUS_STATUS": previous ?? "",
            ])
        } catch {
            outcome = .cannotRun("cannot write the event to a temporary file: \(error)")
        }
        if let message = describe(outcome, urn: urn) { logger.error("\(message)") }
        return outcome
    }

    /// The log line for `outcome`, nil for success.
    func describe(_ outcome: Outcome, urn: String) -> String? {
        let name = "--exec \(argv[0])"
        switch outcome {
        case .succeeded: return nil
        case .exited(let code): return "\(name): exited with status \(code) for \(urn)"
        case .signalled(let signal): return "\(name): killed by \(Self.signalName(signal)) for \(urn)"
        case .timedOut(let killed):
            let how = killed ? "SIGTERM to its process group, then SIGKILL after \(Self.seconds(grace)) s" : "SIGTERM to its process group"
            return "\(name): timed out after \(Self.seconds(timeout)) s for \(urn); ended with \(how)"
        case .notFound: return "\(name): cannot run: no such program\(argv[0].contains("/") ? "" : " on PATH")"
        case .cannotRun(let reason): return "\(name): cannot run: \(reason)"
        }
    }

    private func execute(stdin eventFile: FileDescriptor, environment: [Environment.Key: String?]) async -> Outcome {
        let program = argv[0]
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        var options = PlatformOptions()
        // 0: the hook leads a new group whose ID is its PID, so `kill(-pid, …)` reaches
        // everything it starts that does not leave the group on purpose.
        options.processGroupID = 0
        let run = HookRun()
        let (started, startedContinuation) = AsyncStream<pid_t>.makeStream()

        return await withTaskGroup(of: HookTaskResult.self) { group in
            group.addTask { [options] in
                do {
                    let result = try await Subprocess.run(
                        executable,
                        arguments: Arguments(Array(argv.dropFirst())),
                        environment: .inherit.updating(environment),
                        platformOptions: options,
                        input: .fileDescriptor(eventFile, closeAfterSpawningProcess: false),
                        output: .fileDescriptor(.standardError, closeAfterSpawningProcess: false),
                        error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false)
                    ) { execution in
                        let pid = execution.processIdentifier.value
                        RunningHooks.insert(pid)
                        run.started(pid)
                        startedContinuation.yield(pid)
                        startedContinuation.finish()
                    }
                    return .finished(.success(result.terminationStatus))
                } catch {
                    startedContinuation.finish()
                    return .finished(.failure(error))
                }
            }
            group.addTask { [timeout, grace] in
                var iterator = started.makeAsyncIterator()
                guard let pgid = await iterator.next() else { return .timer }
                do { try await Task.sleep(for: timeout) } catch { return .timer }
                guard run.terminate(pgid) else { return .timer }
                // Cancelled early only once the whole group is gone, so SIGKILL is then moot.
                do { try await Task.sleep(for: grace) } catch { return .timer }
                run.forceKill(pgid)
                return .timer
            }

            var termination: Result<TerminationStatus, any Error>?
            for await result in group {
                guard case .finished(let finished) = result else { continue }
                termination = finished
                if let pgid = run.pgid { RunningHooks.remove(pgid) }
                // The hook itself has ended. Wait out the grace only for a timed-out hook
                // whose group still has members (a child ignoring SIGTERM).
                if !run.wasTerminated || !run.groupHasMembers() { group.cancelAll() }
            }
            switch termination {
            case .success? where run.wasTerminated:
                return .timedOut(killed: run.wasKilled)
            case .success(.exited(let code))?:
                return code == 0 ? .succeeded : .exited(Int32(code))
            case .success(.signaled(let signal))?:
                return .signalled(Int32(signal))
            case .failure(let error as SubprocessError)? where error.code == .executableNotFound:
                return .notFound
            case .failure(let error)?:
                return .cannotRun("\(error)")
            case nil:
                return .cannotRun("no result")
            }
        }
    }

    /// An unlinked temporary file holding `bytes`, positioned at its start. As the hook's stdin
    /// it takes any size without blocking anyone, and vanishes with its last descriptor.
    static func eventFile(holding bytes: [UInt8]) throws -> FileDescriptor {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/conditions-event-XXXXXX".utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let fd = FileDescriptor(rawValue: raw)
        do {
            // Not left behind even if watch dies before the hook runs.
            guard unlink(template.withUnsafeBufferPointer { $0.baseAddress! }) == 0 else { throw Errno(rawValue: errno) }
            // Only the hook (through its stdin, duplicated at spawn) may inherit it.
            guard fcntl(raw, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno(rawValue: errno) }
            _ = try fd.writeAll(bytes)
            _ = try fd.seek(offset: 0, from: .start)
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// `30`, `1.5`: durations as the log lines print them.
    private static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `SIGSEGV` rather than a number: signal numbers differ between platforms.
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// `kill(-pgid, signal)`; false when no process in the group could be signalled.
private func signalGroup(_ pgid: pid_t, _ signal: Int32) -> Bool {
    kill(-pgid, signal) == 0
}

/// What the two tasks racing over one hook run report back.
private enum HookTaskResult: Sendable {
    case finished(Result<TerminationStatus, any Error>)
    case timer
}

/// State one hook run shares between its process task, its timer and the code collecting them.
private final class HookRun: Sendable {
    private struct State {
        var pgid: pid_t?
        var terminated = false
        var killed = false
    }
    private let state = Mutex(State())

    var pgid: pid_t? { state.withLock { $0.pgid } }
    var wasTerminated: Bool { state.withLock { $0.terminated } }
    var wasKilled: Bool { state.withLock { $0.killed } }

    func started(_ pid: pid_t) { state.withLock { $0.pgid = pid } }

    /// SIGTERM to the group; false when there was no group left to signal.
    func terminate(_ pgid: pid_t) -> Bool {
        state.withLock { state in
            // Under the lock so the collector sees `terminated` and the signal as one step.
            guard signalGroup(pgid, SIGTERM) else { return false }
            state.terminated = true
            return true
        }
    }

    func forceKill(_ pgid: pid_t) {
        state.withLock { state in
            if signalGroup(pgid, SIGKILL) { state.killed = true }
        }
    }

    /// Whether any process is left in the group (signal 0 only checks).
    func groupHasMembers() -> Bool {
        guard let pgid else { return false }
        return signalGroup(pgid, 0)
    }
}

/// Process groups of the hooks running now, for the SIGINT/SIGTERM handler: watch exits from
/// a signal handler, and must not leave a hook behind when it does.
package enum RunningHooks {
    private static let groups = Mutex<Set<pid_t>>([])

    static func insert(_ pgid: pid_t) { _ = groups.withLock { $0.insert(pgid) } }
    static func remove(_ pgid: pid_t) { _ = groups.withLock { $0.remove(pgid) } }

    /// SIGTERM to every running hook's group.
    package static func terminateAll() {
        groups.withLock { groups in
            for pgid in groups { _ = signalGroup(pgid, SIGTERM) }
        }
    }
}
