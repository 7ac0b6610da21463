import Foundation
import TestHarness
import Testing

extension DashboardBrowserTests {
    /// The snowfall chart as the browser lays it out: named and described for screen readers,
    /// every bar standing on the baseline at a height proportional to its value, in date order,
    /// inside the card on a phone's width, and visible against the card in both schemes.
    @Test func theSnowfallChartIsToScaleAndNamed() async throws {
        let (upstream, _) = try SnowfallChartTests.upstream()
        defer { upstream.stop() }
        let dir = try SnowfallChartTests.config(upstream)
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = #"""
        (() => {
          \#(DashboardSetup.contrastHelpers)
          const charts = Array.from(document.querySelectorAll("figure.drawing")).map((figure) => {
            const svg = figure.querySelector("svg.drawing__plot");
            const plot = svg.getBoundingClientRect();
            const card = figure.closest("article");
            const background = parse(getComputedStyle(card).backgroundColor);
            const bars = Array.from(svg.querySelectorAll("rect.ink--accent")).map((rect) => {
              const box = rect.getBoundingClientRect();
              const [label, value] = rect.querySelector("title").textContent.split(": ");
              return {label, value: parseFloat(value), height: box.height, bottom: box.bottom, left: box.left, right: box.right};
            });
            const caption = figure.querySelector("figcaption");
            return {urn: card.dataset.urn, role: svg.getAttribute("role"),
                    name: document.getElementById(svg.getAttribute("aria-labelledby"))?.textContent ?? null,
                    description: document.getElementById(svg.getAttribute("aria-describedby"))?.textContent ?? null,
                    plot: {height: plot.height, bottom: plot.bottom, left: plot.left, right: plot.right, width: plot.width},
                    card: {left: card.getBoundingClientRect().left, right: card.getBoundingClientRect().right},
                    bars, barContrast: bars.length ? ratio(parse(getComputedStyle(svg.querySelector("rect.ink--accent")).fill), background) : 0,
                    captionContrast: ratio(parse(getComputedStyle(caption).color), background), caption: caption.textContent};
          });
          return {charts, scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
        })()
        """#
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let page = DashboardSetup.page(server, ["snowfall:stevens:2022", "snowfall:snoqualmie:2023"])
            for options in [["--window", "360x740"], ["--dark"]] {
                let report = try await Browser.load(page, options + ["--eval", probe])
                let charts = report.object["charts"] as? [[String: Any]] ?? []
                #expect(charts.map { $0["urn"] as? String } == ["snowfall:stevens:2022", "snowfall:snoqualmie:2023"], "\(options)")
                for chart in charts {
                    let urn = chart["urn"] as? String ?? "?"
                    #expect(chart["role"] as? String == "img")
                    #expect(chart["name"] as? String == "New snow per day", "\(urn): named by its <title>")
                    #expect((chart["description"] as? String)?.hasPrefix("New snow per day at ") == true, "\(urn): described by its <desc>")
                    let plot = try #require(chart["plot"] as? [String: Double])
                    let card = try #require(chart["card"] as? [String: Double])
                    #expect((plot["height"] ?? 0) > 40, "\(urn): the plot has room: \(plot)")
                    #expect((plot["left"] ?? -1) >= (card["left"] ?? 0) && (plot["right"] ?? .infinity) <= (card["right"] ?? 0), "\(urn): inside its card")
                    let bars = chart["bars"] as? [[String: Any]] ?? []
                    #expect(bars.count == 30, "\(urn): one bar per reported day of the last 30")
                    let most = bars.compactMap { $0["value"] as? Double }.max() ?? 0
                    var previousLeft = -Double.infinity
                    for bar in bars {
                        let value = bar["value"] as? Double ?? -1, height = bar["height"] as? Double ?? -1
                        #expect(abs((bar["bottom"] as? Double ?? 0) - (plot["bottom"] ?? 0)) < 1.5, "\(urn) \(bar): on the baseline")
                        #expect(abs(height - value / most * (plot["height"] ?? 0)) < 0.75, "\(urn) \(bar): to scale (\(most) fills \(plot))")
                        let left = bar["left"] as? Double ?? 0
                        #expect(left > previousLeft, "\(urn): bars in date order")
                        previousLeft = left
                    }
                    #expect((chart["barContrast"] as? Double ?? 0) >= 3, "\(urn) \(options): bars at least 3:1 against the card")
                    #expect((chart["captionContrast"] as? Double ?? 0) >= 4.5, "\(urn) \(options): caption text at least 4.5:1")
                }
                let stevens = try #require(charts.first)
                #expect(stevens["description"] as? String == "New snow per day at Stevens Pass US 2 from Apr 1 to Apr 30 2023: 53.6 in altogether, the most 11.2 in on Apr 18.")
                #expect((stevens["caption"] as? String) == "New snow per day Apr 1 – Apr 30 top 11.2 in")
                let scrollWidth = try #require(report.object["scrollWidth"] as? Int), innerWidth = try #require(report.object["innerWidth"] as? Int)
                #expect(scrollWidth <= innerWidth, "\(options): the chart does not widen the page")
            }
        }
    }
}
