/// The fresh answers the server keeps in memory, bounded by count and by bytes. An expired
/// entry goes first, then the least recently used; errors and stale answers never enter
/// (`ResultCoordinator`), so whatever is here is fresh or about to be swept.
///
/// Finding the entry to evict scans every entry: at the default 4,096 entries that is a few
/// microseconds, paid only when a miss (a resolution, usually an upstream fetch) inserts into
/// a full cache. A hit costs a dictionary lookup and a counter.
struct MemoryCache<Value> {
    typealias Limits = MemoryCacheLimits

    struct Entry {
        var value: Value
        var expires: ContinuousClock.Instant
        var bytes: Int
        var lastUsed: UInt64
    }

    let limits: Limits
    private(set) var entries: [String: Entry] = [:]
    /// The sum of the entries' `bytes`.
    private(set) var bytes = 0
    /// Entries evicted to stay within the limits or because they expired.
    private(set) var evictions = 0
    private var tick: UInt64 = 0
    private var nextSweep: ContinuousClock.Instant?
    /// Expired entries are swept at most this often, on a lookup, so an answer past its TTL
    /// does not stay in memory until the cache happens to fill.
    static var sweepInterval: Duration { .seconds(30) }

    init(limits: Limits) {
        self.limits = limits
    }

    var count: Int { entries.count }

    /// The value for `key` while fresh, marking it used; an expired one is dropped.
    mutating func value(for key: String, now: ContinuousClock.Instant) -> (value: Value, expires: ContinuousClock.Instant)? {
        if let nextSweep, now >= nextSweep { sweep(now: now) }
        guard let entry = entries[key] else { return nil }
        guard entry.expires > now else {
            remove(key)
            evictions += 1
            return nil
        }
        tick += 1
        entries[key]?.lastUsed = tick
        return (entry.value, entry.expires)
    }

    /// Keeps `value` until `expires`, evicting what the limits require.
    mutating func insert(_ value: Value, for key: String, bytes size: Int, expires: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        remove(key)
        guard size <= limits.bytes, limits.entries > 0 else { return }
        tick += 1
        entries[key] = Entry(value: value, expires: expires, bytes: size, lastUsed: tick)
        bytes += size
        if nextSweep == nil { nextSweep = now + Self.sweepInterval }
        while !entries.isEmpty, entries.count > limits.entries || bytes > limits.bytes {
            evictOne(now: now)
        }
    }

    /// Forgets `key`.
    mutating func remove(_ key: String) {
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
    }

    /// Drops every expired entry, or else the least recently used one.
    private mutating func evictOne(now: ContinuousClock.Instant) {
        var expired: [String] = []
        var oldest: (key: String, used: UInt64)?
        for (key, entry) in entries {
            if entry.expires <= now { expired.append(key) }
            if oldest == nil || entry.lastUsed < oldest!.used { oldest = (key, entry.lastUsed) }
        }
        guard let victims = expired.isEmpty ? oldest.map({ [$0.key] }) : expired else { return }
        for key in victims { remove(key) }
        evictions += victims.count
    }

    private mutating func sweep(now: ContinuousClock.Instant) {
        let before = entries.count
        entries = entries.filter { $0.value.expires > now }
        bytes = entries.values.reduce(0) { $0 + $1.bytes }
        evictions += before - entries.count
        nextSweep = entries.isEmpty ? nil : now + Self.sweepInterval
    }
}

/// How much the server keeps in memory (`"serve": {"cacheEntries", "cacheBytes"}`); a result
/// larger than `bytes` alone is answered but not kept.
package struct MemoryCacheLimits: Sendable, Equatable {
    /// At most this many URNs.
    package var entries: Int
    /// At most about this many bytes (`RenderedResult.memoryCost`).
    package var bytes: Int

    /// Limits as given.
    package init(entries: Int, bytes: Int) {
        self.entries = entries
        self.bytes = bytes
    }

    /// 4,096 URNs and 16 MiB: a typical result is ~1 KB, one listing every item of a source ~15 KB.
    package static let standard = MemoryCacheLimits(entries: 4096, bytes: 16 << 20)
}
