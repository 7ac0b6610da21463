import ConditionsHTTP
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import Foundation
import Testing
@testable import Snowpack

/// Over real HTTP (the host's libcurl client against a loopback server): the `baseURL`
/// option, the query as sent, real headers, and an HTML page with 200.
@Suite struct LoopbackTests {
    @Test func overRealHTTP() async throws {
        let stations = try fixture(Body.stationsWA)
        let stevens = try fixture(Body.stevens)
        let server = LoopbackServer()
        server.route("/v1/stations") { request in
            request.query == Path.stationsQuery
                ? LoopbackServer.Response(headers: ["Content-Type": "application/json"], body: stations)
                : .text("unexpected query \(request.query ?? "")", contentType: "text/plain")
        }
        server.route("/v1/data") { request in
            request.query == Path.dataQuery("791:WA:SNTL")
                ? LoopbackServer.Response(headers: ["Content-Type": "application/json", "Cache-Control": "max-age=1200"], body: stevens)
                : .text("<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>", contentType: "text/html; charset=utf-8")
        }
        try server.start()
        defer { server.stop() }
        // Timeouts that only guard against a hang: a loaded machine has taken over 10 s for a loopback answer.
        let http = try CurlHTTPClient(version: "test", limits: HTTPLimits(connectTimeout: 120, timeout: 120))
        let source = try makeSource(["baseURL": .string(server.baseURL.appendingPathComponent("v1").absoluteString)])
        let memory = FreshValues<JSONValue>()

        let result = try await source.resolve("snowpack:stevens", context: context(http, memory: memory))
        #expect(result.data["station"]?["triplet"] == "791:WA:SNTL")
        #expect(result.data["depthIn"]?.doubleValue == 58)
        #expect(result.data["changes"]?["24h"]?["depthIn"]?.doubleValue == 8)
        #expect(result.ttl == 1200)

        let error = try #require(await source.error(resolving: "snowpack:snoqualmie", context: context(http, memory: memory)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasSuffix("NRCS AWDB answered HTTP 200 with an HTML page, not JSON, for the data of 672:WA:SNTL"))
        #expect(server.requestCount("/v1/stations") == 1)
    }
}
