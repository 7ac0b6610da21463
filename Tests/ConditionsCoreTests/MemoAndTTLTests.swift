import ConditionsKitTesting
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import HostTestSupport
import Logging
import Synchronization
import Testing
@testable import ConditionsCore

/// What the host gives a source beyond the URN (issue 25): the places, a memo kept across URNs
/// and runs in the cache folder, and the freshness a result gives itself (`SourceResult.ttl`).
@Suite struct MemoAndTTLTests {
    /// Counts its work: `probe:{what}` answers with a counter; `memo` goes through the memo,
    /// `ttl` says the result is fresh for 10 s, `places` echoes the context's place names.
    final class ProbeSource: ConditionsSource, Sendable {
        static let moduleName = "Probe"
        static let summary = "counts"
        let routes: [RoutePattern] = ["probe:{what}"]
        let made = Mutex(0)
        let resolved = Mutex(0)

        init(configuration: SourceConfiguration) throws { throw ConditionsError.configuration("made by the tests only") }
        init() {}

        func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
            resolved.withLock { $0 += 1 }
            switch try location.argument("what") {
            case "memo":
                let value = try await context.memo.value(for: "grid/\(Place.stevensPoint)", maxAge: 1000, now: context.now) {
                    .int(self.made.withLock { $0 += 1; return $0 })
                }
                return SourceResult(data: ["kept": value])
            case "ttl":
                return SourceResult(data: ["n": .int(resolved.withLock { $0 })], ttl: 10)
            default:
                return SourceResult(data: ["places": .array(context.places.names.map(JSONValue.string)), "here": JSONValue(context.places.place(named: "here")?.name)])
            }
        }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-memo-\(UUID().uuidString)")
    static let start = Timestamp.parse("2025-11-02T15:30:00Z")!

    /// A runtime of one probe instance (a new one per call: a new process's memory).
    func runtime(_ source: ProbeSource, configuration: String = "probe", configuredTTL: Double? = nil) throws -> Runtime {
        let instance = SourceInstance(id: "probe", module: "Probe", source: source, http: HTTPLimits(), logger: Logger(label: "test"),
                                      ttl: configuredTTL ?? 300, configuredTTL: configuredTTL, configurationText: configuration)
        let routes = [Configuration.Route(scheme: "probe", instances: ["probe"], listed: false)]
        var summary = Runtime.ConfigurationSummary(file: URL(fileURLWithPath: "/dev/null"), profile: nil, place: Place(name: "Seattle", latitude: 47.6, longitude: -122.3),
                                                   routes: routes, report: [], cache: .init(), serve: .init())
        summary.places = Places(location: summary.place, named: [("stevens", Place(latitude: Place.stevens.latitude, longitude: Place.stevens.longitude))])
        return try Runtime(instances: [instance], routes: routes, configuration: summary)
    }

    func resolve(_ urn: String, _ runtime: Runtime, at offset: Double = 0, store: Bool = true, refresh: Bool = false) async -> ResultRecord {
        var resolver = Resolver(runtime: runtime, now: Self.start.addingTimeInterval(offset), pinned: false) { _ in UnavailableHTTPClient(reason: "offline") }
        resolver.cache = .init(store: store ? ResultCache(directory: folder) : nil, refresh: refresh)
        return await resolver.resolve([urn])[0]
    }

    @Test func theContextCarriesThePlaces() async throws {
        let record = await resolve("probe:places", try runtime(ProbeSource()), store: false)
        #expect(record.data?["places"] == ["stevens"])
        #expect(record.data?["here"] == "Seattle")
    }

    @Test func theMemoOutlivesTheRunWhereTheCacheAllows() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ProbeSource()
        // Run 1 makes the value; run 2 (another process: a new runtime) reads it from the folder.
        #expect(await resolve("probe:memo", try runtime(source)).data?["kept"] == 1)
        #expect(await resolve("probe:memo", try runtime(source), at: 400).data?["kept"] == 1)
        #expect(source.made.withLock { $0 } == 1)
        #expect(source.resolved.withLock { $0 } == 2, "the result itself was stale, the memo was not")
        // Older than the caller's maxAge (1,000 s): made again.
        #expect(await resolve("probe:memo", try runtime(source), at: 1100).data?["kept"] == 2)
        // --refresh does not read what earlier runs kept; --no-cache keeps it in memory only.
        #expect(await resolve("probe:memo", try runtime(source), at: 1101, refresh: true).data?["kept"] == 3)
        let memoryOnly = try runtime(source)
        #expect(await resolve("probe:memo", memoryOnly, at: 1102, store: false).data?["kept"] == 4)
        #expect(await resolve("probe:memo", memoryOnly, at: 1103, store: false).data?["kept"] == 4, "the same process keeps it")
        // Another configuration of the instance starts afresh.
        #expect(await resolve("probe:memo", try runtime(source, configuration: "probe|other"), at: 1104).data?["kept"] == 5)
        // The folder holds hashes for names, and the entry names no secret option.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.allSatisfy { $0.range(of: "^[0-9a-f]{32}\\.json$", options: .regularExpression) != nil }, "\(files)")
    }

    @Test func aResultsOwnTTLDecidesItsFreshnessUnlessSourcesJSONSetsOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ProbeSource()
        let first = await resolve("probe:ttl", try runtime(source))
        #expect(first.ttl == 10)
        #expect(await resolve("probe:ttl", try runtime(source), at: 5).data?["n"] == 1, "fresh for 10 s")
        #expect(await resolve("probe:ttl", try runtime(source), at: 5).ttl == 10)
        #expect(await resolve("probe:ttl", try runtime(source), at: 11).data?["n"] == 2, "then fetched again, though the instance's TTL is 300 s")
        // A ttl written in sources.json wins (another configuration text: another cache entry).
        let configured = ProbeSource()
        #expect(await resolve("probe:ttl", try runtime(configured, configuration: "probe|ttl", configuredTTL: 60)).ttl == 60)
        #expect(await resolve("probe:ttl", try runtime(configured, configuration: "probe|ttl", configuredTTL: 60), at: 30).data?["n"] == 1)
    }
}
