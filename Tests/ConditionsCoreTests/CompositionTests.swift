import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import HostTestSupport
import Testing
import TestSources
@testable import ConditionsCore

/// A source combining others through the host (`SourceContext.resolve`), with test modules
/// the host does not know: the inputs named, staleness passed on, a failed input said or
/// fatal as the module decides, cycles and depth refused, and an unrouted scheme it needs
/// refused at load.
@Suite struct CompositionTests {
    static let catalog = SourceCatalog([EchoSource.self, CombineSource.self])

    static func workspace(routes: String = #""echo": "echo", "both": "combine", "strict": "combine", "loop": "combine", "deep": "combine""#,
                          echoOptions: String = "{}", cache: String = #""cache": {"enabled": false}"#) throws -> Workspace {
        try Workspace(config: """
            {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
             "sources": {"echo": {"module": "Echo", "options": \(echoOptions), "ttl": 60}, "combine": {"module": "Combine"}},
             "routes": {\(routes)}, \(cache)}
            """)
    }

    @Test func aCombinedResultNamesItsInputs() async throws {
        let workspace = try Self.workspace()
        defer { workspace.remove() }
        let records = await offlineResolver(try workspace.runtime(catalog: Self.catalog)).resolve(["both:loud:clear"])
        let json = records[0].json
        #expect(json["data"] == ["joined": "loud+clear", "missing": []])
        #expect(json["inputs"]?.arrayValue?.map { $0["urn"] } == ["echo:loud", "echo:clear"])
        #expect(json["inputs"]?.arrayValue?[0]["source"] == "echo")
        #expect(json["inputs"]?.arrayValue?[0]["fetchedAt"] == "2026-11-21T14:05:00Z")
        #expect(json["stale"] == nil)
    }

    @Test func aFailedInputIsSaidOrFatalAsTheModuleDecides() async throws {
        let workspace = try Self.workspace(echoOptions: #"{"failing": ["down"]}"#)
        defer { workspace.remove() }
        let records = await offlineResolver(try workspace.runtime(catalog: Self.catalog)).resolve(["both:loud:down", "strict:down", "strict:up"])
        #expect(records[0].json["data"] == ["joined": "loud", "missing": ["echo:down"]])
        #expect(records[0].json["inputs"]?.arrayValue?[1]["failed"] == true)
        #expect(records[1].json["error"] == ["kind": "upstream", "message": "echo:down failed: echo is down for down"])
        #expect(records[2].json["data"]?["text"] == "up")
        #expect(records[2].kind == "echo")
    }

    @Test func aStaleInputMakesTheResultStale() async throws {
        // echo:calm is cached at 14:05; at 15:05 (past its 60 s TTL) echo is down, so the
        // cached answer stands in, an hour stale, and so is the result made from it.
        let workspace = try Self.workspace(echoOptions: #"{"outageFile": "outage"}"#, cache: #""cache": {"directory": "cache"}"#)
        defer { workspace.remove() }
        // Not pinned: a pinned clock keys the cache by its instant, and the point is one entry
        // read an hour later.
        func resolver(at now: String) throws -> Resolver {
            var resolver = Resolver(runtime: try workspace.runtime(catalog: Self.catalog), now: try #require(Timestamp.parse(now)), pinned: false) { _ in
                UnavailableHTTPClient(reason: "tests are offline")
            }
            resolver.cache = .init(store: ResultCache(directory: workspace.folder.appendingPathComponent("cache")))
            return resolver
        }
        #expect(try await resolver(at: "2026-11-21T14:05:00Z").resolve(["strict:calm"])[0].json["stale"] == nil)
        try Data().write(to: workspace.folder.appendingPathComponent("outage"))
        let later = try resolver(at: "2026-11-21T15:05:00Z")
        let json = await later.resolve(["strict:calm"])[0].json
        #expect(json["data"]?["text"] == "calm")
        #expect(json["stale"] == true)
        #expect(json["age"] == 3600)
        #expect(json["inputs"] == [["urn": "echo:calm", "source": "echo", "fetchedAt": "2026-11-21T14:05:00Z", "stale": true, "age": 3600]])
    }

    @Test func aCycleIsRefusedWithTheChain() async throws {
        let workspace = try Self.workspace()
        defer { workspace.remove() }
        let record = await offlineResolver(try workspace.runtime(catalog: Self.catalog)).resolve(["loop:1"])[0]
        #expect(record.json["error"] == ["kind": "configuration", "message": "loop:1 is combined from itself: loop:1 → loop:1"])
    }

    @Test func depthIsLimited() async throws {
        let workspace = try Self.workspace()
        defer { workspace.remove() }
        let resolver = offlineResolver(try workspace.runtime(catalog: Self.catalog))
        let records = await resolver.resolve(["deep:\(Resolver.maximumDepth)", "deep:\(Resolver.maximumDepth + 1)"])
        #expect(records[0].json["data"] == ["depth": .int(Resolver.maximumDepth)])
        #expect(records[0].json["inputs"]?.arrayValue?[0]["urn"] == .string("deep:\(Resolver.maximumDepth - 1)"))
        // deep:5 asks deep:4 … deep:1 asks deep:0, the fifth level down: refused, and the
        // refusal travels back up as each level's failure.
        #expect(records[1].json["error"] == ["kind": "configuration",
                                             "message": "deep:0 is combined more than 4 levels deep: deep:5 → deep:4 → deep:3 → deep:2 → deep:1 → deep:0"])
    }

    @Test func aSchemeItNeedsMustBeRouted() throws {
        let workspace = try Self.workspace(routes: #""both": "combine""#)
        defer { workspace.remove() }
        #expect(throws: ConfigurationError.self) { try workspace.runtime(catalog: Self.catalog) }
        do { _ = try workspace.runtime(catalog: Self.catalog) } catch {
            #expect(error.problems == ["\(workspace.configFile.path): sources.combine: module Combine combines echo: URNs, but \"routes\" has no \"echo\"; route it to a source"])
        }
    }
}
