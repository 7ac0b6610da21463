import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The poll loop that feeds a spawned program its stdin, drains its stdout and stderr,
/// watches for its exit and enforces the deadline and the output limit.
struct Supervisor {
    private let pid: pid_t
    private var stdin: Int32
    private let input: Data
    private var written = 0
    private var stdout: Stream
    private var stderr: Stream
    /// Set once the program has exited and been reaped.
    private var status: Int32?

    init(child: ChildProcess.Spawned, input: Data, maxOutputBytes: Int) {
        pid = child.pid
        stdin = child.stdin
        stdout = Stream(fd: child.stdout, keep: .head(maxOutputBytes + 1))
        stderr = Stream(fd: child.stderr, keep: .tail(ChildProcess.stderrTailBytes))
        self.input = input
    }

    /// Runs until the program has exited and both its pipes are closed, or until it must be
    /// ended. The program is always reaped before this returns.
    mutating func supervise(deadline: ContinuousClock.Instant, cancelled: CancellationFlag) -> ChildProcess.Outcome {
        if input.isEmpty { Self.closeFD(&stdin) }
        while true {
            if status == nil, hasExited() {
                // Kill what it left behind in its group before reaping, while the zombie
                // still holds the group id so it cannot name an unrelated group.
                signalGroup(SIGKILL)
                status = reap()
            }
            if let status, !stdout.isOpen, !stderr.isOpen { return outcome(Self.ending(status)) }
            if cancelled.isSet { return end(.cancelled, gracefully: false) }
            let remaining = deadline - .now
            if remaining <= .zero { return end(.timedOut, gracefully: true) }

            var fds: [pollfd] = []
            if stdin >= 0 { fds.append(pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0)) }
            if stdout.isOpen { fds.append(pollfd(fd: stdout.fd, events: Int16(POLLIN), revents: 0)) }
            if stderr.isOpen { fds.append(pollfd(fd: stderr.fd, events: Int16(POLLIN), revents: 0)) }
            // poll cannot wait for an exit, so it wakes regularly to look; more often once
            // the output pipes are closed and an exit is all that is left to see.
            let interval: Duration = stdout.isOpen || stderr.isOpen ? .milliseconds(50) : .milliseconds(2)
            let wait = min(interval, remaining)
            let milliseconds = max(1, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&fds, nfds_t(fds.count), Int32(milliseconds)) > 0 else { continue }

            for entry in fds where entry.revents != 0 {
                if entry.fd == stdin {
                    writeInput()
                } else if entry.fd == stdout.fd {
                    stdout.drain()
                    if stdout.overflowed { return end(.outputTooLarge, gracefully: false) }
                } else if entry.fd == stderr.fd {
                    stderr.drain()
                }
            }
        }
    }

    /// Closes whatever pipe ends are still open.
    mutating func closeAll() {
        Self.closeFD(&stdin)
        stdout.close()
        stderr.close()
    }

    // MARK: Ending

    /// Ends the program's whole group, by SIGTERM with a grace period or by SIGKILL, reaps
    /// the program and reports `ending`.
    private mutating func end(_ ending: ChildProcess.Outcome.Ending, gracefully: Bool) -> ChildProcess.Outcome {
        if status == nil {
            if gracefully {
                signalGroup(SIGTERM)
                let grace = ContinuousClock.now + .milliseconds(Int64(ChildProcess.terminationGrace * 1000))
                while !hasExited(), ContinuousClock.now < grace {
                    // Keep stderr flowing so a program printing as it dies is not blocked.
                    stderr.drain()
                    usleep(10_000)
                }
            }
            // SIGKILL to the group even after a graceful exit: children may ignore SIGTERM.
            signalGroup(SIGKILL)
            status = reap()
        }
        stderr.drain()
        return outcome(ending)
    }

    private func outcome(_ ending: ChildProcess.Outcome.Ending) -> ChildProcess.Outcome {
        ChildProcess.Outcome(ending: ending, stdout: stdout.data, stderrTail: stderr.data, stderrTruncated: stderr.truncated)
    }

    private static func ending(_ status: Int32) -> ChildProcess.Outcome.Ending {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Whether the program has exited, without reaping it.
    private func hasExited() -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        return result == 0 && info._sifields._sigchld.si_pid == pid
    }

    private func signalGroup(_ signal: Int32) {
        // ESRCH (the group is already gone) is the expected, harmless failure.
        _ = kill(-pid, signal)
    }

    /// Waits for the program (which has exited or been sent SIGKILL) and returns its status.
    private func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return status }
        }
        return status
    }

    // MARK: Pipes

    private mutating func writeInput() {
        let result = input.withUnsafeBytes { bytes -> Int in
            guard let start = bytes.baseAddress else { return 0 }
            return write(stdin, start + written, bytes.count - written)
        }
        if result > 0 { written += result }
        if written == input.count { Self.closeFD(&stdin); return }
        // EPIPE: the program stopped reading (or never did); what it prints still counts.
        if result < 0, errno != EAGAIN, errno != EINTR { Self.closeFD(&stdin) }
    }

    fileprivate static func closeFD(_ fd: inout Int32) {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }
}

/// One of the program's output pipes and what has been read from it.
private struct Stream {
    enum Keep {
        /// Keep the first `n` bytes; reading stops there (stdout: n is one past the limit).
        case head(Int)
        /// Keep only the last `n` bytes, reading everything (stderr).
        case tail(Int)
    }

    private(set) var fd: Int32
    let keep: Keep
    private(set) var data = Data()
    /// Whether bytes were dropped from the front (tail mode).
    private(set) var truncated = false

    init(fd: Int32, keep: Keep) {
        self.fd = fd
        self.keep = keep
    }

    var isOpen: Bool { fd >= 0 }

    var overflowed: Bool {
        if case .head(let limit) = keep { return data.count >= limit }
        return false
    }

    /// Reads what is available without blocking, closing the pipe at end of file.
    mutating func drain() {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while isOpen, !overflowed {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                if case .tail(let size) = keep, data.count > 4 * size {
                    data = Data(data.suffix(size))
                    truncated = true
                }
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                break
            } else {
                close()
            }
        }
        if case .tail(let size) = keep, data.count > size {
            data = Data(data.suffix(size))
            truncated = true
        }
    }

    mutating func close() {
        Supervisor.closeFD(&fd)
    }
}
