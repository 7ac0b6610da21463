import Foundation
import TestHarness
import Testing

/// The server's memory through the binary: many distinct URNs keep at most the configured
/// number of results, the least recently used leave first, and failures are never kept.
@Suite struct MemoryBoundTests {
    /// `count` fixtures `item:n0…` fetched just now, served by a Fixtures instance with a 5-minute
    /// TTL (so each result would otherwise stay in memory), under `serve`'s limits `limits`.
    static func setUp(count: Int, limits: String) throws -> URL {
        let dir = try Upstream.config(
            sources: #""items": {"module": "Fixtures", "options": {"directory": "F"}, "ttl": 300}"#,
            routes: #""item": "items", "moon": "astronomy""#,
            extra: #", "cache": {"enabled": false}, "serve": {\#(limits)}"#)
        let folder = dir.appendingPathComponent("F/item")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let now = ISO8601DateFormatter().string(from: Date())
        for index in 0..<count {
            try #"{"urn": "item:n\#(index)", "route": "item:{name}", "source": "items", "fetchedAt": "\#(now)", "data": {"index": \#(index), "note": "\#(String(repeating: "x", count: 200))"}}"#
                .write(to: folder.appendingPathComponent("n\(index).json"), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// The value of an unlabelled metric.
    static func metric(_ name: String, in server: some ServedHTTP) async throws -> Double {
        let text = try await server.request("/metrics").body
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) in /metrics")
        return try #require(Double(line.split(separator: " ").last ?? ""))
    }

    @Test func manyDistinctURNsKeepAtMostTheLimit() async throws {
        let dir = try Self.setUp(count: 120, limits: #""cacheEntries": 50"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            for index in 0..<120 {
                let reply = try await server.request("/v1/urn/item:n\(index)")
                try #require(reply.status == 200, "item:n\(index): \(reply.body)")
                // What is left of the 5-minute TTL of a fixture fetched at set-up: however long a
                // loaded machine took to get here, a lifetime no longer than the TTL.
                let maxAge = reply.header("Cache-Control").flatMap { $0.split(separator: ",").first }.flatMap { Int($0.dropFirst("max-age=".count)) }
                #expect(maxAge.map { (1...300).contains($0) } == true, "\(reply.header("Cache-Control") ?? "no Cache-Control")")
            }
            #expect(try await Self.metric("conditions_memory_cache_entries", in: server) == 50)
            #expect(try await Self.metric("conditions_memory_cache_evictions_total", in: server) == 70)

            // The 50 most recent are answered from memory; the first was evicted and resolves again.
            let hits = try await Self.metric("conditions_cache_hits_total", in: server)
            for index in 70..<120 { _ = try await server.request("/v1/urn/item:n\(index)") }
            #expect(try await Self.metric("conditions_cache_hits_total", in: server) == hits + 50)
            let misses = try await Self.metric("conditions_cache_misses_total", in: server)
            _ = try await server.request("/v1/urn/item:n0")
            #expect(try await Self.metric("conditions_cache_misses_total", in: server) == misses + 1)
            #expect(try await Self.metric("conditions_memory_cache_entries", in: server) == 50)

            // Failures and local answers are answered, never kept.
            for index in 0..<20 {
                #expect(try await server.request("/v1/urn/item:missing\(index)").status == 404)
                #expect(try await server.request("/v1/urn/moon:2026-01-\(10 + index)").status == 200)
            }
            #expect(try await Self.metric("conditions_memory_cache_entries", in: server) == 50)
            #expect(try await Self.metric("conditions_memory_cache_evictions_total", in: server) == 71)
        }
    }

    @Test func theByteLimitHoldsWhateverTheCount() async throws {
        let dir = try Self.setUp(count: 60, limits: #""cacheBytes": 20000"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            for index in 0..<60 { #expect(try await server.request("/v1/urn/item:n\(index)").status == 200) }
            let bytes = try await Self.metric("conditions_memory_cache_bytes", in: server)
            let entries = try await Self.metric("conditions_memory_cache_entries", in: server)
            #expect(bytes <= 20000 && bytes > 15000, "\(bytes) bytes")
            #expect(entries > 0 && entries < 60, "\(entries) entries")
        }
        // A limit that is not a number is a config error naming the key.
        let bad = try Self.setUp(count: 0, limits: #""cacheEntries": "many""#)
        defer { try? FileManager.default.removeItem(at: bad) }
        let check = try await CLI.run(["check"], in: bad)
        #expect(check.status == 2)
        #expect(check.stderr.contains("serve.cacheEntries"))
    }

    /// A local source's result is reused until the wall clock's second changes, and never after.
    @Test func localResultsAreReusedOnlyWithinTheirSecond() async throws {
        let dir = try Self.setUp(count: 0, limits: "")
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            // Two answers within one second: the second is the first, from memory. (A pair can
            // straddle a second on a loaded machine; then try again, each try starting just after
            // a second begins, so a loaded run's slow requests still fit: one suite run under
            // load missed all ten tries when they started anywhere in a second.)
            var pair: (Reply, Reply)?
            for _ in 0..<10 where pair == nil {
                let start = Date().timeIntervalSince1970
                try await Task.sleep(for: .milliseconds(Int((start.rounded(.down) + 1 - start) * 1000) + 5))
                let first = try await server.request("/v1/urn/moon:now")
                let hits = try await Self.metric("conditions_cache_hits_total", in: server)
                let second = try await server.request("/v1/urn/moon:now")
                guard first.object["fetchedAt"] as? String == second.object["fetchedAt"] as? String else { continue }
                #expect(try await Self.metric("conditions_cache_hits_total", in: server) == hits + 1)
                #expect(second.header("ETag") == first.header("ETag"))
                #expect(second.header("Cache-Control") == "max-age=0", "downstream caches are still told not to keep it")
                pair = (first, second)
            }
            let (_, last) = try #require(pair)
            // Once the clock has moved to the next second, the result is computed again.
            let now = Date().timeIntervalSince1970
            try await Task.sleep(for: .milliseconds(Int((now.rounded(.down) + 1 - now) * 1000) + 20))
            let hits = try await Self.metric("conditions_cache_hits_total", in: server)
            let later = try await server.request("/v1/urn/moon:now")
            #expect(try await Self.metric("conditions_cache_hits_total", in: server) == hits)
            #expect(later.object["fetchedAt"] as? String != last.object["fetchedAt"] as? String)
        }
    }
}
