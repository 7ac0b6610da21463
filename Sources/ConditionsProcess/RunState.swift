import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// State one run shares between its read loops, its timer and the code collecting them.
///
/// Signals meant for a running program are sent under the lock and only before it is reaped:
/// until then its PID, which is the group's ID, cannot be handed to another process. The read
/// loops run before swift-subprocess reaps (it waits with WNOWAIT until the body returns).
/// After a timeout, SIGKILL may follow the reaping: a group that still has members keeps its
/// ID from being reused.
final class RunState: Sendable {
    private struct State {
        var pgid: pid_t?
        var reaped = false
        var timedOut = false
        var killed = false
        var overflowed = false
    }
    private let state = Mutex(State())
    let leftovers: SupervisedProcess.Leftovers

    init(leftovers: SupervisedProcess.Leftovers) { self.leftovers = leftovers }

    var wasTimedOut: Bool { state.withLock { $0.timedOut } }
    var wasKilled: Bool { state.withLock { $0.killed } }
    var didOverflow: Bool { state.withLock { $0.overflowed } }
    var hasStarted: Bool { state.withLock { $0.pgid != nil } }
    /// The program's PID (its group's ID) once started.
    var pid: pid_t? { state.withLock { $0.pgid } }

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

    /// The deadline: `signal` to the group of a program still running; false when it had
    /// already ended.
    @discardableResult
    func timeOut(signal: Int32) -> Bool {
        state.withLock { state in
            guard !state.reaped, let pgid = state.pgid else { return false }
            state.timedOut = true
            if kill(-pgid, signal) == 0, signal == SIGKILL { state.killed = true }
            return true
        }
    }

    /// The grace after SIGTERM has passed: SIGKILL to whatever is left of the group.
    func forceKill() {
        state.withLock { state in
            guard let pgid = state.pgid else { return }
            if kill(-pgid, SIGKILL) == 0 { state.killed = true }
        }
    }

    /// Whether any process is left in the group (signal 0 only checks).
    func groupHasMembers() -> Bool {
        state.withLock { state in
            guard let pgid = state.pgid else { return false }
            return kill(-pgid, 0) == 0
        }
    }

    /// With `Leftovers.kill`: SIGKILL to the group once the program has exited (a zombie, not
    /// yet reaped), so nothing it left running can hold its pipes or outlive the answer. A
    /// program that closed its pipes and runs on is left to the deadline.
    func killLeftoversIfExited() {
        guard leftovers == .kill else { return }
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
