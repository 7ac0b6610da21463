import ConditionsText
import ConditionsKit
import ConditionsMoon
import Foundation
import HostTestSupport
import Logging
import Testing
@testable import ConditionsCore

/// The result cache in-process: entries round-trip with their kind, and the resolver answers
/// from them within the TTL.
@Suite struct CacheTests {
    let logger = Logger(label: "test")

    func temporaryCache() -> ResultCache {
        ResultCache(directory: FileManager.default.temporaryDirectory.appendingPathComponent("conditions-cache-\(UUID().uuidString)"))
    }

    @Test func entriesKeepTheirKind() throws {
        let cache = temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let fetchedAt = try #require(Timestamp.parse("2026-11-21T14:00:00Z"))
        cache.store(key: "k1", entry: .init(urn: "moon:now", source: "astronomy", route: "moon:now", fetchedAt: fetchedAt, data: ["phase": "full moon"], kind: .moon), logger: logger)
        cache.store(key: "k2", entry: .init(urn: "x:y", source: "s", route: "x:{id}", fetchedAt: fetchedAt, data: [1, 2]), logger: logger)
        let moon = try #require(cache.load(key: "k1", logger: logger))
        #expect(moon.kind == .moon)
        #expect(moon.data == ["phase": "full moon"])
        #expect(moon.fetchedAt == fetchedAt)
        #expect(cache.load(key: "k2", logger: logger)?.kind == nil)
        #expect(cache.load(key: "k3", logger: logger) == nil)
    }

    /// Entries written before kinds existed load as generic results rather than being dropped.
    @Test func entriesWithoutAKindStillLoad() throws {
        let cache = temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true)
        let old = #"{"version":2,"key":"old","urn":"pass:white","source":"wsdot","route":"pass:{name}","fetchedAt":"2026-11-21T14:00:00Z","data":{"status":"open"}}"#
        try Data(old.utf8).write(to: cache.file(for: "old"))
        let entry = try #require(cache.load(key: "old", logger: logger))
        #expect(entry.kind == nil)
        #expect(entry.data == ["status": "open"])
    }

    @Test func theResolverAnswersFromTheCacheWithTheKind() async throws {
        let workspace = try Workspace.replay(extraSourceOptions: #", "ttl": 600"#)
        defer { workspace.remove() }
        let cache = temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        var resolver = offlineResolver(try workspace.runtime())
        resolver.cache = Resolver.CachePolicy(store: cache)
        let first = await resolver.resolve(["pass:white"])
        #expect(first.first?.kind == .pass)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { $0.hasSuffix(".json") }.count == 1)
        // Offline: only the cache can answer, and it does, as the same kind.
        resolver.cache = Resolver.CachePolicy(store: cache, offline: true)
        let second = await resolver.resolve(["pass:white", "pass:stevens"])
        #expect(second[0].kind == .pass)
        #expect(second[0].data == first[0].data)
        guard case .failure(let kind, _, _) = second[1].outcome else { Issue.record("expected a cache miss"); return }
        #expect(kind == .notFound)
    }
}
