import ConditionsJSON
import Foundation
import HostTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TestSources
@testable import ConditionsCore
@testable import ConditionsServer

/// The server library with modules it knows nothing about (the test-only Echo and Combine):
/// whatever it draws, links or names comes from them and from the configuration. The server as
/// users run it, with the registered modules, is ConditionsServeTests'.
@Suite struct UnknownModulesTests {
    static let catalog = SourceCatalog([EchoSource.self, CombineSource.self])

    /// The server over a config routing `echo:` and the combining schemes, in this process.
    static let config = #"""
        {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
         "sources": {"echo": {"module": "Echo"}, "combine": {"module": "Combine"}},
         "routes": {"echo": "echo", "both": "combine"}, "report": ["echo:loud", "both:loud:clear"], "cache": {"enabled": false}}
        """#

    static func serve(config: String = config, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let workspace = try Workspace(config: config)
        defer { workspace.remove() }
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let runtime = try workspace.runtime(catalog: catalog)
        let server = ConditionsServer(runtime: runtime, settings: ServerSettings(listen: ListenAddress("127.0.0.1:0")!, token: nil, cors: []),
                                      cachePolicy: .init(), logger: logger)
        try await Application(router: server.makeRouter()).test(.router) { client in try await body(client) }
    }

    static func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func theDashboardDrawsTheModulesMap() async throws {
        try await Self.serve { client in
            let page = Self.text(try await client.execute(uri: "/?urn=echo:loud&urn=echo:quiet", method: .get))
            #expect(page.contains(#"<h2 id="map-title" class="map__title">Echoes on the map</h2>"#))
            #expect(page.contains("<desc id=\"map-desc\">Testland with 2 markers; each is a link to its card.</desc>"))
            // The outline is the layer's triangle: one subpath of three points.
            let outline = try #require(page.firstMatch(of: #/class="map__state" d="([^"]*)"/#)?.output.1)
            #expect(outline.filter { $0 == "M" }.count == 1 && outline.filter { $0 == "L" }.count == 2, "\(outline)")
            #expect(page.contains(##"href="#card-echo-loud" data-card="card-echo-loud" data-status="loud""##))
            #expect(page.contains(##"<a class="marker tone-caution" href="#card-echo-quiet""##))
            // The key is the layer's legend, not a pass's.
            #expect(page.contains("</svg>loud</li>") && page.contains("</svg>quiet</li>") && !page.contains("restricted"))
        }
    }

    @Test func aKindWithoutAMapDrawsNone() async throws {
        try await Self.serve { client in
            let page = Self.text(try await client.execute(uri: "/?urn=both:loud:clear", method: .get))
            #expect(page.contains("loud+clear"))
            #expect(!page.contains("map__title"))
        }
    }

    @Test func aCombinedResultNamesItsInputs() async throws {
        try await Self.serve { client in
            let reply = try await client.execute(uri: "/v1/urn/both:loud:clear", method: .get)
            #expect(reply.status == .ok)
            let json = try JSONValue.parse(Data(reply.body.readableBytesView))
            #expect(json["data"]?["joined"] == "loud+clear")
            #expect(json["inputs"]?.arrayValue?.map { $0["urn"] } == ["echo:loud", "echo:clear"])
        }
    }

    /// Hints and the OpenAPI document's examples are URNs this configuration answers: its
    /// report list first.
    @Test func examplesComeFromTheConfiguration() async throws {
        try await Self.serve { client in
            let none = try await client.execute(uri: "/v1/resolve", method: .get)
            #expect(none.status == .badRequest)
            #expect(Self.text(none).contains("e.g. /v1/resolve?urn=echo:loud&urn=both:loud:clear"), "\(Self.text(none))")
            let document = Self.text(try await client.execute(uri: "/v1/openapi.json", method: .get))
            #expect(!document.contains("$EXAMPLE_"))
            #expect(document.contains(#""echo:loud""#) && document.contains("echo:{text}") && document.contains(#""Echo""#))
        }
    }

    /// `echo:all` through `{"join": ["east", "west"]}`: a pattern of literals only, so each
    /// chain answers (issue 42 item 3). A single object stands for the URN with the later
    /// answers under `joined`; a list and the dashboard have one result, one card, per answer.
    @Test func aURNTwoChainsAnswerIsAResultAndACardPerAnswer() async throws {
        let config = #"""
            {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
             "sources": {"east": {"module": "Echo", "options": {"all": "east"}}, "west": {"module": "Echo", "options": {"all": "west"}}},
             "routes": {"echo": {"join": ["east", "west"]}}, "cache": {"enabled": false}}
            """#
        try await Self.serve(config: config) { client in
            let single = try JSONValue.parse(Data(buffer: try await client.execute(uri: "/v1/urn/echo:all", method: .get).body))
            #expect(single["source"]?.stringValue == "east" && single["data"]?["text"]?.stringValue == "east")
            #expect(single["joined"]?.arrayValue?.map { $0["data"]?["text"]?.stringValue } == ["west"], "\(single)")

            let list = try JSONValue.parse(Data(buffer: try await client.execute(uri: "/v1/resolve?urn=echo:all&urn=echo:loud", method: .get).body))
            #expect(list.arrayValue?.map { $0["source"]?.stringValue } == ["east", "west", "east"], "\(list)")
            #expect(list.arrayValue?.allSatisfy { $0["joined"] == nil } == true)

            let page = Self.text(try await client.execute(uri: "/?urn=echo:all", method: .get))
            #expect(page.contains(#"id="card-echo-all""#) && page.contains(#"id="card-echo-all-2""#), "a card per answer")
            #expect(page.contains("Echo east") && page.contains("Echo west"))
            // The script swaps each card for its own answer.
            let second = Self.text(try await client.execute(uri: "/card?urn=echo:all&id=card-echo-all-2&answer=1", method: .get))
            #expect(second.contains("Echo west") && !second.contains("Echo east"), "\(second)")
            let first = Self.text(try await client.execute(uri: "/card?urn=echo:all&id=card-echo-all", method: .get))
            #expect(first.contains("Echo east") && !first.contains("Echo west"))
            let bad = try await client.execute(uri: "/card?urn=echo:all&answer=two", method: .get)
            #expect(bad.status == .badRequest && Self.text(bad).contains("answer: a whole number"), "\(Self.text(bad))")
            // A named URN is the first chain's answer alone.
            let named = try JSONValue.parse(Data(buffer: try await client.execute(uri: "/v1/urn/echo:loud", method: .get).body))
            #expect(named["source"]?.stringValue == "east" && named["joined"] == nil)
        }
    }
}
