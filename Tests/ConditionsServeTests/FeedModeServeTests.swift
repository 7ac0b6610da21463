import Foundation
import LoopbackServer
import TestHarness
import Testing

/// `conditions serve` over WSDOT's key-less mobile feed on loopback: one feed request answers
/// `pass:all` and every `pass:{name}` asked at different moments, and the card shows the
/// feed's camera, forecast and alerts.
@Suite struct FeedModeServeTests {
    static let feedPath = "/mobile/MountainPassConditions.json"

    static func setUp(cache: String = #""cache": {"directory": "cache"}"#) throws -> (LoopbackServer, URL) {
        let upstream = LoopbackServer()
        upstream.route(feedPath, .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/derived/mobile-feed-2025-11-03.json")))
        try upstream.start()
        let dir = try Upstream.config(
            sources: #""wsdot-feed": {"module": "WSDOT", "options": {"mode": "feed", "baseURL": "\#(upstream.url("/mobile").absoluteString)"}}"#,
            routes: #""pass": "wsdot-feed""#, extra: ", " + cache)
        return (upstream, dir)
    }

    @Test func passAllAndEveryPassShareOneFeedRequest() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let all = try await server.request("/v1/urn/pass:all")
            #expect(all.status == 200)
            #expect((all.object["data"] as? [String: Any])?["passes"].map { ($0 as? [Any])?.count } == 16)
            for urn in ["pass:stevens", "pass:snoqualmie"] {
                #expect(try await server.request("/v1/urn/\(urn)").status == 200)
            }
            async let white = server.request("/v1/urn/pass:white")
            async let tiger = server.request("/v1/urn/pass:tiger-mountain")
            #expect(try await white.status == 200)
            #expect(((try await tiger).object["data"] as? [String: Any])?["name"] as? String == "Tiger Mountain SR18")
            #expect(upstream.requestCount(Self.feedPath) == 1, "one feed for every pass while it is fresh")

            let snoqualmie = try await server.request("/v1/urn/pass:snoqualmie")
            let data = try #require(snoqualmie.object["data"] as? [String: Any])
            #expect((data["cameras"] as? [[String: Any]])?.first?["imageURL"] as? String == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
            #expect((data["forecast"] as? [[String: Any]])?.count == 3)
            #expect((data["alerts"] as? [[String: Any]])?.first?["category"] as? String == "Maintenance")
        }
    }

    /// A server without a disk cache keeps the feed in memory for its TTL (issue 45: a fleet
    /// without a writable disk polled WSDOT 28 times a second); `--refresh` fetches for each URN.
    @Test(arguments: [false, true])
    func withTheCacheOffTheFeedIsKeptInMemoryUnlessRefreshed(_ refresh: Bool) async throws {
        let (upstream, dir) = try Self.setUp(cache: #""cache": {"enabled": false}"#)
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, refresh: refresh) { server in
            let stevens = try await server.request("/v1/urn/pass:stevens")
            let white = try await server.request("/v1/urn/pass:white")
            #expect(stevens.status == 200)
            #expect(white.status == 200)
            #expect(upstream.requestCount(Self.feedPath) == (refresh ? 2 : 1))
        }
    }

    @Test func theCardShowsTheCameraLazilyTheForecastAndTheAlert() async throws {
        let (upstream, dir) = try Self.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let card = try await server.request("/card?urn=pass:snoqualmie")
            #expect(card.status == 200)
            #expect(card.body.contains(#"<img src="https://images.wsdot.wa.gov/sc/090VC05200.jpg" alt="I-90 at MP 52: Snoqualmie Summit" loading="lazy""#), "\(card.body)")
            #expect(card.body.contains("<dt dir=\"auto\"><bdi>Tonight</bdi></dt>"))
            #expect(card.body.contains("<bdi>Alert</bdi>"))
            #expect(!card.body.contains("Tuesday Night"), "the first two forecast periods")

            let page = try await server.request("/?urn=pass:all")
            #expect(page.status == 200)
            #expect(page.header("Content-Security-Policy")?.contains("img-src 'self' data: https:;") == true, "camera images are https")
            // Cameras of Snoqualmie and Stevens only: the others have none in this feed.
            #expect(page.body.components(separatedBy: "loading=\"lazy\"").count - 1 == 2)
        }
    }
}
