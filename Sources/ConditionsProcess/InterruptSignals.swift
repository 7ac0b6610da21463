import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP for a host that must end its children before it goes.
///
/// `handle` installs a plain `sigaction` handler at once, in the calling thread, for the whole
/// process: from the moment it returns, no such signal can be lost or take its default action,
/// whichever thread the kernel delivers it to. A signal ignored when `handle` is called stays
/// ignored. The handler only writes the signal's number to a pipe (async-signal-safe); a
/// thread of its own reads it and runs `action` there, where any code may run. (A
/// `DispatchSource`, used before for `watch`, registers later on libdispatch's manager thread
/// and needed the signal ignored meanwhile: a window in which a signal was dropped.)
///
/// ```swift
/// InterruptSignals.endChildren(then: .exit(0))          // watch
/// InterruptSignals.endChildren(then: .dieOfTheSignal)   // a report, conditions mcp
/// ```
package enum InterruptSignals {
    /// How the process ends once its children have been sent SIGTERM.
    package enum Ending: Sendable {
        /// Dies of the signal, as it would have unhandled (130, 143, 129 in a shell).
        case dieOfTheSignal
        /// Exits with this status.
        case exit(Int32)
    }

    /// Ctrl-C, SIGTERM and SIGHUP send SIGTERM to every supervised program's group
    /// (`SupervisedProcess.terminateAll`), then end the process as `ending` says.
    package static func endChildren(then ending: Ending) {
        handle([SIGINT, SIGTERM, SIGHUP]) { signal in
            // Before the children go: their ending fails URNs, and the main path, seeing
            // that, must not exit with its own status first (`yieldToAnEndingSignal`).
            Self.ending.store(true, ordering: .releasing)
            SupervisedProcess.terminateAll()
            switch ending {
            case .dieOfTheSignal: exit(bySignal: signal)
            case .exit(let status): exit(status: status)
            }
        }
    }

    /// Set once a handled signal is ending the process.
    private static let ending = Atomic<Bool>(false)

    /// For the program's own exit: when a handled signal is ending the process, waits for it
    /// to (its thread is about to exit with the status the signal gives: 143 for SIGTERM, not
    /// the 1 of the URNs its children's ending failed); otherwise returns at once. The wait
    /// blocks this thread for the few moments left to the process.
    package static func yieldToAnEndingSignal() {
        guard ending.load(ordering: .acquiring) else { return }
        while true { pause() }
    }

    /// The pipe's write end, for the handler; -1 until `handle` has run. An atomic, so the
    /// handler reads it without a lock (async-signal-safe).
    private static let writeEnd = Atomic<Int32>(-1)
    private static let installed = Mutex(false)

    /// Runs `action` on a thread of its own each time one of `signals` arrives. Call once per
    /// process; a second call is ignored (one action per process, one reader thread).
    static func handle(_ signals: [Int32], _ action: @escaping @Sendable (Int32) -> Void) {
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        // Close-on-exec (pipe2 is not in Swift's Glibc module); swift-subprocess also closes
        // every descriptor above 2 in a child.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        writeEnd.store(ends[1], ordering: .releasing)
        let readEnd = ends[0]
        // A Thread, not a task: it blocks in read(2) for the life of the process, which no
        // thread of the cooperative pool may do.
        let reader = Thread {
            var number: UInt8 = 0
            while true {
                let count = read(readEnd, &number, 1)
                if count == 1 { action(Int32(number)) } else if count < 0 && errno == EINTR { continue } else { return }
            }
        }
        reader.name = "conditions-signals"
        reader.start()
        for signal in signals where !isIgnored(signal) {
            var handler = sigaction()
            handler.__sigaction_handler.sa_handler = { signal in
                let saved = errno
                var number = UInt8(truncatingIfNeeded: signal)
                _ = write(InterruptSignals.writeEnd.load(ordering: .acquiring), &number, 1)
                errno = saved
            }
            sigemptyset(&handler.sa_mask)
            // Interrupted system calls in other threads are restarted, not failed with EINTR.
            handler.sa_flags = SA_RESTART
            _ = sigaction(signal, &handler, nil)
        }
    }

    /// Whether `signal` is ignored now: SIGINT in a shell's background job, SIGHUP under
    /// `nohup` (such a signal stays ignored, as for any program), SIGPIPE in a systemd service.
    package static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        // C function pointers are not Equatable; SIG_IGN is the handler value 1.
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Ends the process at once with `status`, without running exit handlers: another thread
    /// may be anywhere, holding any lock an exit handler might want. Everything Conditions
    /// writes goes out through write(2), so nothing is left in a buffer.
    static func exit(status: Int32) -> Never { _exit(status) }

    /// Ends the process the way `signal` would have, had it not been handled, so a shell sees
    /// 128 + its number: the default action restored and the signal raised again.
    static func exit(bySignal signal: Int32) -> Never {
        Glibc.signal(signal, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, signal)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        raise(signal)
        _exit(128 + signal)
    }
}
