import Foundation
import TestHarness
import Testing

/// The shipped config's mountain report through `conditions serve` (issue 33): `/v1/urn/…`
/// answers the avalanche danger and the snowpack as structured JSON, and the default dashboard
/// shows Stevens and Snoqualmie each with road, forecast, avalanche danger and snow depth
/// (the offline profile: the recordings in `Fixtures/`).
@Suite struct MountainServeTests {
    @Test func theShippedReportOverHTTP() async throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = CLI.packageRoot.appendingPathComponent("sources.json").path
        try await ServeProcess.with(["--config", config, "--profile", "offline", "--listen", "127.0.0.1:0"], in: dir) { server in
            let avalanche = try await server.request("/v1/urn/avalanche:stevens")
            #expect(avalanche.status == 200, "\(avalanche.body)")
            let danger = (avalanche.object["data"] as? [String: Any])?["danger"] as? [String: Any]
            #expect(((danger?["today"] as? [String: Any])?["above"] as? [String: Any])?["name"] as? String == "Considerable")
            let snowpack = try await server.request("/v1/urn/snowpack:stevens")
            #expect(snowpack.status == 200, "\(snowpack.body)")
            #expect((snowpack.object["data"] as? [String: Any])?["depthIn"] as? Double == 58)

            let page = try await server.request("/")
            #expect(page.status == 200)
            for urn in ["pass:snoqualmie", "forecast:snoqualmie", "avalanche:snoqualmie", "snowpack:snoqualmie",
                        "pass:stevens", "forecast:stevens", "avalanche:stevens", "snowpack:stevens"] {
                #expect(page.body.contains("data-urn=\"\(urn)\""), "the dashboard has no card for \(urn)")
            }
            let order = ["avalanche:snoqualmie", "snowpack:snoqualmie", "pass:stevens"].compactMap { page.body.range(of: "data-urn=\"\($0)\"")?.lowerBound }
            #expect(order.count == 3 && order == order.sorted(), "each pass's cards together, in the report's order")
            #expect(page.body.contains("Avalanche danger by elevation"))
            #expect(page.body.contains("Snow depth"), "the snowpack card's depth chart")
        }
    }
}
