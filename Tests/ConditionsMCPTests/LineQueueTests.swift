import Foundation
import Testing
@testable import ConditionsMCP

/// The stdin hand-off: lines in order, never more than the budget queued, a long line alone.
@Suite struct LineQueueTests {
    @Test func aFastWriterWaitsForRoomInsteadOfQueueingWithoutBound() async throws {
        let queue = LineQueue(budget: 1000)
        let lines = (0..<60).map { Data(String(format: "%03d", $0).utf8 + Array(repeating: UInt8(ascii: "x"), count: 297)) }
        let snapshots = SnapshotLog()
        let producer = Thread {
            for line in lines {
                queue.put(line)
                snapshots.append(queue.queuedBytes)
            }
            queue.finish()
        }
        producer.start()
        var taken: [Data] = []
        while let line = await queue.take() { taken.append(line) }
        #expect(taken == lines)
        let most = snapshots.values.max() ?? 0
        #expect(most <= 1000, "the reader queued \(most) bytes, over its budget of 1000")
        #expect(snapshots.values.count == lines.count)
    }

    @Test func aLineOverTheBudgetPassesAlone() async throws {
        let queue = LineQueue(budget: 100)
        let long = Data(repeating: UInt8(ascii: "y"), count: 500)
        queue.put(long)
        #expect(queue.queuedBytes == 500)
        #expect(await queue.take() == long)
        queue.finish()
        #expect(await queue.take() == nil)
    }

    @Test func finishingReleasesAWaitingWriterAndEndsTheLines() async throws {
        let queue = LineQueue(budget: 10)
        queue.put(Data("0123456789".utf8))
        let done = SnapshotLog()
        // This put waits for room; finishing the queue lets it return, the line dropped.
        let producer = Thread {
            queue.put(Data("abc".utf8))
            done.append(1)
        }
        producer.start()
        queue.finish()
        #expect(await queue.take() == Data("0123456789".utf8))
        #expect(await queue.take() == nil)
        while done.values.isEmpty { await Task.yield() }
    }
}

/// Values appended from another thread.
final class SnapshotLog: @unchecked Sendable {
    // @unchecked: `storage` is only touched with `lock` held.
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
    var values: [Int] { lock.withLock { storage } }
}
