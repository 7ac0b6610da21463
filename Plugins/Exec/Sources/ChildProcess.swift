import ExecSupport
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of a program: spawned in its own process group with a minimal environment, fed
/// `input` on stdin, its stdout and stderr collected, ended by deadline or output limit.
///
/// The waiting happens on a dedicated thread (never a cooperative one), polling non-blocking
/// pipes. Ending a program always signals its whole process group, so a shell script's
/// `sleep` dies with it; when the program exits by itself, whatever it left running in its
/// group is killed too, so nothing can hold its pipes open after it answered.
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
    static let terminationGrace = 1.0

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

    /// The program could not be started at all (errno from posix_spawn, pipe, …).
    struct SpawnError: Error, Sendable, Equatable {
        let step: String
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
    }

    /// Runs the program to completion without blocking the caller's thread; cancelling the
    /// task kills the program.
    func run(input: Data) async throws -> Outcome {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
                let thread = Thread {
                    continuation.resume(with: Result { try runBlocking(input: input, cancelled: cancelled) })
                }
                thread.name = "exec \(arguments.first ?? executable)"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Spawns and supervises the program on the calling thread, which it blocks.
    func runBlocking(input: Data, cancelled: CancellationFlag = CancellationFlag()) throws(SpawnError) -> Outcome {
        // Writing to a pipe whose reader has exited raises SIGPIPE in the writing thread.
        // Blocked here, it stays pending on this dedicated thread (which discards it when it
        // ends) and write() returns EPIPE instead, without changing the host's disposition.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)

        let child = try spawn()
        var supervisor = Supervisor(child: child, input: input, maxOutputBytes: maxOutputBytes)
        defer { supervisor.closeAll() }
        return supervisor.supervise(deadline: .now + .milliseconds(Int64((timeout * 1000).rounded())), cancelled: cancelled)
    }

    /// A started program and the parent's ends of its pipes.
    struct Spawned {
        let pid: pid_t
        let stdin: Int32
        let stdout: Int32
        let stderr: Int32
    }

    private func spawn() throws(SpawnError) -> Spawned {
        // Pipes are close-on-exec from birth, so concurrent spawns never inherit each
        // other's ends; dup2 onto 0, 1, 2 clears the flag for this child only.
        let input = try Self.makePipe()
        let output: (read: Int32, write: Int32)
        do { output = try Self.makePipe() } catch { Self.closeAll(input.read, input.write); throw error }
        let errors: (read: Int32, write: Int32)
        do { errors = try Self.makePipe() } catch { Self.closeAll(input.read, input.write, output.read, output.write); throw error }
        // The child's ends are the parent's to close whatever happens; its own ends are
        // returned (or closed on failure).
        defer { Self.closeAll(input.read, output.write, errors.write) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var code = posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, output.write, 1) }
        if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, errors.write, 2) }
        if code == 0 { code = exec_support_actions_chdir(&actions, workingDirectory) }
        // Descriptors the host (or a library in it) opened without close-on-exec stay
        // behind; only glibc before 2.34 cannot do this, and there they are inherited.
        if code == 0 {
            let closing = exec_support_actions_closefrom(&actions, 3)
            if closing != ENOSYS { code = closing }
        }
        // Its own process group (pgid = pid) so it and its children can be ended together;
        // an empty signal mask and default handlers, whatever this thread or the host set
        // (this thread blocks SIGPIPE, and ignored signals survive exec).
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGCHLD] { sigaddset(&defaults, signal) }
        if code == 0 { code = posix_spawnattr_setpgroup(&attributes, 0) }
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &noSignals) }
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &defaults) }
        if code == 0 { code = posix_spawnattr_setflags(&attributes, Int16(truncatingIfNeeded: flags)) }
        guard code == 0 else {
            Self.closeAll(input.write, output.read, errors.read)
            throw SpawnError(step: "prepare", code: code)
        }

        var pid: pid_t = 0
        code = withCStrings(arguments) { argv in
            withCStrings(environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }) { envp in
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        guard code == 0 else {
            Self.closeAll(input.write, output.read, errors.read)
            throw SpawnError(step: "spawn", code: code)
        }
        for fd in [input.write, output.read, errors.read] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        return Spawned(pid: pid, stdin: input.write, stdout: output.read, stderr: errors.read)
    }

    private static func makePipe() throws(SpawnError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        let code = exec_support_pipe_cloexec(&fds)
        guard code == 0 else { throw SpawnError(step: "pipe", code: code) }
        return (fds[0], fds[1])
    }

    private static func closeAll(_ fds: Int32...) {
        for fd in fds where fd >= 0 { _ = close(fd) }
    }
}

/// A NULL-terminated `char *[]` of `strings`, valid for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

/// Set once when the task running a program is cancelled; read by the supervising thread.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
