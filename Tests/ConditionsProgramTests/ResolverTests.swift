import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The resolver in-process: routing, order, failures confined to their URN, kinds carried.
@Suite struct ResolverTests {
    @Test func resolvesInTheOrderAskedWithEachResultsKind() async throws {
        let workspace = try Workspace.replay()
        defer { workspace.remove() }
        let records = await offlineResolver(try workspace.runtime()).resolve(["pass:snoqualmie", "moon:now", "phases:5", "pass:all", "pass:snoqualmie"])
        #expect(records.map(\.urn) == ["pass:snoqualmie", "moon:now", "phases:5", "pass:all", "pass:snoqualmie"])
        #expect(records.map(\.kind) == [.pass, .moon, .phases, .pass, .pass])
        #expect(records.allSatisfy { !$0.failed })
        #expect(records[0].data?["status"] == "restricted")
    }

    @Test func failuresStayWithTheirURN() async throws {
        let workspace = try Workspace.replay()
        defer { workspace.remove() }
        let records = await offlineResolver(try workspace.runtime()).resolve(["pass:snoqualmy", "tide:x", "pass:white"])
        guard case .failure(let kind, _, let suggestions) = records[0].outcome else { Issue.record("expected a failure"); return }
        #expect(kind == .notFound)
        #expect(suggestions.contains("pass:snoqualmie"))
        guard case .failure(let unrouted, _, _) = records[1].outcome else { Issue.record("expected a failure"); return }
        #expect(unrouted == .notFound)
        #expect(!records[2].failed)
        #expect(records[2].kind == .pass)
    }

    /// A replay reads exactly as the live answer: same kind, same presentation, same lines.
    @Test func aReplayHasTheLiveSourcesKindAndText() async throws {
        let workspace = try Workspace.replay()
        defer { workspace.remove() }
        let replayed = await offlineResolver(try workspace.runtime()).resolve(["moon:now", "phases:5"])
        let live = await offlineResolver(try workspace.runtime(profile: "live")).resolve(["moon:now", "phases:5"])
        #expect(replayed.map(\.kind) == live.map(\.kind))
        let renderer = TextRenderer(catalog: registered, style: .plain, timeZone: pacific, placeName: "Seattle")
        for (recorded, computed) in zip(replayed, live) {
            let a = renderer.render(urn: recorded.urn, data: try #require(recorded.data), kind: recorded.kind)
            let b = renderer.render(urn: computed.urn, data: try #require(computed.data), kind: computed.kind)
            #expect(a.count == b.count)
            #expect(a.first?.prefix(14) == b.first?.prefix(14), "\(a) \(b)")
        }
        let moon = renderer.render(urn: "moon:now", data: try #require(replayed[0].data), kind: replayed[0].kind)
        #expect(moon == ["moon:now  🌔 waxing gibbous, 88% lit, 12.3 days old", "  rises 14:27 PST, sets 03:48 PST (Seattle)"])
    }

    @Test func aResultOfNoKnownKindReadsAsKeyValueLines() {
        let renderer = TextRenderer(catalog: registered, style: .plain, timeZone: pacific, placeName: nil)
        let lines = renderer.render(urn: "tide:x", data: ["height": 3.5, "stations": ["a", ["b": true]]], kind: "tide")
        #expect(lines == ["tide:x", "  height  3.5", "  stations", "    - a", "    -", "      b  true"])
        #expect(renderer.render(urn: "tide:x", data: ["height": 3.5], kind: nil) == ["tide:x", "  height  3.5"])
    }
}
