import ConditionsHTTP
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// Over real HTTP (the host's libcurl client against a loopback server): the `baseURL` option,
/// real Content-Type headers, and the HTML page some avalanche.org misses answer with.
@Suite struct LoopbackTests {
    @Test func overRealHTTP() async throws {
        let layer = try fixture(Body.mapLayer2026)
        let forecast = try fixture(Body.forecastWestSlopesNorth)
        let noWarning = try fixture(Body.warningNone)
        let server = LoopbackServer()
        server.route(Path.mapLayer, LoopbackServer.Response(headers: ["Content-Type": "application/json"], body: layer))
        server.route("/v2/public/product") { request in
            if request.query?.hasPrefix("type=warning&") == true { return LoopbackServer.Response(headers: ["Content-Type": "application/json"], body: noWarning) }
            return request.query == "type=forecast&center_id=NWAC&zone_id=1646"
                ? LoopbackServer.Response(headers: ["Content-Type": "application/json", "Cache-Control": "max-age=900"], body: forecast)
                : .text("<!DOCTYPE html><html><body><h1>Server Error (500)</h1></body></html>", contentType: "text/html; charset=utf-8")
        }
        try server.start()
        defer { server.stop() }
        // Timeouts that only guard against a hang: a loaded machine has taken over 10 s for a loopback answer.
        let http = try CurlHTTPClient(version: "test", limits: HTTPLimits(connectTimeout: 120, timeout: 120))
        let source = try makeSource(["baseURL": .string(server.baseURL.absoluteString)])

        let result = try await source.resolve("avalanche:baker", context: context(http))
        #expect(result.data["zone"]?["name"] == "West Slopes North")
        #expect(result.levels("today") == [3, 2, 2])
        #expect(result.data["warning"] == .null)

        let error = try #require(await source.error(resolving: "avalanche:stevens", context: context(http)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasSuffix("avalanche.org answered HTTP 200 with an HTML page, not JSON, for the forecast of Stevens Pass"))
        #expect(server.requestCount(Path.mapLayer) == 1)
    }
}
