@testable import Astronomy
import ConditionsFigures
import Foundation
import Testing

/// The night's timeline as marks (`Timeline.drawing`): every instant at its share of the night
/// (worked out here from the times), heights in pixels up from the bottom of a 162 px strip,
/// unknown hours hatched, the key naming what is drawn, and no value (reversed, out of range,
/// not finite) able to put a mark outside the drawing. The server's side (escaping, markup
/// that parses) is DrawingFigureTests'.
@Suite struct TimelineDrawingTests {
    static let start = Date(timeIntervalSince1970: 1_795_739_000)
    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    /// A 10-hour night: twilight, night, twilight; a curve rising through 0 at 4 h; 10 hourly
    /// bars, one unknown; a window from 2 h to 3 h 30.
    static let night: Timeline = {
        let bands: [Timeline.Band] = [.init(.civil, from: at(0), to: at(60), label: "Civil twilight"),
                                      .init(.night, from: at(60), to: at(540), label: "Astronomical night"),
                                      .init(.civil, from: at(540), to: at(600), label: "Civil twilight")]
        let samples: [Timeline.Sample] = stride(from: 0.0, through: 600, by: 60).map { Timeline.Sample(at($0), ($0 - 240) / 6) }
        let bars = (0..<10).map { (hour: Int) -> Timeline.Bar in
            let minute = Double(hour) * 60
            return Timeline.Bar(from: at(minute), to: at(minute + 60), value: hour == 5 ? nil : Double(hour) * 10, label: "h\(hour)")
        }
        let ticks: [Timeline.Tick] = [.init(at(0), "edge"), .init(at(120), "2"), .init(at(300), "5"), .init(at(590), "9:50")]
        return Timeline(title: "Tonight, sunset to sunrise", start: at(0), end: at(600), bands: bands,
                        curve: Timeline.Curve(label: "Moon altitude", range: -90...90, baseline: 0, samples: samples),
                        barsLabel: "Sky cover", bars: bars, highlightsLabel: "Dark, moonless and clear",
                        highlights: [Timeline.Highlight(from: at(120), to: at(210), label: "Window 2–3:30")], ticks: ticks,
                        summary: "From sunset to sunrise: a window from 2 to 3:30.")
    }()

    static func close(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>) -> Bool {
        abs(a.lowerBound - b.lowerBound) < 1e-9 && abs(a.upperBound - b.upperBound) < 1e-9
    }

    static func rects(_ drawing: Drawing) -> [(x: ClosedRange<Double>, y: ClosedRange<Double>, ink: Drawing.Ink, label: String?)] {
        drawing.marks.compactMap { mark in
            if case .rect(let x, let y, _, _) = mark.shape { (x, y, mark.ink, mark.label) } else { nil }
        }
    }

    @Test func everythingIsAtItsShareOfTheNight() throws {
        let drawing = Self.night.drawing
        #expect(drawing.frame == .strip(height: 162) && drawing.x == 0...1 && drawing.y == 0...162)
        #expect(drawing.title == "Tonight, sunset to sunrise" && drawing.caption == "Tonight, sunset to sunrise")
        #expect(drawing.summary == "From sunset to sunrise: a window from 2 to 3:30.")
        let rects = Self.rects(drawing)
        // The sky: the top 96 px, 66…162 up from the bottom.
        let sky = rects.filter { if case .sky = $0.ink { true } else { false } }
        #expect(sky.map(\.ink) == [.sky(1), .sky(4), .sky(1)])
        #expect(Self.close(sky[0].x, 0...0.1) && Self.close(sky[1].x, 0.1...0.9) && Self.close(sky[2].x, 0.9...1))
        #expect(sky.allSatisfy { $0.y == 66...162 })
        // 120 and 210 minutes of 600: 0.2 and 0.35, outlined.
        let window = try #require(rects.first { $0.ink == .highlight })
        #expect(Self.close(window.x, 0.2...0.35) && window.label == "Window 2–3:30")
        #expect(drawing.marks.filter { $0.ink == .fill(Timeline.outlineColour) }.count == 4)
        // Bars in a strip 36 px tall whose floor is 138 px down (24 up), the unknown hour full and hatched.
        let bars = rects.filter { $0.ink == .accent || $0.ink == .unknown }
        #expect(bars.count == 10)
        let heights = bars.map { ($0.y.upperBound - $0.y.lowerBound) * 10 }.map { $0.rounded() / 10 }
        #expect(heights == [0, 3.6, 7.2, 10.8, 14.4, 36, 21.6, 25.2, 28.8, 32.4], "\(heights)")
        #expect(bars.allSatisfy { $0.y.lowerBound == 24 }, "every bar stands on the strip's floor")
        #expect(Self.close(bars[3].x, 0.3015...0.3985), "a gap of 0.3 % of the width between bars: \(bars[3].x)")
        #expect(bars[5].ink == .unknown && bars[5].label == "h5: unknown" && bars[4].label == "h4: 40%")
        // 0° is half way down the sky (114 up); the curve crosses it at 240 min, 0.4 of the width.
        let horizon = try #require(drawing.marks.first { $0.label == "Horizon" })
        #expect(horizon.shape == .rule(.init(x: 0, y: 114), .init(x: 1, y: 114)))
        guard case .line(let points)? = drawing.marks.first(where: { $0.label == "Moon altitude" })?.shape else { Issue.record("no curve"); return }
        #expect(points.count == 11 && abs(points[4].x - 0.4) < 1e-9 && points[4].y == 114)
        #expect(abs(points[0].y - (162 - 130.0 / 180 * 96)) < 1e-9, "−40° at sunset, 130° below the top: \(points[0])")
        let ticks = drawing.marks.compactMap { mark -> (String, Double, Drawing.Anchor)? in
            if case .text(let words, let at, let anchor, _, _) = mark.shape { (words, at.x, anchor) } else { nil }
        }
        #expect(ticks.map(\.0) == ["edge", "2", "5", "9:50"] && ticks.map(\.2) == [.start, .middle, .middle, .end])
        #expect(drawing.key.map(\.label) == ["Civil twilight", "Astronomical night", "Moon altitude", "Sky cover", "Sky cover unknown", "Dark, moonless and clear"])
        #expect(drawing.key.map(\.ink) == [.sky(1), .sky(4), .fill(Timeline.curveColour), .accent, .unknown, .highlight])
    }

    /// Times outside the night, reversed spans, values out of range or not finite, a reversed
    /// or infinite range: every mark stays inside the drawing.
    @Test func badValuesNeverLeaveTheDrawing() throws {
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
        timeline.curve = Timeline.Curve(label: "m", range: -10...10, baseline: 50,
                                        samples: [.init(Self.at(-30), 0), .init(Self.at(0), 1e300), .init(Self.at(300), -Double.infinity),
                                                  .init(Self.at(400), Double.nan), .init(Self.at(600), -1e300)])
        timeline.ticks = [Timeline.Tick(Self.at(-1), "before"), Timeline.Tick(Self.at(601), "after")]
        let drawing = timeline.drawing
        func inside(_ point: Drawing.Point) -> Bool { (0...1).contains(point.x) && (0...162).contains(point.y) }
        for mark in drawing.marks {
            switch mark.shape {
            case .rect(let x, let y, _, _): #expect(inside(.init(x: x.lowerBound, y: y.lowerBound)) && inside(.init(x: x.upperBound, y: y.upperBound)), "\(mark)")
            case .rule(let a, let b): #expect(inside(a) && inside(b), "\(mark)")
            case .line(let points): #expect(points.allSatisfy(inside), "\(mark)")
            case .text(_, let at, _, _, _): #expect(inside(at), "\(mark)")
            default: Issue.record("a mark the timeline does not make: \(mark)")
            }
        }
        let sky = Self.rects(drawing).filter { if case .sky = $0.ink { true } else { false } }
        #expect(sky.map(\.label) == ["before", "after", "all"], "cut to the night; the reversed one left out")
        #expect(Self.close(sky[0].x, 0...0.05) && Self.close(sky[1].x, (500.0 / 600)...1) && Self.close(sky[2].x, 0...1))
        #expect(Self.rects(drawing).filter { $0.ink == .highlight }.map(\.label) == ["edge"])
        let bars = Self.rects(drawing).filter { $0.ink == .accent || $0.ink == .unknown }
        #expect(bars.map { $0.y.upperBound - $0.y.lowerBound } == [36, 0, 36], "cut to 0…100; not a number is unknown; an empty slot is not drawn")
        #expect(bars.map(\.ink) == [.accent, .accent, .unknown])
        guard case .line(let points)? = drawing.marks.first(where: { $0.label == "m" })?.shape else { Issue.record("no curve"); return }
        #expect(points == [.init(x: 0, y: 162), .init(x: 1, y: 66)], "only the finite samples inside the night, cut to the range")
        #expect(!drawing.marks.contains { $0.label == "Horizon" }, "a baseline outside the range is not drawn")
        #expect(!drawing.marks.contains { if case .text = $0.shape { true } else { false } }, "ticks outside the night are not drawn")

        // A night that does not run forward: its words, nothing drawn.
        var backwards = Self.night
        (backwards.start, backwards.end) = (backwards.end, backwards.start)
        #expect(backwards.drawing.marks.isEmpty && backwards.drawing.summary.hasPrefix("From sunset"))
        var infinite = Self.night
        infinite.curve = Timeline.Curve(label: "m", range: -Double.infinity...Double.infinity,
                                        samples: [Timeline.Sample(Self.at(0), 0), Timeline.Sample(Self.at(60), 1)])
        #expect(!infinite.drawing.marks.contains { $0.label == "m" })
    }
}
