import Foundation
import LoopbackServer
import TestHarness
import Testing
@testable import ConditionsServer

/// Route fallback through `conditions serve` (issue 24, item 3): the same chain as the CLI's
/// test, WSDOT's API failing on one loopback server and its pages answering on another.
@Suite struct RouteFallbackServeTests {
    static let accessCode = "SERVE-fallback-code-71ab"

    @Test func theServerAnswersFromTheNextInstanceAndListsTheChain() async throws {
        let (api, pages, dir) = try Upstream.apiFailingBeforePages(accessCode: Self.accessCode, apiTTL: "10m", pageTTL: "2m",
                                                                   extra: #", "cache": {"directory": "cache"}"#)
        defer { api.stop(); pages.stop() }
        defer { try? FileManager.default.removeItem(at: dir) }

        try await InProcessServer.with(in: dir) { server in
            let beforeFetch = ContinuousClock.now
            let pass = try await server.request("/v1/urn/pass:white")
            #expect(pass.status == 200, "\(pass.body)")
            #expect(pass.object["source"] as? String == "wsdot-page")
            #expect((pass.object["data"] as? [String: Any])?["id"] as? String == "white")
            // Fresh for the answering instance's TTL (2 min), not the first one's (10 min).
            let problem = pass.maxAgeProblem(ttl: 120, fetchedAfter: beforeFetch)
            #expect(problem == nil, "\(problem ?? "")")
            #expect(!pass.body.contains(Self.accessCode))

            // Both failing: 502, one line naming each instance's failure, the code masked.
            pages.route("/passes/stevens", .text("gone", status: 500))
            let failed = try await server.request("/v1/urn/pass:stevens")
            #expect(failed.status == 502)
            let error = try #require(failed.object["error"] as? [String: Any])
            #expect(error["kind"] as? String == "http")
            let message = try #require(error["message"] as? String)
            #expect(message.hasPrefix("wsdot-api: HTTP 500"), "\(message)")
            #expect(message.contains("; wsdot-page: HTTP 500"), "\(message)")
            #expect(!failed.body.contains(Self.accessCode))

            let routes = try #require(try await server.request("/v1/routes").json as? [[String: Any]])
            let chain = routes.first { $0["pattern"] as? String == "pass:{name}" }?["chain"] as? [[String: String]]
            #expect(chain == [["source": "wsdot-api", "module": "WSDOT"], ["source": "wsdot-page", "module": "WSDOT"]])
            let sources = try await server.request("/v1/sources")
            let page = (sources.object["instances"] as? [[String: Any]])?.first { $0["id"] as? String == "wsdot-page" }
            #expect(page?["schemes"] as? [String] == ["pass"])
        }
    }
}
