import ConditionsJSON
import ConditionsKit
import Foundation
import Synchronization
import Testing
@testable import ConditionsMemo

/// The one in-process memo: a source instance's memo, WSDOT's feed and the server's fresh
/// answers. One `make()` per key at a time, values kept while fresh, bounded by count and
/// bytes (least recently used out first, values past their lifetime before anything fresh),
/// and swept even when nothing needs the room.
@Suite struct FreshValuesTests {
    let start = Date(timeIntervalSince1970: 2_000_000_000)

    /// Keeps `value` under `key` as made at `now`, kept until `until`.
    private func keep<Value: Sendable>(_ value: Value, _ key: String, in memory: FreshValues<Value>, at now: Date, for seconds: Double = 300,
                                       bytes: Int = 10) async throws {
        _ = try await memory.made(for: key, now: now) { .init(value: value, madeAt: now, keptUntil: now.addingTimeInterval(seconds), bytes: bytes) }
    }

    @Test func theMemoSharesOneMakeAndKeepsItForMaxAge() async throws {
        let memo = FreshValues<JSONValue>().memo
        let made = Mutex(0)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let make: @Sendable () async throws -> JSONValue = {
            try await Task.sleep(for: .milliseconds(20))
            return .int(made.withLock { $0 += 1; return $0 })
        }
        async let a = memo.value(for: "k", maxAge: 60, now: now, make: make)
        async let b = memo.value(for: "k", maxAge: 60, now: now, make: make)
        #expect(try await [a, b] == [1, 1])
        #expect(try await memo.value(for: "k", maxAge: 60, now: now.addingTimeInterval(59), make: make) == 1)
        #expect(try await memo.value(for: "k", maxAge: 60, now: now.addingTimeInterval(60), make: make) == 2)
        #expect(try await memo.value(for: "other", maxAge: 60, now: now, make: make) == 3)
        // A failure is not kept.
        await #expect(throws: ConditionsError.self) {
            try await memo.value(for: "f", maxAge: 60, now: now) { throw ConditionsError.upstream("down") }
        }
        #expect(try await memo.value(for: "f", maxAge: 60, now: now, make: make) == 4)
    }

    @Test func theMemoKeepsAtMostItsCapacity() async throws {
        let memo = FreshValues<JSONValue>(capacity: 2).memo
        let now = Date(timeIntervalSince1970: 1_000_000)
        _ = try await memo.value(for: "a", maxAge: 60, now: now) { 1 }
        _ = try await memo.value(for: "b", maxAge: 60, now: now.addingTimeInterval(1)) { 2 }
        _ = try await memo.value(for: "c", maxAge: 60, now: now.addingTimeInterval(2)) { 3 }
        // The least recently used ("a") went.
        #expect(try await memo.value(for: "b", maxAge: 60, now: now.addingTimeInterval(3)) { 20 } == 2)
        #expect(try await memo.value(for: "a", maxAge: 60, now: now.addingTimeInterval(3)) { 10 } == 10)
    }

    @Test func theLeastRecentlyUsedGoesFirst() async throws {
        let memory = FreshValues<String>(limits: .init(entries: 3, bytes: 1 << 20))
        for key in ["a", "b", "c"] { try await keep(key, key, in: memory, at: start) }
        #expect(memory.kept(for: "a", now: start)?.value == "a")  // a is now the most recent
        try await keep("d", "d", in: memory, at: start)
        #expect(memory.usage.entries == 3)
        #expect(memory.kept(for: "b", now: start) == nil, "b was the least recently used")
        #expect(["a", "c", "d"].allSatisfy { memory.kept(for: $0, now: start) != nil })
        #expect(memory.usage == .init(entries: 3, bytes: 30, evictions: 1))
    }

    @Test func bytesAreBoundedToo() async throws {
        let memory = FreshValues<Int>(limits: .init(entries: 100, bytes: 1000))
        for index in 0..<50 { try await keep(index, "k\(index)", in: memory, at: start, bytes: 100) }
        #expect(memory.usage.entries == 10 && memory.usage.bytes == 1000)
        #expect(Set((0..<50).filter { memory.kept(for: "k\($0)", now: start) != nil }) == Set(40..<50))
        // Larger than the whole budget: handed to its caller, never kept.
        let huge = try await memory.made(for: "huge", now: start) { .init(value: -1, madeAt: self.start, keptUntil: self.start.addingTimeInterval(60), bytes: 1001) }
        #expect(huge.value == -1)
        #expect(memory.kept(for: "huge", now: start) == nil)
        #expect(memory.usage.entries == 10)
    }

    @Test func valuesPastTheirLifetimeGoBeforeFreshOnes() async throws {
        let memory = FreshValues<Int>(limits: .init(entries: 3, bytes: 1 << 20))
        try await keep(1, "fresh-old", in: memory, at: start, for: 600)
        try await keep(2, "short", in: memory, at: start, for: 5)
        try await keep(3, "fresh-new", in: memory, at: start, for: 600)
        let later = start.addingTimeInterval(10)
        try await keep(4, "newest", in: memory, at: later, for: 600)
        #expect(memory.kept(for: "fresh-old", now: later) != nil, "the value past its lifetime went, not the least recently used")
        #expect(memory.kept(for: "short", now: later) == nil)
        #expect(memory.usage.entries == 3)
    }

    @Test func aValuePastItsLifetimeIsNeitherAnsweredNorKept() async throws {
        let memory = FreshValues<Int>(limits: .init(entries: 4096, bytes: 1 << 20))
        try await keep(1, "a", in: memory, at: start, for: 5, bytes: 100)
        try await keep(2, "b", in: memory, at: start, for: 5, bytes: 100)
        try await keep(3, "c", in: memory, at: start, for: 3600, bytes: 100)
        #expect(memory.kept(for: "a", now: start.addingTimeInterval(6)) == nil)
        #expect(memory.usage.entries == 2)
        // No lookup of b: the periodic sweep on any call drops it.
        _ = memory.kept(for: "c", now: start.addingTimeInterval(FreshValues<Int>.sweepInterval + 1))
        #expect(memory.usage == .init(entries: 1, bytes: 100, evictions: 2))
        // Asked for again, it is made again.
        let again = try await memory.answer(for: "a", now: start.addingTimeInterval(40)) { .init(value: 10, madeAt: self.start) }
        #expect(again.made.value == 10 && again.answer == .made)
    }

    @Test func aValueWithoutLifetimeIsHandedOutAndNotKept() async throws {
        // What the server does with an error: its caller (and whoever joined it) hears it,
        // nobody later does. Joining is proved through the server (1,000 cold clients, one
        // upstream request: ServeTests).
        let memory = FreshValues<Int>(capacity: 8)
        let first = try await memory.answer(for: "k", now: start) { .init(value: 1, madeAt: self.start, keptUntil: self.start) }
        #expect(first.made.value == 1 && first.answer == .made)
        #expect(memory.kept(for: "k", now: start) == nil)
        #expect(memory.usage == .init(entries: 0, bytes: 0, evictions: 0))
        let second = try await memory.answer(for: "k", now: start) { .init(value: 2, madeAt: self.start) }
        #expect(second.made.value == 2 && second.answer == .made)
        let third = try await memory.answer(for: "k", now: start) { .init(value: 3, madeAt: self.start) }
        #expect(third.made.value == 2 && third.answer == .kept)
    }

    @Test func aValueMadeElsewhereIsKeptAsIfMade() {
        let memory = FreshValues<Int>(capacity: 2)
        memory.keep(.init(value: 5, madeAt: start, keptUntil: start.addingTimeInterval(1)), for: "moon")
        #expect(memory.kept(for: "moon", now: start.addingTimeInterval(0.5))?.value == 5)
        #expect(memory.kept(for: "moon", now: start.addingTimeInterval(1)) == nil)
        memory.keep(.init(value: 6, madeAt: start, keptUntil: start), for: "error")
        #expect(memory.kept(for: "error", now: start) == nil)
    }

    @Test func theChangesAreHeardInOrder() async throws {
        let heard = Mutex<[FreshValues<Int>.Usage]>([])
        let memory = FreshValues<Int>(limits: .init(entries: 1, bytes: 100)) { usage in heard.withLock { $0.append(usage) } }
        try await keep(1, "a", in: memory, at: start, bytes: 40)
        try await keep(2, "b", in: memory, at: start, bytes: 60)
        #expect(heard.withLock { $0.last } == .init(entries: 1, bytes: 60, evictions: 1))
        #expect(heard.withLock { $0.map(\.evictions) } == heard.withLock { $0.map(\.evictions) }.sorted())
    }
}
