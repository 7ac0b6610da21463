import ConditionsHTTP
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import SpaceWeather

/// Over real HTTP (the host's libcurl client against a loopback server): the `baseURL`
/// option, each form of the Kp products, the 0.9 MB OVATION grid, and an HTML page with 200.
@Suite struct LoopbackTests {
    @Test func overRealHTTP() async throws {
        let kpOld = try fixture(Body.kpOld), forecastOld = try fixture(Body.forecastOld)
        let kpNew = try fixture(Body.kpNew), forecastNew = try fixture(Body.forecastNew)
        let ovation = try fixture(Body.ovation)
        let server = LoopbackServer()
        let json = ["Content-Type": "application/json"]
        server.route("/old\(Path.kp)", LoopbackServer.Response(headers: json, body: kpOld))
        server.route("/old\(Path.forecast)", LoopbackServer.Response(headers: json, body: forecastOld))
        server.route("/new\(Path.kp)", LoopbackServer.Response(headers: json, body: kpNew))
        server.route("/new\(Path.forecast)", LoopbackServer.Response(headers: json, body: forecastNew))
        server.route("/old\(Path.ovation)", LoopbackServer.Response(headers: json, body: ovation))
        server.route("/new\(Path.ovation)", .text("<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>", contentType: "text/html; charset=utf-8"))
        try server.start()
        defer { server.stop() }
        // Timeouts that only guard against a hang: a loaded machine has taken over 10 s for a loopback answer.
        let http = try CurlHTTPClient(version: "test", limits: HTTPLimits(connectTimeout: 120, timeout: 120))

        let old = try makeSource(["baseURL": .string(server.url("/old").absoluteString)])
        let stevens = try await old.resolve("aurora:stevens", context: context(http, now: stormEve))
        #expect(stevens.data["next24h"]?["gScale"] == "G1")
        #expect(stevens.data["ovation"]?["probability"] == 0)
        #expect(stevens.data["ovation"]?["longitude"] == 239)
        #expect(server.requestCount("/old\(Path.ovation)") == 1)

        let new = try makeSource(["baseURL": .string(server.url("/new").absoluteString)])
        let now = try await new.resolve("aurora:now", context: context(http, now: augustMorning))
        #expect(now.data["formats"] == ["kp": "new", "forecast": "new"])
        #expect(now.data["observed"]?["kpText"] == "3+")

        let error = try #require(await new.error(resolving: "aurora:tromso", context: context(http, now: augustMorning)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasSuffix("NOAA SWPC answered HTTP 200 with an HTML page, not JSON, for the OVATION aurora forecast"))
    }
}
