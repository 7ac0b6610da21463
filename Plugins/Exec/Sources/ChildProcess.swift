import Foundation
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a program through swift-subprocess: in its own process group with a clean signal
/// state and a minimal environment, fed `input` on stdin, its stdout and stderr collected, ended
/// by deadline, output limit or cancellation.
///
/// - stdin is an unlinked regular file holding the request, not a pipe: the host never writes
///   to a pipe the program may have stopped reading, so a program that ignores its input cannot
///   raise SIGPIPE in the host (which keeps SIGPIPE at its default for its own stdout), and no
///   thread waits for the program to read.
/// - swift-subprocess resets every signal disposition and the signal mask in the child, and
///   closes every descriptor above 2, whatever the host or a library in it set.
/// - stdout and stderr are read as they come (swift-subprocess's epoll loop), never blocking a
///   thread of the cooperative pool. When the program exits, reading stops even if something
///   it left behind still holds the pipes, and its group is killed.
/// - Ending a program always signals its whole process group, so a shell script's `sleep` dies
///   with it.
struct ChildProcess: Sendable {
    /// The absolute path of the program.
    let executable: String
    /// argv, including argv[0].
    let arguments: [String]
    /// The child's whole environment.
    let environment: [String: String]
    let workingDirectory: String
    /// Seconds from spawn until the program is terminated.
    let timeout: Double
    /// More stdout than this ends the program.
    let maxOutputBytes: Int
    /// How much of the end of stderr is kept for error messages.
    static let stderrTailBytes = 2048
    /// How long a program has to exit after SIGTERM before SIGKILL.
    static let terminationGrace: Duration = .seconds(1)

    /// How a run ended and what it printed.
    struct Outcome: Sendable, Equatable {
        enum Ending: Sendable, Equatable {
            /// The program exited with this status.
            case exited(Int32)
            /// The program was killed by this signal (not by us).
            case signaled(Int32)
            /// The deadline passed; the group was terminated.
            case timedOut
            /// stdout passed `maxOutputBytes`; the group was killed.
            case outputTooLarge
            /// The task was cancelled; the group was killed.
            case cancelled
        }

        var ending: Ending
        var stdout: Data
        /// The last `stderrTailBytes` of stderr.
        var stderrTail: Data
        /// Whether stderr was longer than the tail kept.
        var stderrTruncated: Bool
    }

    /// The program could not be started at all.
    struct SpawnError: Error, Sendable, Equatable {
        let step: String
        let reason: String
    }

    /// Runs the program to completion without blocking the caller's thread; cancelling the
    /// task kills the program's group.
    func run(input: Data) async throws(SpawnError) -> Outcome {
        let stdin: FileDescriptor
        do { stdin = try Self.requestFile(holding: input) } catch {
            throw SpawnError(step: "writing the request to a temporary file", reason: "\(error)")
        }
        // Ours alone: swift-subprocess duplicates it onto the child's 0 and leaves it open.
        defer { try? stdin.close() }

        var options = PlatformOptions()
        // 0: the program leads a new group whose ID is its PID, so `kill(-pid, …)` reaches
        // everything it starts that does not leave the group on purpose.
        options.processGroupID = 0
        // Cancellation: SIGKILL to the whole group at once; nobody waits for the answer.
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let state = RunState()
        let (started, startedContinuation) = AsyncStream<pid_t>.makeStream()
        let limit = maxOutputBytes
        let environment = Environment.custom(Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        }))

        let finished: Result<ExecutionResult<Collected, SequenceOutput, SequenceOutput>, any Error>? =
            await withTaskGroup(of: TaskResult.self) { group in
                group.addTask { [options, executable, arguments, workingDirectory] in
                    defer { startedContinuation.finish() }
                    do {
                        let result = try await Subprocess.run(
                            .path(FilePath(executable)),
                            arguments: Arguments(executablePathOverride: arguments.first, remainingValues: Array(arguments.dropFirst())),
                            environment: environment,
                            workingDirectory: FilePath(workingDirectory),
                            platformOptions: options,
                            input: .fileDescriptor(stdin, closeAfterSpawningProcess: false),
                            output: .sequence,
                            error: .sequence
                        ) { execution in
                            let pid = execution.processIdentifier.value
                            state.started(pid)
                            startedContinuation.yield(pid)
                            let errors = execution.standardError
                            async let tail = Self.readTail(errors)
                            let stdout = try await Self.readHead(execution.standardOutput, limit: limit) { state.overflow() }
                            let (stderrTail, truncated) = try await tail
                            // Both pipes are at end of file, or the program has exited (and
                            // swift-subprocess stopped reading). Not reaped yet, its PID still
                            // names its group: kill what it left behind.
                            state.killLeftoversIfExited()
                            return Collected(stdout: stdout, stderrTail: stderrTail, stderrTruncated: truncated)
                        }
                        state.reaped()
                        return .finished(.success(result))
                    } catch {
                        state.reaped()
                        return .finished(.failure(error))
                    }
                }
                group.addTask { [timeout] in
                    var iterator = started.makeAsyncIterator()
                    guard await iterator.next() != nil else { return .timer }
                    do { try await Task.sleep(for: .milliseconds(Int64((timeout * 1000).rounded()))) } catch { return .timer }
                    state.terminate()
                    do { try await Task.sleep(for: Self.terminationGrace) } catch { return .timer }
                    state.forceKill()
                    return .timer
                }

                var finished: Result<ExecutionResult<Collected, SequenceOutput, SequenceOutput>, any Error>?
                for await result in group {
                    guard case .finished(let outcome) = result else { continue }
                    finished = outcome
                    group.cancelAll()
                }
                return finished
            }

        let cancelled = Task.isCancelled
        switch finished {
        case .success(let result)?:
            let collected = result.closureResult
            let ending: Outcome.Ending
            if cancelled {
                ending = .cancelled
            } else if state.wasTimedOut {
                ending = .timedOut
            } else if state.didOverflow {
                ending = .outputTooLarge
            } else {
                switch result.terminationStatus {
                case .exited(let code): ending = .exited(Int32(code))
                case .signaled(let signal): ending = .signaled(Int32(signal))
                }
            }
            return Outcome(ending: ending, stdout: collected.stdout, stderrTail: collected.stderrTail, stderrTruncated: collected.stderrTruncated)
        case .failure(let error)? where !cancelled:
            // Started or not: a failure reading its pipes comes after a successful spawn.
            throw SpawnError(step: state.hasStarted ? "reading its output" : "spawn", reason: "\(error)")
        case .failure?, nil:
            return Outcome(ending: .cancelled, stdout: Data(), stderrTail: Data(), stderrTruncated: false)
        }
    }

    /// What the read loops collected.
    struct Collected: Sendable {
        var stdout: Data
        var stderrTail: Data
        var stderrTruncated: Bool
    }

    /// stdout up to one byte past `limit`; `overflowed` is called (once) when it gets there,
    /// and reading stops.
    private static func readHead(_ output: SubprocessOutputSequence, limit: Int, overflowed: () -> Void) async throws -> Data {
        var data = Data()
        for try await chunk in output {
            chunk.withUnsafeBytes { data.append(contentsOf: $0.prefix(limit + 1 - data.count)) }
            if data.count > limit {
                overflowed()
                break
            }
        }
        return data
    }

    /// The last `stderrTailBytes` of stderr, read to its end so the program never blocks on it.
    private static func readTail(_ errors: SubprocessOutputSequence) async throws -> (Data, Bool) {
        var data = Data()
        var truncated = false
        for try await chunk in errors {
            chunk.withUnsafeBytes { data.append(contentsOf: $0) }
            if data.count > 4 * stderrTailBytes {
                data = Data(data.suffix(stderrTailBytes))
                truncated = true
            }
        }
        if data.count > stderrTailBytes {
            data = Data(data.suffix(stderrTailBytes))
            truncated = true
        }
        return (data, truncated)
    }

    /// An unlinked temporary file holding `bytes`, positioned at its start: the program's stdin.
    /// Readable at any size without anyone writing to a pipe, and gone with its last descriptor.
    static func requestFile(holding bytes: Data) throws -> FileDescriptor {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/conditions-exec-XXXXXX".utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let fd = FileDescriptor(rawValue: raw)
        do {
            // Not left behind even if the host dies before the program runs; mkstemp made it
            // 0600, so the request's options are not readable by others meanwhile either.
            guard unlink(template.withUnsafeBufferPointer { $0.baseAddress! }) == 0 else { throw Errno(rawValue: errno) }
            // Only the program (through its stdin, duplicated at spawn) may inherit it, not a
            // program another thread is starting at the same moment.
            guard fcntl(raw, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno(rawValue: errno) }
            _ = try fd.writeAll(bytes)
            _ = try fd.seek(offset: 0, from: .start)
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }
}

/// What the two tasks racing over one run report back.
private enum TaskResult: Sendable {
    case finished(Result<ExecutionResult<ChildProcess.Collected, SequenceOutput, SequenceOutput>, any Error>)
    case timer
}

/// State one run shares between its read loops, its timer and the code collecting them.
///
/// Every signal to the group is sent under the lock and only before the program is reaped:
/// until then its PID, which is the group's ID, cannot be handed to another process. The read
/// loops run before swift-subprocess reaps (it waits with WNOWAIT until the body returns); the
/// timer can fire in the instant between the reaping and `reaped()`, when a PID just freed is
/// not handed out again (Linux allocates PIDs in sequence).
private final class RunState: Sendable {
    private struct State {
        var pgid: pid_t?
        var reaped = false
        var timedOut = false
        var overflowed = false
    }
    private let state = Mutex(State())

    var wasTimedOut: Bool { state.withLock { $0.timedOut } }
    var didOverflow: Bool { state.withLock { $0.overflowed } }
    var hasStarted: Bool { state.withLock { $0.pgid != nil } }

    func started(_ pid: pid_t) { state.withLock { $0.pgid = pid } }

    /// Called just after swift-subprocess has reaped the program (or failed to start it).
    func reaped() { state.withLock { $0.reaped = true } }

    /// stdout passed the limit: SIGKILL to the group, as nothing it prints now can be used.
    func overflow() {
        state.withLock { state in
            state.overflowed = true
            if !state.reaped, let pgid = state.pgid { _ = kill(-pgid, SIGKILL) }
        }
    }

    /// The deadline: SIGTERM to the group of a program still running.
    func terminate() {
        state.withLock { state in
            guard !state.reaped, let pgid = state.pgid else { return }
            state.timedOut = true
            _ = kill(-pgid, SIGTERM)
        }
    }

    /// The grace after SIGTERM has passed and the program is still running.
    func forceKill() {
        state.withLock { state in
            guard !state.reaped, let pgid = state.pgid else { return }
            _ = kill(-pgid, SIGKILL)
        }
    }

    /// SIGKILL to the group once the program has exited (a zombie, not yet reaped): nothing it
    /// left running can hold its pipes open or outlive the answer. A program that closed its
    /// pipes and runs on is left to the deadline.
    func killLeftoversIfExited() {
        state.withLock { state in
            guard !state.reaped, let pgid = state.pgid else { return }
            var info = siginfo_t()
            // WNOWAIT: look without reaping; swift-subprocess reaps it.
            let result = waitid(P_PID, id_t(pgid), &info, WEXITED | WNOHANG | WNOWAIT)
            guard result == 0, info._sifields._sigchld.si_pid == pgid else { return }
            _ = kill(-pgid, SIGKILL)
        }
    }
}
