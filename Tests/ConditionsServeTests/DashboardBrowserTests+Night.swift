import ConditionsKit
import ConditionsKitTesting
import Foundation
import TestHarness
import Testing

/// The Tonight card's timeline in a real browser: `conditions serve` routing `night` to the
/// Astronomy module and `sky` to a recorded forecast (the hours NightCLITests reads), the page
/// asked for `night:stevens:2026-11-26`. The night's own data, from `/v1/urn`, says where
/// everything must be; the browser's layout says where it is: each window's highlight over its
/// stretch of the time axis, the Moon's curve crossing the horizon line where the Moon rises
/// or sets, a bar per hour, the drawing named, and the page no wider than a phone.
extension DashboardBrowserTests {
    static let nightURN = "night:stevens:2026-11-26"
    /// NightCLITests' recorded hours from 00:00Z: clear evening, a cloudy spell, clear after
    /// midnight, an hour unknown, then clear again.
    static let nightCovers: [Double?] = [5, 5, 10, 20, 30, 40, 85, 90, 100, 60, 20, 10, 0, nil, 0, 5, 10, 20, 25, 70, 90, 95, 100, 100]
    static let nightFirstHour = "2026-11-27T00:00:00Z"

    /// A number from the probe's JSON, integral or not.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Double: value
        case let value as Int: Double(value)
        case let value as NSNumber: value.doubleValue
        default: nil
        }
    }

    static func nightSpans(_ value: Any?) -> [(start: Date, end: Date)] {
        let formatter = ISO8601DateFormatter()
        return (value as? [[String: Any]] ?? []).compactMap { span in
            guard let start = (span["start"] as? String).flatMap(formatter.date(from:)), let end = (span["end"] as? String).flatMap(formatter.date(from:)) else { return nil }
            return (start, end)
        }
    }

    static func nightConfig() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"location": \(DashboardSetup.seattle),
         "places": {\(Place.stevensConfig)},
         "sources": {"fixtures": {"module": "Fixtures", "ttl": "1h"}, "astronomy": {"module": "Astronomy"}},
         "routes": {"night": "astronomy", "sky": "fixtures"},
         "cache": {"directory": "cache"}}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        let first = try #require(ISO8601DateFormatter().date(from: nightFirstHour))
        let hours = nightCovers.enumerated().map { index, cover in
            #"{"time": "\#(ISO8601DateFormatter().string(from: first.addingTimeInterval(Double(index) * 3_600)))", "skyCover": \#(cover.map { "\($0)" } ?? "null")}"#
        }
        let folder = dir.appendingPathComponent("Fixtures/sky")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"urn": "sky:stevens", "kind": "sky", "fetchedAt": "2026-11-26T18:00:00Z", "data": {"hours": [\#(hours.joined(separator: ", "))]}}"#
            .write(to: folder.appendingPathComponent("stevens.json"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Evaluated in the page: the timeline as laid out, every position as a fraction of the
    /// time axis (the sky's box), the curve's crossings of the horizon line in screen space.
    static let timelineProbe = #"""
    (() => {
      \#(DashboardSetup.contrastHelpers)
      const card = document.querySelector('article.card[data-urn="\#(nightURN)"]');
      const svg = card?.querySelector(":scope > figure.drawing > svg.drawing__plot");
      if (!svg) return {missing: true, card: card ? card.innerText.slice(0, 500) : null};
      // The plot: the inner SVG stretched over the width, time running across it.
      const plot = svg.querySelector(":scope > svg"), axis = plot.getBoundingClientRect();
      const fraction = (x) => (x - axis.left) / axis.width;
      const screen = (element, x, y) => new DOMPoint(x, y).matrixTransform(element.getScreenCTM());
      const titled = (selector, title) => Array.from(plot.querySelectorAll(selector)).find((e) => e.querySelector("title")?.textContent === title);
      const highlights = Array.from(plot.querySelectorAll("rect.ink--highlight")).map((rect) => {
        const box = rect.getBoundingClientRect();
        return {start: fraction(box.left), end: fraction(box.right), label: rect.querySelector("title").textContent};
      });
      const line = titled("polyline", "Moon altitude"), horizon = titled("line", "Horizon");
      let crossings = [], samples = 0;
      if (line && horizon) {
        const level = screen(horizon, 0, Number(horizon.getAttribute("y1"))).y;
        const points = line.getAttribute("points").trim().split(/\s+/).map((pair) => { const [x, y] = pair.split(",").map(Number); return screen(line, x, y); });
        samples = points.length;
        for (let i = 1; i < points.length; i++) {
          const [a, b] = [points[i - 1].y - level, points[i].y - level];
          if (a === 0 || (a < 0) === (b < 0)) continue;
          const x = points[i - 1].x + (points[i].x - points[i - 1].x) * a / (a - b);
          // Screen y grows downwards: above the horizon is a smaller y.
          crossings.push({at: fraction(x), rising: b < 0});
        }
      }
      const tickTexts = Array.from(svg.querySelectorAll("text.drawing__text")).filter((text) => /^\d\d:\d\d$/.test(text.textContent));
      const tickColour = getComputedStyle(tickTexts[0]).fill;
      const backdrop = (element) => {
        for (let e = element; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c.length === 3 || c[3] > 0) return c; }
        return [255, 255, 255];
      };
      return {
        role: svg.getAttribute("role"), name: document.getElementById(svg.getAttribute("aria-labelledby"))?.textContent ?? null,
        description: document.getElementById(svg.getAttribute("aria-describedby"))?.textContent ?? null,
        highlights, crossings, samples,
        bars: svg.querySelectorAll("rect.ink--accent, rect.ink--unknown").length,
        unknownBars: Array.from(svg.querySelectorAll("rect.ink--unknown")).map((rect) => {
          const box = rect.getBoundingClientRect();
          return {start: fraction(box.left), end: fraction(box.right), height: box.height, fill: getComputedStyle(rect).fill};
        }),
        ticks: tickTexts.map((text) => { const box = text.getBoundingClientRect(); return [text.textContent, fraction((box.left + box.right) / 2)]; }),
        tickRatio: ratio(parse(tickColour), backdrop(svg)),
        captionRatio: Math.min(...Array.from(card.querySelectorAll(".drawing__caption bdi")).map((text) => ratio(parse(getComputedStyle(text).color), backdrop(text)))),
        key: Array.from(card.querySelectorAll(".drawing__key li")).map((item) => item.textContent),
        rows: Array.from(card.querySelectorAll(":scope > .rows > .row")).map((row) => row.querySelector("dt").textContent + ": " + row.querySelector("dd").textContent),
        axisWidth: axis.width, figureRight: svg.getBoundingClientRect().right, cardRight: card.getBoundingClientRect().right,
        scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
      };
    })()
    """#

    @Test func theTonightTimelineSunsetToSunrise() async throws {
        let dir = try Self.nightConfig()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let reply = try await server.request("/v1/urn/" + Self.nightURN)
            #expect(reply.status == 200, "\(reply.body.prefix(500))")
            let data = try #require(reply.object["data"] as? [String: Any], "\(reply.body.prefix(500))")
            let formatter = ISO8601DateFormatter()
            let sunset = try #require((data["sunset"] as? String).flatMap(formatter.date(from:)))
            let sunrise = try #require((data["sunrise"] as? String).flatMap(formatter.date(from:)))
            let length = sunrise.timeIntervalSince(sunset)
            func at(_ date: Date) -> Double { date.timeIntervalSince(sunset) / length }
            let windows = Self.nightSpans(data["windows"])
            #expect(!windows.isEmpty, "the recorded hours leave a window")
            let moon = try #require(data["moon"] as? [String: Any])
            let edges = Self.nightSpans(moon["up"]).flatMap { [($0.start, true), ($0.end, false)] }
                .filter { $0.0 > sunset && $0.0 < sunrise }.map { (at: at($0.0), rising: $0.1) }
            #expect(!edges.isEmpty, "the Moon rises or sets during this night")
            let samples = try #require((moon["altitude"] as? [Any])?.count)
            let hours = ((data["sky"] as? [String: Any])?["hours"] as? [[String: Any]] ?? []).compactMap { ($0["time"] as? String).flatMap(formatter.date(from:)) }
                .filter { $0.addingTimeInterval(3_600) > sunset && $0 < sunrise }
            let unknownHour = try #require(formatter.date(from: "2026-11-27T13:00:00Z"))
            // Local midnight, PST.
            let midnight = try #require(formatter.date(from: "2026-11-27T08:00:00Z"))

            for options in [["--window", "360x740"], ["--dark"]] {
                // Beside it, a night outside the recorded forecast: its long "clouds unknown" status
                // must wrap, not widen the page.
                let report = try await Browser.load(DashboardSetup.page(server, [Self.nightURN, "night:stevens:2026-06-20"]),
                                                    options + ["--eval", Self.timelineProbe])
                let probe = report.object
                #expect(probe["missing"] == nil, "\(options): no timeline: \(probe)")
                let width = try #require(Self.number(probe["axisWidth"]))
                // Two pixels of the axis: rounding of the drawing's numbers and of the layout.
                let pixel = 2 / width
                #expect(probe["role"] as? String == "img")
                #expect(probe["name"] as? String == "Tonight, sunset to sunrise", "\(options): the drawing's accessible name")
                let description = probe["description"] as? String ?? ""
                #expect(description.hasPrefix("From sunset 16:") && description.contains("Dark, moonless and clear: "), "\(options): \(description)")

                let highlights = probe["highlights"] as? [[String: Any]] ?? []
                #expect(highlights.count == windows.count, "\(options): one highlight per window")
                for (highlight, window) in zip(highlights, windows) {
                    let (start, end) = (Self.number(highlight["start"]) ?? -1, Self.number(highlight["end"]) ?? -1)
                    #expect(abs(start - at(window.start)) <= pixel && abs(end - at(window.end)) <= pixel,
                            "\(options): \(highlight) should span \(at(window.start))…\(at(window.end))")
                    #expect((highlight["label"] as? String)?.hasPrefix("Window ") == true)
                }

                // Where the line crosses 0 is where the Moon rises or sets, to a sample.
                #expect(probe["samples"] as? Int == samples)
                let crossings = probe["crossings"] as? [[String: Any]] ?? []
                let sample = TimeInterval(1_200) / length
                #expect(crossings.count == edges.count, "\(options): crossings \(crossings), Moon rises and sets \(edges)")
                for (crossing, edge) in zip(crossings, edges) {
                    #expect(abs((Self.number(crossing["at"]) ?? -1) - edge.at) <= sample + pixel, "\(options): \(crossing) vs \(edge)")
                    #expect(crossing["rising"] as? Bool == edge.rising, "\(options): \(crossing) vs \(edge)")
                }

                #expect(probe["bars"] as? Int == hours.count, "\(options): a bar per hour of the night")
                // The hour without a value (13:00Z): drawn over its hour at full height, hatched.
                let unknown = probe["unknownBars"] as? [[String: Any]] ?? []
                #expect(unknown.count == 1, "\(options): \(unknown)")
                if let bar = unknown.first {
                    #expect(abs((Self.number(bar["start"]) ?? -1) - at(unknownHour)) <= 3 * pixel
                            && abs((Self.number(bar["end"]) ?? -1) - at(unknownHour.addingTimeInterval(3_600))) <= 3 * pixel, "\(options): \(bar)")
                    #expect((bar["fill"] as? String)?.contains("-drawing-hatch") == true, "\(options): hatched, not a solid bar: \(bar)")
                    // The sky-cover strip is 36 px tall (Timeline.barsHeight): unknown fills it.
                    #expect((Self.number(bar["height"]) ?? 0) >= 36 - 1.5, "\(options): \(bar)")
                }
                let ticks = probe["ticks"] as? [[Any]] ?? []
                let zero = try #require(ticks.first { $0.first as? String == "00:00" }, "\(ticks)")
                #expect(abs((Self.number(zero[1]) ?? -1) - at(midnight)) <= 2 * pixel, "\(options): 00:00 sits at local midnight")
                #expect((Self.number(probe["tickRatio"]) ?? 0) >= 4.5, "\(options): the time labels at least 4.5:1")
                #expect((Self.number(probe["captionRatio"]) ?? 0) >= 4.5, "\(options): the caption and the key's words at least 4.5:1")
                #expect((probe["key"] as? [String] ?? []).contains("Moon altitude"))
                #expect((probe["rows"] as? [String] ?? []).filter { $0.hasPrefix("Window: ") }.count == windows.count, "the windows as text too")

                let scrollWidth = try #require(probe["scrollWidth"] as? Int), innerWidth = try #require(probe["innerWidth"] as? Int)
                #expect(scrollWidth <= innerWidth, "\(options): the timeline does not widen the page")
                // A page wider than the window makes the window's layout wider too: check against the window asked for.
                if options == ["--window", "360x740"] { #expect(innerWidth == 360 && scrollWidth <= 360, "\(options): \(scrollWidth) px wide") }
                #expect((Self.number(probe["figureRight"]) ?? .infinity) <= (Self.number(probe["cardRight"]) ?? 0) + 0.5, "\(options): the drawing stays inside its card")
            }
        }
    }
}
