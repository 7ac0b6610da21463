import Foundation
import Testing
@testable import ConditionsServer

/// The server's memory: bounded by count and bytes, least recently used out first, expired
/// entries before anything fresh, and swept even when nothing needs the room.
@Suite struct MemoryCacheTests {
    let start = ContinuousClock.now

    @Test func theLeastRecentlyUsedGoesFirst() {
        var cache = MemoryCache<String>(limits: .init(entries: 3, bytes: 1 << 20))
        let expires = start + .seconds(300)
        for key in ["a", "b", "c"] { cache.insert(key, for: key, bytes: 10, expires: expires, now: start) }
        #expect(cache.value(for: "a", now: start)?.value == "a")  // a is now the most recent
        cache.insert("d", for: "d", bytes: 10, expires: expires, now: start)
        #expect(cache.count == 3)
        #expect(cache.value(for: "b", now: start) == nil, "b was the least recently used")
        #expect(cache.value(for: "a", now: start) != nil && cache.value(for: "c", now: start) != nil && cache.value(for: "d", now: start) != nil)
        #expect(cache.evictions == 1)
        #expect(cache.bytes == 30)
    }

    @Test func bytesAreBoundedToo() {
        var cache = MemoryCache<Int>(limits: .init(entries: 100, bytes: 1000))
        for index in 0..<50 { cache.insert(index, for: "k\(index)", bytes: 100, expires: start + .seconds(60), now: start) }
        #expect(cache.count == 10)
        #expect(cache.bytes == 1000)
        #expect(Set((0..<50).filter { cache.value(for: "k\($0)", now: start) != nil }) == Set(40..<50))
        // Larger than the whole budget: answered by the caller, never kept.
        cache.insert(-1, for: "huge", bytes: 1001, expires: start + .seconds(60), now: start)
        #expect(cache.value(for: "huge", now: start) == nil)
        #expect(cache.count == 10)
    }

    @Test func expiredEntriesGoBeforeFreshOnes() {
        var cache = MemoryCache<Int>(limits: .init(entries: 3, bytes: 1 << 20))
        cache.insert(1, for: "fresh-old", bytes: 1, expires: start + .seconds(600), now: start)
        cache.insert(2, for: "short", bytes: 1, expires: start + .seconds(5), now: start)
        cache.insert(3, for: "fresh-new", bytes: 1, expires: start + .seconds(600), now: start)
        let later = start + .seconds(10)
        cache.insert(4, for: "newest", bytes: 1, expires: later + .seconds(600), now: later)
        #expect(cache.value(for: "fresh-old", now: later) != nil, "the expired entry went, not the least recently used")
        #expect(cache.value(for: "short", now: later) == nil)
        #expect(cache.count == 3)
    }

    @Test func anExpiredEntryIsNeitherAnsweredNorKept() {
        var cache = MemoryCache<Int>(limits: .standard)
        cache.insert(1, for: "a", bytes: 100, expires: start + .seconds(5), now: start)
        cache.insert(2, for: "b", bytes: 100, expires: start + .seconds(5), now: start)
        cache.insert(3, for: "c", bytes: 100, expires: start + .seconds(3600), now: start)
        #expect(cache.value(for: "a", now: start + .seconds(6)) == nil)
        #expect(cache.count == 2)
        // No lookup of b: the periodic sweep on any lookup drops it.
        _ = cache.value(for: "c", now: start + MemoryCache<Int>.sweepInterval + .seconds(1))
        #expect(cache.count == 1)
        #expect(cache.bytes == 100)
        #expect(cache.evictions == 2)
    }
}
