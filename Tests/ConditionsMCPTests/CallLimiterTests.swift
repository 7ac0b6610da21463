import Testing
@testable import ConditionsMCP

/// Admission of resolving calls: a bounded number run, a bounded number wait in order, the
/// rest are refused, and a cancelled waiter leaves the queue.
@Suite struct CallLimiterTests {
    struct Load: Equatable {
        let running: Int, waiting: Int
        init(_ running: Int, _ waiting: Int) { self.running = running; self.waiting = waiting }
    }

    /// Yields until the limiter has `waiting` calls queued (calls reach the actor in no fixed
    /// order relative to this task).
    func waitUntil(_ limiter: CallLimiter, waiting: Int) async {
        while await limiter.load.waiting != waiting { await Task.yield() }
    }

    func load(_ limiter: CallLimiter) async -> Load {
        let (running, waiting) = await limiter.load
        return Load(running, waiting)
    }

    @Test func runsWaitsInOrderAndRefusesBeyondTheQueue() async throws {
        let limiter = CallLimiter(running: 2, waiting: 2)
        #expect(await limiter.acquire() == .admitted)
        #expect(await limiter.acquire() == .admitted)
        let first = Task { await limiter.acquire() }
        await waitUntil(limiter, waiting: 1)
        let second = Task { await limiter.acquire() }
        await waitUntil(limiter, waiting: 2)
        #expect(await limiter.acquire() == .refused)
        #expect(await load(limiter) == Load(2, 2))

        // Each release hands the slot to the longest-waiting call.
        await limiter.release()
        #expect(await first.value == .admitted)
        #expect(await limiter.load.waiting == 1)
        await limiter.release()
        #expect(await second.value == .admitted)
        #expect(await load(limiter) == Load(2, 0))
        await limiter.release()
        await limiter.release()
        #expect(await load(limiter) == Load(0, 0))
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let limiter = CallLimiter(running: 1, waiting: 1)
        #expect(await limiter.acquire() == .admitted)
        let waiter = Task { await limiter.acquire() }
        await waitUntil(limiter, waiting: 1)
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        #expect(await load(limiter) == Load(1, 0))
        // Its place is free again, and the running call's slot is untouched.
        let next = Task { await limiter.acquire() }
        await waitUntil(limiter, waiting: 1)
        await limiter.release()
        #expect(await next.value == .admitted)
    }
}
