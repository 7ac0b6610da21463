import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import TestHarness
import Testing

/// The avalanche danger card in a real browser: `conditions serve` with the Avalanche module
/// against a loopback avalanche.org, serving the real West Slopes North forecast of 2026-04-01
/// for Mt Baker, and for Stevens Pass an edited copy of it rating the bands 5, 4 and none today
/// and 1, 2, 3 tomorrow, under a warning. The bands are the module's drawing, made of marks;
/// what the browser computed is checked: each band's fill and text colour are the scale's and
/// at least 4.5:1 apart, its level is text on the fill and nothing covers it, the boxes land
/// where the inset says, and the drawing's summary reads "Today: above treeline 3 Considerable, …".
extension DashboardBrowserTests {
    /// The scale's colours by level, and avalanche.org's grey for "no rating".
    static let dangerFills = [1: "#50B848", 2: "#FFF200", 3: "#F7941E", 4: "#ED1C24", 5: "#231F20", 0: "#888888"]

    static func avalancheUpstream() throws -> LoopbackServer {
        let layerText = try Upstream.text("Plugins/Avalanche/Tests/Resources/derived/nwac_map_layer_2026-04-01.json")
        let forecastText = try Upstream.text("Plugins/Avalanche/Tests/Resources/real/avalanche_nwac_forecast_west-slopes-north_2026-04-01.json")
        let nullProduct = try Upstream.text("Plugins/Avalanche/Tests/Resources/real/avalanche_product_forecast_null.json")
        // Stevens Pass (1649) under a warning: its shape has not been captured; any non-null counts.
        var layer = try #require(try JSONSerialization.jsonObject(with: Data(layerText.utf8)) as? [String: Any])
        var features = try #require(layer["features"] as? [[String: Any]])
        let stevens = try #require(features.firstIndex { $0["id"] as? Int == 1649 })
        var properties = try #require(features[stevens]["properties"] as? [String: Any])
        properties["warning"] = ["product": ["title": "Avalanche Warning for Stevens Pass"]]
        features[stevens]["properties"] = properties
        layer["features"] = features
        var forecast = try #require(try JSONSerialization.jsonObject(with: Data(forecastText.utf8)) as? [String: Any])
        forecast["danger"] = [["lower": -1, "upper": 5, "middle": 4, "valid_day": "current"], ["lower": 3, "upper": 1, "middle": 2, "valid_day": "tomorrow"]]
        forecast["forecast_zone"] = [["id": 1649, "name": "Stevens Pass", "url": "http://www.nwac.us/avalanche-forecast/#/stevens-pass", "state": "WA", "zone_id": "6", "config": NSNull()]]
        let json = { (object: Any) in String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) }
        let (layerBody, stevensBody) = (try json(layer), try json(forecast))

        let upstream = LoopbackServer()
        upstream.route("/v2/public/products/map-layer/NWAC", .json(layerBody))
        upstream.route("/v2/public/product") { request in
            switch request.query {
            case "type=forecast&center_id=NWAC&zone_id=1646": .json(forecastText)
            case "type=forecast&center_id=NWAC&zone_id=1649": .json(stevensBody)
            default: .json(nullProduct)
            }
        }
        try upstream.start()
        return upstream
    }

    static func avalancheConfig(_ upstream: LoopbackServer) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"location": \(DashboardSetup.seattle),
         "places": {"baker": {"name": "Mt Baker", "latitude": 48.857, "longitude": -121.665},
                    \(Place.stevensConfig)},
         "sources": {"avalanche": {"module": "Avalanche", "options": {"baseURL": "\(upstream.baseURL.absoluteString)"}}},
         "routes": {"avalanche": "avalanche"},
         "cache": {"directory": "cache"}}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Evaluated in the page: every band of every card and part, as the browser computed it.
    /// A band is read from the drawing's marks in order: a day's caption (a note), then per band
    /// its label, its coloured box and its level.
    static let bandsProbe = #"""
    (() => {
      \#(DashboardSetup.contrastHelpers)
      const hex = (colour) => "#" + parse(colour).slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("").toUpperCase();
      const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
      const figure = (root) => {
        const figure = root.querySelector(":scope > figure.drawing");
        if (!figure) return null;
        const svg = figure.querySelector("svg.drawing__plot");
        const groups = [];
        let label = null, box = null;
        for (const mark of svg.querySelectorAll("text, rect.ink--data")) {
          if (mark.matches(".drawing__text--note")) groups.push({caption: mark.textContent, bands: []});
          else if (mark.matches(".drawing__text--body")) label = mark;
          else if (mark.matches("rect")) box = mark;
          else if (mark.matches(".drawing__text--value") && groups.length) {
            // elementFromPoint sees only the viewport: bring the band into it first.
            mark.scrollIntoView({block: "center", inline: "nearest"});
            const frame = svg.getBoundingClientRect();
            // The box's bounds unclipped; where it is drawn, found by what the browser hits.
            const text = mark.getBoundingClientRect(), bounds = box.getBoundingClientRect(), name = label.getBoundingClientRect();
            const middle = (bounds.top + bounds.bottom) / 2, hits = (x) => document.elementFromPoint(x, middle) === box;
            let left = null, right = null;
            for (let x = frame.left + 100; x < frame.left + 140 && left === null; x += 0.25) if (hits(x)) left = x;
            for (let x = frame.right + 2; x > frame.right - 20 && right === null; x -= 0.25) if (hits(x)) right = x;
            const under = {left, right, top: bounds.top, bottom: bounds.bottom};
            const fill = getComputedStyle(box).fill, colour = getComputedStyle(mark).fill;
            const hit = document.elementFromPoint((text.left + text.right) / 2, (text.top + text.bottom) / 2);
            groups[groups.length - 1].bands.push({label: label.textContent, value: mark.firstChild.data,
              said: mark.querySelector("title")?.textContent ?? null, fill: hex(fill), colour: hex(colour), ratio: ratio(parse(colour), parse(fill)),
              textOnFill: text.width > 0 && left !== null && right !== null && inside(text, under), textOnTop: Boolean(hit && mark.contains(hit)),
              labelBeside: name.width > 0 && name.right <= under.left, start: under.left - frame.left, end: frame.right - under.right,
              inFrame: left !== null && right !== null && inside(under, frame)});
          }
        }
        return {name: document.getElementById(svg.getAttribute("aria-labelledby"))?.textContent ?? null, role: svg.getAttribute("role"),
                summary: document.getElementById(svg.getAttribute("aria-describedby"))?.textContent ?? null,
                heading: svg.querySelector(".drawing__text--heading")?.textContent ?? null, groups};
      };
      const cards = Array.from(document.querySelectorAll("article.card")).map((card) => ({
        urn: card.dataset.urn, status: card.querySelector(":scope > header .status__word")?.textContent ?? null,
        tone: card.className.match(/tone-(\w+)/)?.[1] ?? null,
        rows: Array.from(card.querySelectorAll(":scope > .rows > .row")).map((row) => [row.querySelector("dt").textContent, row.querySelector("dd").textContent]),
        firstRowTone: card.querySelector(":scope > .rows > .row")?.className ?? null,
        stale: card.querySelector(":scope .card__foot .stale")?.textContent ?? null,
        link: card.querySelector(":scope .card__foot a.card__link")?.getAttribute("href") ?? null,
        figure: figure(card),
        parts: Array.from(card.querySelectorAll(".part")).map((part) => ({title: part.querySelector("h3").textContent,
          status: part.querySelector(".status__word")?.textContent ?? null, figure: figure(part)})),
      }));
      // Every other text in the cards against the nearest background the browser computed.
      const backdrop = (element) => {
        for (let e = element; e; e = e.parentElement) {
          const colour = parse(getComputedStyle(e).backgroundColor);
          if (colour.length === 3 || colour[3] > 0) return colour;
        }
        return [255, 255, 255];
      };
      const texts = [];
      for (const element of document.querySelectorAll("article.card *")) {
        if (!Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.data.trim())) continue;
        if (element.closest(".visually-hidden")) continue;
        // A drawing's words in the page's inks (a level on its colour is checked band by band);
        // a tooltip's <title> is not drawn.
        let colour = getComputedStyle(element).color;
        if (element.closest("svg")) {
          if (!element.matches("text") || element.matches(".ink--data")) continue;
          colour = getComputedStyle(element).fill;
        }
        texts.push([ratio(parse(colour), backdrop(element)), (element.className.baseVal ?? element.className) + " " + element.textContent.trim().slice(0, 30)]);
      }
      texts.sort((a, b) => a[0] - b[0]);
      return {cards, texts: texts.length, worst: texts.slice(0, 3), scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
    })()
    """#

    @Test func theAvalancheDangerCardInTheScalesColoursWithItsLevelsAsText() async throws {
        let upstream = try Self.avalancheUpstream()
        defer { upstream.stop() }
        let dir = try Self.avalancheConfig(upstream)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let page = DashboardSetup.page(server, ["avalanche:baker", "avalanche:stevens", "avalanche:all"])
            for options in [["--window", "360x740"], ["--dark"]] {
                let report = try await Browser.load(page, options + ["--eval", Self.bandsProbe])
                let cards = Dictionary((report.object["cards"] as? [[String: Any]] ?? []).map { ($0["urn"] as? String ?? "?", $0) }, uniquingKeysWith: { a, _ in a })
                #expect(Set(cards.keys) == ["avalanche:baker", "avalanche:stevens", "avalanche:all"], "\(options): \(cards.keys)")

                // Every band drawn anywhere on the page: the browser's colours, contrast and geometry.
                var seen = 0
                func check(_ figure: [String: Any]?, _ expected: [[Int]], _ name: String) {
                    let groups = figure?["groups"] as? [[String: Any]] ?? []
                    #expect(figure?["name"] as? String == "Avalanche danger by elevation", "\(name)")
                    #expect(figure?["heading"] as? String == "Avalanche danger by elevation", "\(name): its visible title")
                    #expect(figure?["role"] as? String == "img", "\(name)")
                    #expect(groups.map { $0["caption"] as? String } == Array(["Today", "Tomorrow"].prefix(expected.count)), "\(name)")
                    var summary: [String] = []
                    for (group, levels) in zip(groups, expected) {
                        let bands = group["bands"] as? [[String: Any]] ?? []
                        let caption = group["caption"] as? String ?? "?"
                        #expect(bands.count == 3, "\(name)")
                        var said: [String] = []
                        for (band, (level, label)) in zip(bands, zip(levels, ["Above treeline", "Near treeline", "Below treeline"])) {
                            seen += 1
                            let scaleName = level == 0 ? "No rating" : "\(level) " + ["Low", "Moderate", "Considerable", "High", "Extreme"][level - 1]
                            let context = "\(name) \(options) \(band)"
                            #expect(band["value"] as? String == scaleName, "\(context)")
                            #expect(band["label"] as? String == label, "\(context)")
                            #expect(band["said"] as? String == "\(caption), \(label.lowercased()): \(scaleName)", "\(context): what pointing at it says")
                            #expect(band["fill"] as? String == Self.dangerFills[level], "\(context): the scale's colour")
                            #expect((band["ratio"] as? Double ?? 0) >= 4.5, "\(context): text on its fill at least 4.5:1")
                            #expect(band["colour"] as? String == (level == 5 ? "#FFFFFF" : "#000000"), "\(context)")
                            #expect(band["textOnFill"] as? Bool == true, "\(context): the text sits on the fill")
                            #expect(band["textOnTop"] as? Bool == true, "\(context): nothing covers the text")
                            #expect(band["labelBeside"] as? Bool == true && band["inFrame"] as? Bool == true, "\(context): the label beside the box, the box in the figure")
                            // The coloured box starts 114.25 px from the left (the label column) and runs to the right edge.
                            #expect(abs((band["start"] as? Double ?? 0) - 114.25) <= 0.5 && abs(band["end"] as? Double ?? 9) <= 0.5, "\(context): where the box lands")
                            said.append("\(label.lowercased()) \(scaleName)")
                        }
                        summary.append("\(caption): \(said.joined(separator: ", ")).")
                    }
                    #expect(figure?["summary"] as? String == summary.joined(separator: " "), "\(name): what a screen reader reads")
                }

                let baker = try #require(cards["avalanche:baker"])
                check(baker["figure"] as? [String: Any], [[3, 2, 2], [2, 2, 1]], "baker")
                #expect(baker["status"] as? String == "3 Considerable")
                #expect(baker["tone"] as? String == "caution")
                let rows = (baker["rows"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
                #expect(rows.contains("Storm Slab: likely · D1–2 · above and near treeline · all aspects"), "\(rows)")
                #expect(rows.contains("Wet Loose: possible · D1–1.5 · near and below treeline · all aspects"))
                #expect(rows.contains { $0.hasPrefix("Bottom line: Avalanche danger will rise through the day") })
                // Served in November, the April forecast has long expired, and says so.
                #expect((baker["stale"] as? String)?.hasPrefix("forecast expired Wed Apr 1") == true, "\(baker["stale"] ?? "none")")
                #expect(baker["link"] as? String == "http://www.nwac.us/avalanche-forecast/#/west-slopes-north")

                let stevens = try #require(cards["avalanche:stevens"])
                check(stevens["figure"] as? [String: Any], [[5, 4, 0], [1, 2, 3]], "stevens")
                #expect(stevens["status"] as? String == "avalanche warning")
                #expect(stevens["tone"] as? String == "bad")
                #expect((stevens["rows"] as? [[String]])?.first == ["Warning", "Avalanche Warning for Stevens Pass"], "the warning first")
                #expect((stevens["firstRowTone"] as? String)?.contains("tone-bad") == true)

                let all = try #require(cards["avalanche:all"])
                let parts = all["parts"] as? [[String: Any]] ?? []
                #expect(parts.count == 10)
                #expect(all["status"] as? String == "1 avalanche warning")
                check(parts.first { $0["title"] as? String == "West Slopes North" }?["figure"] as? [String: Any], [[3, 2, 2], [2, 2, 1]], "all: West Slopes North")
                check(parts.first { $0["title"] as? String == "Stevens Pass" }?["figure"] as? [String: Any], [[5, 4, 0], [1, 2, 3]], "all: Stevens Pass")
                #expect(parts.first { $0["title"] as? String == "Olympics" }?["status"] as? String == "off-season")
                #expect(parts.first { $0["title"] as? String == "Olympics" }?["figure"] is NSNull)
                #expect(seen == 4 * 6, "\(options): every band was measured")

                #expect((report.object["texts"] as? Int ?? 0) > 100, "\(options): every text of the cards was measured")
                let worst = try #require((report.object["worst"] as? [[Any]])?.first)
                #expect((worst[0] as? Double ?? 0) >= 4.5, "\(options): every text in the cards at least 4.5:1; lowest: \(worst)")

                let scrollWidth = try #require(report.object["scrollWidth"] as? Int), innerWidth = try #require(report.object["innerWidth"] as? Int)
                #expect(scrollWidth <= innerWidth, "\(options): the bands do not widen the page")
                // An overflowing page widens Chromium's innerWidth with it: hold the narrow window to its own width.
                if options == ["--window", "360x740"] { #expect(innerWidth == 360 && scrollWidth <= 360, "\(options): \(scrollWidth) px wide") }
            }
        }
    }
}
