import Synchronization

/// What `work` returns, or nil when it has not returned within `timeout`: for calls into
/// something this process does not control (a shared store across the network), which must
/// never hold a request however they fail. `work` is cancelled at the deadline but not waited
/// for: one that ignores cancellation finishes in the background and its value is dropped.
func withinDeadline<Value: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> Value) async -> Value? {
    let outcome = FirstOutcome<Value?>()
    return await withCheckedContinuation { continuation in
        outcome.wait(continuation)
        let worker = Task {
            let value = await work()
            outcome.settle(value)
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if outcome.settle(nil) { worker.cancel() }
        }
        outcome.whenSettled { timer.cancel() }
    }
}

/// The first of several racing outcomes, handed to one waiting continuation exactly once.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var settled = false
        var onSettle: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Runs `action` once the outcome is settled (at once if it already is).
    func whenSettled(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.settled { return true }
            state.onSettle = action
            return false
        }
        if now { action() }
    }

    /// Hands `value` to the waiting continuation if nothing did before; true when this did.
    @discardableResult
    func settle(_ value: Value) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<Value, Never>, (@Sendable () -> Void)?)? in
            guard !state.settled, let continuation = state.continuation else { return nil }
            state.settled = true
            state.continuation = nil
            defer { state.onSettle = nil }
            return (continuation, state.onSettle)
        }
        guard let (continuation, onSettle) = taken else { return false }
        continuation.resume(returning: value)
        onSettle?()
        return true
    }
}
