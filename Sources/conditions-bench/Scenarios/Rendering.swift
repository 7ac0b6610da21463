import Foundation
import LoopbackServer
import WSDOTStandIn

/// Scenario 8: what `"render": "chromium"` costs. wsdot.com's pages are an application that
/// fetches its report after load, so each pass is a browser run: one page and `pass:all`
/// (15 pages, at most six browsers at once) rendered by chromium-headless-shell, beside the
/// same URNs read as plain HTML. The server answers at once, so the figures are the cost of
/// rendering itself; no target, the figures are for comparison.
enum Rendering {
    static let report = #"""
    [["Temperature", "28°F / -2°C as of 8:45 PM 01/10/2024"], ["Elevation", "4061 ft / 1238 m"],
     ["Travel eastbound", "Traction Tires Required, Chains required on Vehicles over 10,000 gross vehicle weight."],
     ["Travel westbound", "No restrictions"], ["Conditions", "Compact snow and ice on the road."],
     ["Weather", "Light snow."], ["Last updated", "Wednesday, January 10, 2024 8:45 PM"]]
    """#

    static func run(_ bench: Bench) async throws -> [Figure] {
        let server = LoopbackServer()
        Upstreams.servePages(on: server, delay: 0)
        for pass in Upstreams.passes {
            server.route("/mountainpasses/\(Upstreams.siteSlug(pass))", .text(ScriptFilledPassPage.html(reportPath: "/data/\(pass.slug).json"), contentType: "text/html; charset=utf-8"))
            server.route("/data/\(pass.slug).json", .json(report))
        }
        do { try server.start() } catch { throw Bench.Failed(description: "loopback server: \(error)") }
        defer { server.stop() }

        let plain = try bench.workspace.config("plain-html", sources: """
            "wsdot": {"module": "WSDOT", "options": {"baseURL": "\(server.url("/passes").absoluteString)", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)
        let rendered = try bench.workspace.config("rendered", sources: """
            "wsdot": {"module": "WSDOT", "options": {"baseURL": "\(server.url("/mountainpasses").absoluteString)", "render": "chromium", \(Upstreams.passesOption)}}
            """, routes: #""pass": "wsdot""#)

        func measure(_ config: String, _ urn: String, runs: Int, dataPath: String?) async throws -> Samples {
            let arguments = ["--config", config, "--no-cache", "--quiet", urn]
            try await bench.conditions(arguments)
            var walls: [Double] = []
            for _ in 0..<bench.runs(runs) {
                server.resetStats()
                walls.append(try await bench.conditions(arguments).wall)
                // A rendered page that did not fetch its data would have failed to parse; check anyway.
                if let dataPath, server.requestCount(dataPath) == 0 {
                    throw Bench.Failed(description: "\(urn): the browser never fetched \(dataPath)")
                }
            }
            return Samples(walls)
        }

        let plainOne = try await measure(plain, "pass:snoqualmie", runs: 15, dataPath: nil)
        let renderedOne = try await measure(rendered, "pass:snoqualmie", runs: 7, dataPath: "/data/snoqualmie.json")
        let plainAll = try await measure(plain, "pass:all", runs: 7, dataPath: nil)
        let renderedAll = try await measure(rendered, "pass:all", runs: 3, dataPath: "/data/stevens.json")

        let ratio = renderedOne.median / max(plainOne.median, 1e-9)
        return [
            .time(8, "pass:snoqualmie, plain HTML (1 page)", plainOne),
            .time(8, "pass:snoqualmie, rendered by chromium (1 page)", renderedOne),
            .plain(8, "rendered ÷ plain, one page", value: ratio, unit: "×", text: String(format: "%.1f×", ratio)),
            .time(8, "pass:all, plain HTML (15 pages)", plainAll),
            .time(8, "pass:all, rendered (15 pages, ≤ 6 browsers at once)", renderedAll),
        ]
    }
}
