import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// One run of a program, supervised the way every child of Conditions is (`watch --exec`
/// hooks, Exec source programs, WSDOT's page renderer), through swift-subprocess:
///
/// - it leads a process group of its own, so one signal reaches it and everything it starts;
///   swift-subprocess also resets the signal mask and every disposition in the child and
///   closes every descriptor above 2, whatever the host or a library in it set;
/// - stdin is an unlinked regular file holding `input`, never a pipe: the host never writes
///   to a pipe the program may have stopped reading (no EPIPE, no SIGPIPE, no thread waiting);
/// - output is read as it comes on swift-subprocess's event loop, and the process is waited for
///   through a pidfd: no thread of the cooperative pool ever blocks on a child;
/// - after `timeout` its group gets SIGTERM then SIGKILL, or SIGKILL at once (`onTimeout`);
///   cancelling the task kills the group; more output than the limit kills it too.
package struct SupervisedProcess: Sendable {
    /// The child's environment.
    package enum Environment: Sendable, Equatable {
        /// The host's environment with these variables set.
        case inherit(updating: [String: String])
        /// Exactly these variables.
        case exactly([String: String])
    }

    /// Where the child's stdout and stderr go.
    package enum Output: Sendable, Equatable {
        /// stdout collected up to `limit` bytes (more ends the program); the last `stderrTail`
        /// bytes of stderr kept for messages (0: stderr discarded). Both are read to their end,
        /// so the program never blocks writing them.
        case collect(limit: Int, stderrTail: Int)
        /// Both are this process's own stderr descriptor: nothing the child prints can land in
        /// our stdout, and no pipe exists for a grandchild to hold open.
        case standardError
    }

    /// What the deadline does.
    package enum OnTimeout: Sendable, Equatable {
        /// SIGTERM to the group, SIGKILL after `grace` to whatever is left of it.
        case terminate(grace: Duration)
        /// SIGKILL to the group at once: for output nobody will use once it is late.
        case kill
    }

    /// What happens to processes the program started and left running when it ends.
    package enum Leftovers: Sendable, Equatable {
        /// SIGKILL to the group as soon as the program has exited (before it is reaped, so its
        /// PID, the group's ID, cannot have been handed to anyone else).
        case kill
        /// Left alone (a hook may start a daemon on purpose), except after a timeout, when
        /// the group gets its SIGKILL once the grace has passed.
        case keep
    }

    /// A path (containing `/`) or a name looked up on the child's PATH.
    package var program: String
    /// argv[0] as the program sees it; nil: `program`.
    package var argv0: String?
    /// argv after argv[0].
    package var arguments: [String]
    package var environment: Environment
    /// nil: the host's working directory.
    package var workingDirectory: String?
    package var output: Output
    package var timeout: Duration
    package var onTimeout: OnTimeout
    package var leftovers: Leftovers

    /// Every supervised program's group while it runs, so a host interrupted by a signal can
    /// end them all before it exits (`InterruptSignals`).
    static let running = ProcessGroups()

    /// SIGTERM to the group of every supervised program running now: the host is going, and
    /// none of them may outlive it (a hook, an Exec program, a page render).
    package static func terminateAll() { running.signalAll(SIGTERM) }

    package init(program: String, argv0: String? = nil, arguments: [String], environment: Environment = .inherit(updating: [:]),
                 workingDirectory: String? = nil, output: Output, timeout: Duration, onTimeout: OnTimeout,
                 leftovers: Leftovers) {
        self.program = program
        self.argv0 = argv0
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.output = output
        self.timeout = timeout
        self.onTimeout = onTimeout
        self.leftovers = leftovers
    }

    /// How a run ended and what it printed.
    package struct Outcome: Sendable, Equatable {
        package enum Ending: Sendable, Equatable {
            /// The program exited with this status.
            case exited(Int32)
            /// The program was killed by this signal (not by us).
            case signaled(Int32)
            /// The deadline passed and the group was signalled; `killed` when it got SIGKILL.
            case timedOut(killed: Bool)
            /// stdout passed the limit; the group was killed.
            case outputTooLarge
            /// The task was cancelled; the group was killed.
            case cancelled
        }

        package var ending: Ending
        /// The signal the program itself died of, whoever sent it (the deadline's SIGTERM or
        /// SIGKILL included); nil when it exited, or was never waited for (`.cancelled`).
        package var signal: Int32? = nil
        /// stdout (`.collect` only), at most the limit.
        package var stdout: Data
        /// The end of stderr (`.collect` with a tail only).
        package var stderrTail: Data
        /// Whether stderr was longer than the tail kept.
        package var stderrTruncated: Bool
    }

    /// The program could not be started, or its output not read.
    package struct StartError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What failed: `spawn`, `reading its output`, `writing its input to a temporary file`.
        package let step: String
        package let reason: String
        /// No such program (a name not on PATH, a path that does not exist).
        package let programNotFound: Bool

        package var description: String { "\(step) failed: \(reason)" }
    }

    /// Runs the program to completion without blocking the caller's thread.
    package func run(input: Data = Data()) async throws(StartError) -> Outcome {
        let stdin: FileDescriptor
        do { stdin = try UnlinkedFile.holding(input) } catch {
            throw StartError(step: "writing its input to a temporary file", reason: "\(error)", programNotFound: false)
        }
        // Ours alone: swift-subprocess duplicates it onto the child's 0 and leaves it open.
        defer { try? stdin.close() }

        let state = RunState(leftovers: leftovers)
        let (started, startedContinuation) = AsyncStream<pid_t>.makeStream()
        let finished: Result<(TerminationStatus, Collected), any Error>? = await withTaskGroup(of: TaskResult.self) { group in
            group.addTask {
                defer { startedContinuation.finish() }
                let result = await spawn(stdin: stdin, state: state) { pid in startedContinuation.yield(pid) }
                state.reaped()
                return .finished(result)
            }
            group.addTask { [timeout, onTimeout] in
                var iterator = started.makeAsyncIterator()
                guard await iterator.next() != nil else { return .timer }
                do { try await Task.sleep(for: timeout) } catch { return .timer }
                switch onTimeout {
                case .kill:
                    state.timeOut(signal: SIGKILL)
                case .terminate(let grace):
                    guard state.timeOut(signal: SIGTERM) else { return .timer }
                    do { try await Task.sleep(for: grace) } catch { return .timer }
                    state.forceKill()
                }
                return .timer
            }

            var finished: Result<(TerminationStatus, Collected), any Error>?
            for await result in group {
                guard case .finished(let outcome) = result else { continue }
                finished = outcome
                // The program has ended. Only a timed-out group that kept members (one that
                // ignores SIGTERM) waits out the grace for its SIGKILL.
                if !(leftovers == .keep && state.wasTimedOut && state.groupHasMembers()) { group.cancelAll() }
            }
            return finished
        }

        let cancelled = Task.isCancelled
        switch finished {
        case .success((let status, let collected))?:
            let ending: Outcome.Ending
            if cancelled {
                ending = .cancelled
            } else if state.wasTimedOut {
                ending = .timedOut(killed: state.wasKilled)
            } else if state.didOverflow {
                ending = .outputTooLarge
            } else {
                switch status {
                case .exited(let code): ending = .exited(Int32(code))
                case .signaled(let signal): ending = .signaled(Int32(signal))
                }
            }
            var signal: Int32?
            if case .signaled(let number) = status { signal = Int32(number) }
            return Outcome(ending: ending, signal: signal, stdout: collected.stdout, stderrTail: collected.stderrTail,
                           stderrTruncated: collected.stderrTruncated)
        case .failure(let error)? where !cancelled && !(error is CancellationError):
            let notFound = (error as? SubprocessError)?.code == .executableNotFound
            // Started or not: a failure reading its pipes comes after a successful spawn.
            throw StartError(step: state.hasStarted ? "reading its output" : "spawn",
                             reason: notFound ? "no such program" : "\(error)", programNotFound: notFound)
        case .failure?, nil:
            return Outcome(ending: .cancelled, stdout: Data(), stderrTail: Data(), stderrTruncated: false)
        }
    }

    /// Starts the program with the descriptors `output` asks for and collects what it prints.
    private func spawn(stdin: FileDescriptor, state: RunState, started: @Sendable (pid_t) -> Void) async -> Result<(TerminationStatus, Collected), any Error> {
        switch output {
        case .collect(let limit, let tail) where tail > 0:
            return await spawn(stdin: stdin, output: .sequence, error: .sequence, state: state, started: started) { execution in
                async let stderr = Self.readTail(execution.standardError, keeping: tail)
                let stdout = try await Self.readHead(execution.standardOutput, limit: limit) { state.overflow() }
                let (stderrTail, truncated) = try await stderr
                return Collected(stdout: stdout, stderrTail: stderrTail, stderrTruncated: truncated)
            }
        case .collect(let limit, _):
            return await spawn(stdin: stdin, output: .sequence, error: .discarded, state: state, started: started) { execution in
                Collected(stdout: try await Self.readHead(execution.standardOutput, limit: limit) { state.overflow() })
            }
        case .standardError:
            return await spawn(stdin: stdin, output: .fileDescriptor(.standardError, closeAfterSpawningProcess: false),
                               error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false), state: state, started: started) { _ in
                Collected()
            }
        }
    }

    private func spawn<Output: OutputProtocol, ErrorOutput: ErrorOutputProtocol>(
        stdin: FileDescriptor, output: Output, error: ErrorOutput, state: RunState, started: @Sendable (pid_t) -> Void,
        collect: (Execution<FileDescriptorInput, Output, ErrorOutput>) async throws -> Collected
    ) async -> Result<(TerminationStatus, Collected), any Error> {
        var options = PlatformOptions()
        // 0: the program leads a new group whose ID is its PID, so `kill(-pid, …)` reaches
        // everything it starts that does not leave the group on purpose.
        options.processGroupID = 0
        // Cancellation: SIGKILL to the whole group at once; nobody waits for the answer.
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        // Registered from spawn until reaped (the body may return at once: `.standardError`).
        defer { if let pid = state.pid { Self.running.remove(pid) } }
        do {
            let result = try await Subprocess.run(
                executable,
                arguments: Arguments(executablePathOverride: argv0, remainingValues: arguments),
                environment: environment.subprocessEnvironment,
                workingDirectory: workingDirectory.map { FilePath($0) },
                platformOptions: options,
                input: .fileDescriptor(stdin, closeAfterSpawningProcess: false),
                output: output,
                error: error
            ) { execution in
                let pid = execution.processIdentifier.value
                state.started(pid)
                // From here `terminateAll` reaches it; an interrupt in the one task hop between
                // the spawn and this line misses it (swift-subprocess hands the PID over no sooner).
                Self.running.insert(pid)
                started(pid)
                let collected = try await collect(execution)
                // Both pipes are at end of file, or the program has exited (and
                // swift-subprocess stopped reading). Not reaped yet, its PID still names its
                // group: kill what it left behind, if that is the rule.
                state.killLeftoversIfExited()
                return collected
            }
            return .success((result.terminationStatus, result.closureResult))
        } catch {
            return .failure(error)
        }
    }

    /// stdout up to `limit` bytes; `overflowed` is called (once) at the byte past it, and
    /// reading stops.
    private static func readHead(_ output: SubprocessOutputSequence, limit: Int, overflowed: () -> Void) async throws -> Data {
        var data = Data()
        for try await chunk in output {
            chunk.withUnsafeBytes { data.append(contentsOf: $0.prefix(limit + 1 - data.count)) }
            if data.count > limit {
                overflowed()
                return data.prefix(limit)
            }
        }
        return data
    }

    /// The last `keeping` bytes of stderr, read to its end so the program never blocks on it.
    private static func readTail(_ errors: SubprocessOutputSequence, keeping: Int) async throws -> (Data, Bool) {
        var data = Data()
        var truncated = false
        for try await chunk in errors {
            chunk.withUnsafeBytes { data.append(contentsOf: $0) }
            if data.count > 4 * keeping {
                data = Data(data.suffix(keeping))
                truncated = true
            }
        }
        if data.count > keeping {
            data = Data(data.suffix(keeping))
            truncated = true
        }
        return (data, truncated)
    }
}

extension SupervisedProcess.Environment {
    var subprocessEnvironment: Subprocess.Environment {
        func keyed(_ variables: [String: String]) -> [(Subprocess.Environment.Key, String)] {
            variables.compactMap { name, value in Subprocess.Environment.Key(rawValue: name).map { ($0, value) } }
        }
        switch self {
        case .inherit(let updates):
            return .inherit.updating(Dictionary(keyed(updates).map { ($0.0, Optional($0.1)) }, uniquingKeysWith: { first, _ in first }))
        case .exactly(let variables):
            return .custom(Dictionary(keyed(variables), uniquingKeysWith: { first, _ in first }))
        }
    }
}

/// What the read loops collected.
struct Collected: Sendable {
    var stdout = Data()
    var stderrTail = Data()
    var stderrTruncated = false
}

/// What the two tasks racing over one run report back.
private enum TaskResult: Sendable {
    case finished(Result<(TerminationStatus, Collected), any Error>)
    case timer
}
