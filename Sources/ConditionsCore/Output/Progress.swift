import Foundation
import Synchronization

/// "resolving 12/40" on stderr while a long report runs: only when stderr is a terminal,
/// never when piped or with `--quiet`, and erased before the results print.
package final class Progress: Sendable {
    /// Reports shorter than this finish before progress would be worth showing.
    static let minimumCount = 5
    private let lastShown = Mutex<Int>(-1)
    /// Results printing to the same terminal as they arrive must not land mid-line.
    private let sharesTerminalWithOutput = isatty(STDOUT_FILENO) == 1

    /// A progress line on stderr when it is a terminal, `enabled` and the report long enough; else nil.
    package static func onTerminal(enabled: Bool, total: Int) -> Progress? {
        guard enabled, total >= minimumCount, isatty(STDERR_FILENO) == 1 else { return nil }
        return Progress()
    }

    /// Shows `done` of `total`.
    package func update(_ done: Int, _ total: Int) {
        let shouldShow = lastShown.withLock { last in
            guard done > last else { return false }
            last = done
            return true
        }
        if shouldShow { write("\r\u{1B}[2Kresolving \(done)/\(total)", to: .standardError) }
    }

    /// Erases the line before a result prints on the same terminal; the next update redraws it.
    package func clear() {
        if sharesTerminalWithOutput { write("\r\u{1B}[2K", to: .standardError) }
    }

    /// Removes the progress line for good.
    package func finish() {
        write("\r\u{1B}[2K", to: .standardError)
    }
}
