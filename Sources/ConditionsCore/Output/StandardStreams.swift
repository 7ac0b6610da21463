import ConditionsProcess
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
// The module's own `write(_:to:)` hides the C function's name inside this module.
private let systemWrite = Glibc.write
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemRead = Darwin.read
#endif

/// The one path every byte the process prints takes: plain write(2) calls whose every error
/// ends the run with a one-line message and a documented status, never a trap.
///
/// `FileHandle.write` traps on EPIPE, EBADF and ENOSPC, and a closed descriptor 0, 1 or 2
/// would be handed to the next file we open (the config), so `prepare()` runs first in `main`.
///
/// - A closed pipe on stdout with SIGPIPE at its default never reaches us: the kernel ends
///   the process with SIGPIPE (status 141 in a shell), the way `cat`, `grep` and `jq` end.
/// - With SIGPIPE ignored by whoever started us (systemd, `trap '' PIPE`), write(2) returns
///   EPIPE instead: one line on stderr and exit status 3.
/// - Any other error (`/dev/full`, a full disk, `>&-`): one line naming the stream and the
///   error, exit status 3.
/// - stderr failing has nobody to tell; what it would have said is dropped and the exit
///   status still says how the run went.
package enum StandardStreams {
    /// Exit status for output that could not be written (README, exit codes).
    package static let outputFailureStatus: Int32 = 3

    /// Descriptors 0–2 that were closed when the process started; they now hold /dev/null so
    /// no file we open takes their number, and this set says to treat them as closed.
    private static let closedAtStart = Mutex<Set<Int32>>([])

    /// Occupies closed standard descriptors (see the type's comment). Call before opening anything.
    package static func prepare() {
        var closed: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free number, which is this one.
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor { close(opened) }
            closed.insert(descriptor)
        }
        if !closed.isEmpty { closedAtStart.withLock { $0 = closed } }
    }

    /// Whether `descriptor` was closed when the process started.
    static func wasClosed(_ descriptor: Int32) -> Bool {
        closedAtStart.withLock { $0.contains(descriptor) }
    }

    /// Writes all of `text` to stdout, or ends the process as the type's comment says.
    static func writeOutput(_ text: String) {
        guard !text.isEmpty else { return }
        if wasClosed(STDOUT_FILENO) { failOutput(errno: EBADF) }
        if let failure = writeAll(text, to: STDOUT_FILENO) { failOutput(errno: failure) }
    }

    /// Writes all of `text` to stderr; a failure drops the text (nobody is left to tell).
    static func writeError(_ text: String) {
        guard !text.isEmpty, !wasClosed(STDERR_FILENO) else { return }
        _ = writeAll(text, to: STDERR_FILENO)
    }

    /// write(2) until every byte is out; returns the errno that stopped it, or nil.
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var written = 0
            while written < buffer.count {
                let count = systemWrite(descriptor, base + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
    }

    /// Ends the run because stdout cannot take more: quietly by SIGPIPE when that is what the
    /// reader expects, else with one line and status 3.
    static func failOutput(errno code: Int32) -> Never {
        if code == EPIPE, !sigpipeIgnored() {
            // Only reachable from the closed-reader check in `watch` (a real write would have
            // been killed already): end the conventional way.
            raise(SIGPIPE)
        }
        let reason = code == EBADF ? "it is closed" : String(cString: strerror(code))
        let advice = code == EPIPE ? " (the reading end was closed)" : ""
        writeError("conditions: cannot write to standard output: \(reason)\(advice)\n")
        exit(outputFailureStatus)
    }

    private static func sigpipeIgnored() -> Bool { InterruptSignals.isIgnored(SIGPIPE) }

    /// Whether stdout is a pipe or socket whose reading end has gone: poll(2) reports POLLERR
    /// or POLLHUP for it without writing anything. Files and terminals never are.
    static func outputReaderGone() -> Bool {
        var descriptor = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        guard poll(&descriptor, 1, 0) == 1 else { return false }
        return descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0
    }

    /// Sleeps for `seconds` (watch's interval), waking once a second to see whether stdout's
    /// reader has gone, so `watch … | head -1` ends within a second even when nothing changes.
    package static func sleepWatchingOutput(seconds: Double) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while true {
            if !wasClosed(STDOUT_FILENO), outputReaderGone() { failOutput(errno: EPIPE) }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return }
            try await Task.sleep(for: min(left, .seconds(1)))
        }
    }

    /// Everything on stdin, or nil with the reason when it cannot be read (closed, a folder).
    /// A closed stdin reads as empty, like `< /dev/null`.
    package static func readInput() -> Result<String, InputError> {
        if wasClosed(STDIN_FILENO) { return .success("") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EBADF { return .success("") }
                return .failure(InputError(description: "cannot read standard input: \(String(cString: strerror(errno)))"))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Standard input could not be read (too large, not text, an I/O error).
    package struct InputError: Error, CustomStringConvertible {
        /// The reason, one line.
        package let description: String
    }
}

/// Writes `text` to stdout or stderr through `StandardStreams`.
package func write(_ text: String, to stream: StandardStream) {
    switch stream {
    case .standardOutput: StandardStreams.writeOutput(text)
    case .standardError: StandardStreams.writeError(text)
    }
}

/// The two output streams.
package enum StandardStream {
    case standardOutput, standardError
}
