/// Admission for the calls that resolve URNs (`resolve`, `resources/read`): at most
/// `maximumRunning` at once, up to `maximumWaiting` more waiting their turn in arrival order,
/// and any beyond that refused at once.
///
/// The SDK starts a task for every request it reads, with no limit; a client sending
/// thousands of calls would otherwise start thousands of resolutions together (files, upstream
/// requests, results in memory). With the limiter the work in progress is bounded, a refused
/// call costs one short error reply, and cheap requests (`routes`, `tools/list`), which do not
/// pass through here, are answered meanwhile.
package actor CallLimiter {
    /// What `acquire` decided.
    package enum Admission: Sendable, Equatable {
        /// The call may run; call `release()` when it is done.
        case admitted
        /// `maximumRunning` calls are running and `maximumWaiting` are waiting.
        case refused
        /// The call's task was cancelled while it waited.
        case cancelled
    }

    /// Calls allowed to run at once.
    package let maximumRunning: Int
    /// Calls allowed to wait for a turn.
    package let maximumWaiting: Int
    private var running = 0
    private var waiting: [(ticket: UInt64, continuation: CheckedContinuation<Admission, Never>)] = []
    private var nextTicket: UInt64 = 0

    /// A limiter letting `running` calls run and `waiting` more wait.
    package init(running: Int, waiting: Int) {
        precondition(running > 0 && waiting >= 0)
        maximumRunning = running
        maximumWaiting = waiting
    }

    /// Waits for a turn, in arrival order. Every `.admitted` must be paired with `release()`.
    package func acquire() async -> Admission {
        if running < maximumRunning {
            running += 1
            return .admitted
        }
        guard waiting.count < maximumWaiting else { return .refused }
        let ticket = nextTicket
        nextTicket += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Still on this actor: nothing can run between the check and the append.
                if Task.isCancelled {
                    continuation.resume(returning: .cancelled)
                } else {
                    waiting.append((ticket, continuation))
                }
            }
        } onCancel: {
            // Runs after the append above: the actor is busy until the continuation is stored.
            Task { await self.withdraw(ticket) }
        }
    }

    /// Ends a call admitted by `acquire`: the longest-waiting call takes its turn.
    package func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume(returning: .admitted)
        }
    }

    /// Calls running and waiting now.
    package var load: (running: Int, waiting: Int) { (running, waiting.count) }

    private func withdraw(_ ticket: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiting.remove(at: index).continuation.resume(returning: .cancelled)
    }
}
