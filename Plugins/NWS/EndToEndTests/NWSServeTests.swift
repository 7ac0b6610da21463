import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import NWSStandIn
import ServeHarness
import TestHarness
import Testing

/// `conditions serve` with the NWS module against its loopback stand-in: NWS's Cache-Control
/// passed on, one `/points` lookup per place for the life of the server, cards on the
/// dashboard, NWS's verdicts as HTTP statuses.
@Suite struct NWSServeTests {
    static func setUp() throws -> (NWSStandIn, URL) {
        let standIn = try NWSStandIn()
        try standIn.start()
        let dir = try Upstream.config(
            sources: #""nws": {"module": "NWS", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"}}"#,
            routes: #""forecast": "nws", "alerts": "nws""#,
            extra: #", "cache": {"directory": "cache"}, "places": {\#(Place.stevensConfig), "#
                + #""snoqualmie": {"name": "Snoqualmie Pass", "latitude": 47.41, "longitude": -121.405833}, "sound": {"latitude": 47.6, "longitude": -122.5}}"#)
        return (standIn, dir)
    }

    @Test func nwssLifetimesAndOneLookupPerPlace() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let daily = try await server.request("/v1/urn/forecast:stevens")
            #expect(daily.status == 200)
            // The shorter of the forecast's (900 s) and the alerts' (30 s) max-age.
            let dailyAge = try #require(daily.header("Cache-Control").flatMap { Int($0.replacingOccurrences(of: "max-age=", with: "")) })
            #expect((28...30).contains(dailyAge), "\(daily.header("Cache-Control") ?? "")")
            let hourly = try await server.request("/v1/urn/forecast:stevens:hourly")
            let hourlyAge = try #require(hourly.header("Cache-Control").flatMap { Int($0.replacingOccurrences(of: "max-age=", with: "")) })
            #expect((898...900).contains(hourlyAge))
            // Asked again while fresh: from memory, no request.
            _ = try await server.request("/v1/urn/forecast:stevens:hourly")
            #expect(standIn.requests("/gridpoints").count == 2)
            // Many clients at once, one lookup per place for the server's life.
            async let a = server.request("/v1/urn/forecast:snoqualmie")
            async let b = server.request("/v1/urn/forecast:snoqualmie:hourly")
            async let c = server.request("/v1/urn/alerts:snoqualmie")
            #expect(try await [a.status, b.status, c.status] == [200, 200, 200])
            #expect(standIn.requests("/points").map(\.path) == ["/points/\(Place.stevensPoint)", "/points/47.41,-121.4058"])
        }
    }

    @Test func cardsOnTheDashboard() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let card = try await server.request("/card?urn=forecast:stevens")
            #expect(card.status == 200)
            #expect(card.body.contains("Stevens Pass"))
            #expect(card.body.contains("<dt dir=\"auto\"><bdi>Alert</bdi></dt>"), "\(card.body)")
            #expect(card.body.contains("Winter Weather Advisory until"))
            for period in ["Today", "Tonight", "Monday", "Monday Night"] {
                #expect(card.body.contains("<dt dir=\"auto\"><bdi>\(period)</bdi></dt>"), "\(period)")
            }
            #expect(!card.body.contains("<bdi>Tuesday</bdi>"), "the next four periods")
            #expect(card.body.contains("https://forecast.weather.gov/MapClick.php?lat=47.745&amp;lon=-121.0933"))

            let page = try await server.request("/?urn=forecast:stevens&urn=alerts:snoqualmie")
            #expect(page.status == 200)
            #expect(page.body.contains("no alerts"))
            #expect(page.body.contains("1 alert"))
        }
    }

    @Test func nwssVerdictsAsStatuses() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let marine = try await server.request("/v1/urn/forecast:sound")
            #expect(marine.status == 404)
            #expect(((marine.object["error"] as? [String: Any])?["message"] as? String)?.contains("Marine Forecast Not Supported") == true)
            let range = try await server.request("/v1/urn/forecast:95,10")
            #expect(range.status == 400)
            for _ in 0..<3 { standIn.fail("/gridpoints/SEW/163,68/forecast", times: 1, with: standIn.gridExpired(retryAfter: "0")) }
            let expired = try await server.request("/v1/urn/forecast:stevens")
            #expect(expired.status == 502)
            #expect(((expired.object["error"] as? [String: Any])?["message"] as? String)?.contains("Forecast Grid Expired") == true)
        }
    }
}
