import ConditionsFigures
import ConditionsKit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ConditionsServer

/// The `timeline` figure as the server writes it: every instant at its fraction of the width
/// (worked out here from the times, not by the server's arithmetic), the drawing named and
/// described, every text escaped, and no value — reversed, out of range, not finite — able to
/// put a number outside the drawing or make the markup ill-formed.
@Suite struct TimelineFigureTests {
    static let start = Date(timeIntervalSince1970: 1_795_739_000)
    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    static func render(_ timeline: Timeline, id: String = "card-test") throws -> String {
        let resources = try DashboardResources.load()
        return try #require(resources.templates.render(TimelineShape.view(timeline, id: id), withTemplate: "timeline"))
    }

    /// A 10-hour night: twilight, night, twilight; a curve rising through 0 at 4 h; 10 hourly
    /// bars, one unknown; a window from 2 h to 3 h 30.
    static let night: Timeline = {
        let bands: [Timeline.Band] = [.init(.civil, from: at(0), to: at(60), label: "Civil twilight"),
                                      .init(.night, from: at(60), to: at(540), label: "Astronomical night"),
                                      .init(.civil, from: at(540), to: at(600), label: "Civil twilight")]
        let samples: [Timeline.Sample] = stride(from: 0.0, through: 600, by: 60).map { Timeline.Sample(at($0), ($0 - 240) / 6) }
        let bars = (0..<10).map { (hour: Int) -> Timeline.Bar in
            let minute = Double(hour) * 60
            let value: Double? = hour == 5 ? nil : Double(hour) * 10
            return Timeline.Bar(from: at(minute), to: at(minute + 60), value: value, label: "h\(hour)")
        }
        let ticks: [Timeline.Tick] = [.init(at(0), "edge"), .init(at(120), "2"), .init(at(300), "5"), .init(at(590), "9:50")]
        return Timeline(title: "Tonight, sunset to sunrise", start: at(0), end: at(600), bands: bands,
                        curve: Timeline.Curve(label: "Moon altitude", range: -90...90, baseline: 0, samples: samples),
                        barsLabel: "Sky cover", bars: bars, highlightsLabel: "Dark, moonless and clear",
                        highlights: [Timeline.Highlight(from: at(120), to: at(210), label: "Window 2–3:30")], ticks: ticks,
                        summary: "From sunset to sunrise: a window from 2 to 3:30.")
    }()

    static func attributes(_ element: String, class name: String, in html: String) throws -> [[String: String]] {
        let tags = html.matches(of: try Regex("<\(element) class=\"\(name)[^\"]*\"[^>]*>")).map { String(html[$0.range]) }
        return tags.map { tag in
            Dictionary(tag.matches(of: #/ ([a-z0-9-]+)="([^"]*)"/#).map { (String($0.output.1), String($0.output.2)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// The markup parses as XML (what an SVG must be): nothing a value does can break it.
    static func wellFormed(_ html: String) -> Bool {
        XMLParser(data: Data(html.utf8)).parse()
    }

    @Test func everythingIsAtItsFractionOfTheNight() throws {
        let html = try Self.render(Self.night)
        #expect(Self.wellFormed(html), "\(html)")
        let highlight = try #require(try Self.attributes("rect", class: "timeline__highlight", in: html).first)
        // 120 and 210 minutes of 600: 0.2 and 0.35 of the 1000-unit width.
        #expect(highlight["x"] == "200" && highlight["width"] == "150", "\(highlight)")
        let bands = try Self.attributes("rect", class: "timeline__band", in: html)
        #expect(bands.map { [$0["class"], $0["x"], $0["width"]] } == [["timeline__band timeline__band--civil", "0", "100"],
                                                                       ["timeline__band timeline__band--night", "100", "800"],
                                                                       ["timeline__band timeline__band--civil", "900", "100"]])
        let bars = try Self.attributes("rect", class: "timeline__bar", in: html)
        #expect(bars.count == 10)
        // Bars are drawn in pixels at percentages of the width, in a strip 36 px tall from y 102.
        #expect(bars.map { $0["height"] } == ["0", "3.6", "7.2", "10.8", "14.4", "36", "21.6", "25.2", "28.8", "32.4"])
        #expect(bars.map { $0["x"] } == ["0.15%", "10.15%", "20.15%", "30.15%", "40.15%", "50.15%", "60.15%", "70.15%", "80.15%", "90.15%"] && bars[3]["width"] == "9.7%")
        #expect(bars.allSatisfy { Double($0["y"] ?? "") == 138 - Double($0["height"] ?? "")! }, "every bar stands on the strip's floor")
        #expect(bars[5]["class"] == "timeline__bar timeline__bar--unknown" && bars[5]["fill"] == "url(#card-test-timeline-hatch)", "unknown is hatched at full height")
        #expect(html.contains(#"<pattern id="card-test-timeline-hatch""#))
        // 0° is half way down; the curve crosses it at 240 min, 0.4 of the width.
        let baseline = try #require(try Self.attributes("line", class: "timeline__baseline", in: html).first)
        #expect(baseline["y1"] == "50" && baseline["y2"] == "50")
        let points = try #require(try Self.attributes("polyline", class: "timeline__curve", in: html).first?["points"]).split(separator: " ")
        #expect(points.count == 11 && points[4] == "400,50" && points[0] == "0,72.22" && points[10] == "1000,16.67", "\(points)")
        let ticks = try Self.attributes("text", class: "timeline__tick", in: html)
        #expect(ticks.map { [$0["x"], $0["text-anchor"]] } == [["0%", "start"], ["20%", "middle"], ["50%", "middle"], ["98.33%", "end"]])
        #expect(html.contains(#">9:50</text>"#))
    }

    @Test func theDrawingIsNamedAndDescribed() throws {
        let html = try Self.render(Self.night)
        #expect(html.contains(#"<svg class="timeline__plot" width="100%" height="162" role="img" aria-labelledby="card-test-timeline-title" aria-describedby="card-test-timeline-desc""#))
        #expect(html.contains(#"<title id="card-test-timeline-title">Tonight, sunset to sunrise</title><desc id="card-test-timeline-desc">From sunset to sunrise: a window from 2 to 3:30.</desc>"#))
        // The key names what is drawn, unknown hours included; its swatches are decoration.
        let key = html.matches(of: #/<li><svg class="timeline__swatch timeline__swatch--([a-z_ -]+)" viewBox="0 0 16 10" aria-hidden="true" focusable="false">.*?</svg><bdi>([^<]*)</bdi></li>/#)
            .map { [String($0.output.1), String($0.output.2)] }
        #expect(key == [["band timeline__swatch--civil", "Civil twilight"], ["band timeline__swatch--night", "Astronomical night"], ["curve", "Moon altitude"],
                        ["bar", "Sky cover"], ["unknown", "Sky cover unknown"], ["highlight", "Dark, moonless and clear"]], "\(key)")
        #expect(!html.contains("style="))
    }

    @Test func everyTextIsEscaped() throws {
        var timeline = Self.night
        timeline.title = "<script>alert(1)</script>"
        timeline.summary = "\"/><foreignObject onload='x'>"
        timeline.bands[0].label = "<b>civil</b>"
        timeline.highlights[0].label = "a & b"
        timeline.bars[0].label = "</title><script>"
        timeline.ticks[1].label = "<tspan>2</tspan>"
        timeline.curve?.label = "'moon'"
        timeline.barsLabel = "<i>Sky</i>"
        let html = try Self.render(timeline)
        #expect(Self.wellFormed(html), "\(html)")
        #expect(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<tspan>") && !html.contains("<foreignObject") && !html.contains("<i>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && html.contains("a &amp; b") && html.contains("&lt;tspan&gt;2&lt;/tspan&gt;"))
    }

    /// Times outside the night, reversed spans, values out of range or not finite, a reversed
    /// or infinite range: every coordinate stays inside the drawing and the markup stays whole.
    @Test func badValuesNeverBreakTheDrawing() throws {
        var timeline = Self.night
        timeline.bands = [Timeline.Band(.day, from: Self.at(-600), to: Self.at(30), label: "before"),
                          Timeline.Band(.night, from: Self.at(500), to: Self.at(9_000), label: "after"),
                          Timeline.Band(.nautical, from: Self.at(300), to: Self.at(200), label: "reversed"),
                          Timeline.Band(.civil, from: Date.distantPast, to: Date.distantFuture, label: "all")]
        timeline.highlights = [Timeline.Highlight(from: Self.at(-50), to: Self.at(-10), label: "outside"),
                               Timeline.Highlight(from: Self.at(590), to: Self.at(700), label: "edge")]
        timeline.bars = [Timeline.Bar(from: Self.at(0), to: Self.at(60), value: 250, label: "over"),
                         Timeline.Bar(from: Self.at(60), to: Self.at(120), value: -40, label: "under"),
                         Timeline.Bar(from: Self.at(120), to: Self.at(180), value: Double.nan, label: "nan"),
                         Timeline.Bar(from: Self.at(180), to: Self.at(180), value: 5, label: "empty")]
        let samples: [Timeline.Sample] = [.init(Self.at(-30), 0), .init(Self.at(0), 1e300), .init(Self.at(300), -Double.infinity),
                                          .init(Self.at(400), Double.nan), .init(Self.at(600), -1e300)]
        timeline.curve = Timeline.Curve(label: "m", range: -10...10, baseline: 50, samples: samples)
        timeline.ticks = [Timeline.Tick(Self.at(-1), "before"), Timeline.Tick(Self.at(601), "after")]
        let html = try Self.render(timeline)
        #expect(Self.wellFormed(html), "\(html)")
        let inner = try Self.attributes("rect", class: "timeline__", in: html) + Self.attributes("line", class: "timeline__baseline", in: html)
        for element in inner {
            for key in ["x", "y", "width", "height", "y1", "y2"] {
                guard let text = element[key] else { continue }
                let value = try #require(Double(text.hasSuffix("%") ? String(text.dropLast()) : text), "\(key)=\(text)")
                #expect((0...1_000).contains(value), "\(element)")
            }
        }
        let bands = try Self.attributes("rect", class: "timeline__band", in: html)
        #expect(bands.map { [$0["x"], $0["width"]] } == [["0", "50"], ["833.33", "166.67"], ["0", "1000"]], "cut to the night; the reversed one left out")
        #expect(try Self.attributes("rect", class: "timeline__highlight", in: html).map { [$0["x"], $0["width"]] } == [["983.33", "16.67"]])
        let bars = try Self.attributes("rect", class: "timeline__bar", in: html)
        #expect(bars.map { $0["height"] } == ["36", "0", "36"], "cut to 0…100; not a number is unknown; an empty slot is not drawn")
        #expect(bars[2]["class"] == "timeline__bar timeline__bar--unknown")
        let points = try #require(try Self.attributes("polyline", class: "timeline__curve", in: html).first?["points"])
        #expect(points == "0,0 1000,100", "only the finite samples inside the night, cut to the range")
        #expect(!html.contains("timeline__baseline"), "a baseline outside the range is not drawn")
        #expect(!html.contains("timeline__tick\""), "ticks outside the night are not drawn")

        // A night that does not run forward: its words, nothing drawn.
        var backwards = Self.night
        (backwards.start, backwards.end) = (backwards.end, backwards.start)
        let empty = try Self.render(backwards)
        #expect(Self.wellFormed(empty))
        #expect(empty.contains("<desc id=\"card-test-timeline-desc\">From sunset"))
        #expect(!empty.contains("<rect class=\"timeline__") && !empty.contains("<polyline") && !empty.contains("<text"))

        var infinite = Self.night
        infinite.curve = Timeline.Curve(label: "m", range: -Double.infinity...Double.infinity,
                                        samples: [Timeline.Sample(Self.at(0), 0), Timeline.Sample(Self.at(60), 1)])
        #expect(!(try Self.render(infinite)).contains("<polyline"))
    }
}
