import Foundation

/// Holds loopback responses (each on its connection's thread) until the test opens it, so a
/// test orders events by what happened, not by sleeping.
public final class Gate: @unchecked Sendable {
    // @unchecked: `isOpen` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var isOpen = false

    public init() {}

    /// Blocks the calling (server) thread until `open()`, or `seconds` at most (forever if nil).
    public func wait(atMost seconds: Double? = nil) {
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        condition.lock()
        while !isOpen {
            if let deadline { guard condition.wait(until: deadline) else { break } } else { condition.wait() }  // wall-clock-ok: how long the caller lets the gate hold a request, a scripted fault, not a bound on a test
        }
        condition.unlock()
    }

    public func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}
