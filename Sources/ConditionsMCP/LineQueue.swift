import DequeModule
import Foundation

/// The hand-off from the thread reading stdin to the server taking messages, holding at most
/// `budget` bytes of lines (a longer line passes alone). The reading thread waits for room,
/// so a client writing faster than the server takes messages fills the pipe and is held back
/// by it, instead of filling this process's memory.
///
/// `@unchecked Sendable`: every stored property is read and written only with `condition`
/// locked. The reading thread may wait on the condition (it is a thread of its own); the
/// async side only takes the lock for a few instructions and never waits on it.
final class LineQueue: @unchecked Sendable {
    let budget: Int
    private let condition = NSCondition()
    private var lines: Deque<Data> = []
    private var bytes = 0
    private var finished = false
    private var consumer: CheckedContinuation<Data?, Never>?

    /// A queue holding at most `budget` bytes of lines.
    init(budget: Int) { self.budget = budget }

    /// Bytes of lines queued now.
    var queuedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }

    /// From the reading thread: hands `line` to a waiting consumer or queues it, first
    /// waiting while the queue is full. Dropped once the queue is finished.
    func put(_ line: Data) {
        condition.lock()
        while bytes > 0, bytes + line.count > budget, !finished { condition.wait() }
        guard !finished else {
            condition.unlock()
            return
        }
        if let waiting = consumer {
            // A consumer waits only on an empty queue, so order is kept.
            consumer = nil
            condition.unlock()
            waiting.resume(returning: line)
            return
        }
        lines.append(line)
        bytes += line.count
        condition.unlock()
    }

    /// Ends the queue: lines still queued are taken first, then `take` returns nil; a
    /// waiting `put` returns.
    func finish() {
        condition.lock()
        finished = true
        let waiting = lines.isEmpty ? consumer : nil
        if waiting != nil { consumer = nil }
        condition.broadcast()
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    /// The next line, waiting for one; nil once the queue is finished and empty, or when the
    /// calling task is cancelled.
    func take() async -> Data? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Data?, Never>) in
                condition.lock()
                if let line = lines.popFirst() {
                    bytes -= line.count
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: line)
                } else if finished || Task.isCancelled {
                    condition.unlock()
                    continuation.resume(returning: nil)
                } else {
                    consumer = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            condition.lock()
            let waiting = consumer
            consumer = nil
            condition.unlock()
            waiting?.resume(returning: nil)
        }
    }
}
