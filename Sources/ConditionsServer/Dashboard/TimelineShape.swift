import ConditionsKit
import ConditionsText
import Foundation

/// A `Timeline` as the `timeline` template draws it. The outer SVG has no `viewBox`, so its
/// tick labels and bars keep their size at any width and sit at percentages of it; the bands
/// and the curve are drawn in an inner SVG `span` units wide, stretched to the same width, so
/// every instant lands at the same fraction of the width in both. Strokes do not
/// stretch (`vector-effect`), and the page's policy allows no inline style: every position and
/// size is an SVG attribute.
///
/// Anything outside the timeline is cut to its edges, a span that ends before it starts is
/// not drawn, values are cut to their range, and a timeline that does not run forward draws
/// only its words.
enum TimelineShape {
    /// The inner SVG's width in its own units: an instant at fraction f is at f × `span`.
    static let span = 1_000.0
    /// The inner SVG's height in its own units, and the bars' full value.
    static let scale = 100.0
    /// Pixels: the sky (bands, curve, highlights), the bars' strip under it, and the labels.
    static let skyHeight = 96, barsTop = 102, barsHeight = 36, tickTop = 138, tickEnd = 143, labelBaseline = 156, height = 162
    /// Gap between adjacent bars, in `span` units (0.3% of the width).
    static let barGap = 3.0

    /// The template context of `timeline` as figure `id`.
    static func view(_ timeline: Timeline, id: String) -> [String: Any] {
        let figureID = "\(id)-timeline"
        var view: [String: Any] = [
            "id": figureID, "title": timeline.title, "summary": timeline.summary,
            "start": Timestamp.string(from: timeline.start), "end": Timestamp.string(from: timeline.end),
            "skyHeight": skyHeight, "barsTop": barsTop, "barsHeight": barsHeight, "barsBottom": barsTop + barsHeight, "tickTop": tickTop, "tickEnd": tickEnd, "labelBaseline": labelBaseline, "height": height,
            "span": number(span), "scale": number(scale),
        ]
        let drawable = timeline.end > timeline.start
        func x(_ date: Date) -> Double { timeline.position(date) * span }
        func stretch(_ start: Date, _ end: Date) -> (x: Double, width: Double)? {
            let (from, to) = (x(start), x(end))
            return drawable && to > from ? (from, to - from) : nil
        }

        let bands = timeline.bands.compactMap { band -> [String: Any]? in
            guard let (left, width) = stretch(band.start, band.end) else { return nil }
            return ["shade": band.shade.rawValue, "x": number(left), "width": number(width), "label": band.label]
        }
        let highlights = timeline.highlights.compactMap { highlight -> [String: Any]? in
            guard let (left, width) = stretch(highlight.start, highlight.end) else { return nil }
            return ["x": number(left), "width": number(width), "label": highlight.label,
                    "start": Timestamp.string(from: highlight.start), "end": Timestamp.string(from: highlight.end)]
        }
        // In the outer SVG's pixels, at percentages of its width: the unknown hours' hatching
        // would be squeezed to nothing in a stretched coordinate system.
        let bars = timeline.bars.compactMap { bar -> [String: Any]? in
            guard let (left, width) = stretch(bar.start, bar.end) else { return nil }
            let gap = min(barGap, width / 4)
            // Unknown fills the strip, hatched: it must never read as a clear hour.
            let share = bar.value.map { min(scale, max(0, $0)) / scale } ?? 1
            let barHeight = share * Double(barsHeight)
            return ["x": number((left + gap / 2) / span * 100) + "%", "width": number((width - gap) / span * 100) + "%",
                    "y": number(Double(barsTop + barsHeight) - barHeight), "height": number(barHeight),
                    "unknown": bar.value == nil, "label": bar.label,
                    "text": bar.value.map { DrawingShape.number($0) + "%" } ?? "unknown"]
        }
        view["bands"] = bands
        view["highlights"] = highlights
        view["bars"] = bars
        view["hasBars"] = !bars.isEmpty
        let line = drawable ? timeline.curve.flatMap { curve(for: $0, timeline) } : nil
        view["curve"] = line.map { $0 as Any } ?? false
        view["ticks"] = drawable ? timeline.ticks.filter { $0.time >= timeline.start && $0.time <= timeline.end }.map { tick -> [String: Any] in
            let percent = timeline.position(tick.time) * 100
            // Labels near an edge hang inwards so they are not cut off.
            let anchor = percent < 8 ? "start" : percent > 92 ? "end" : "middle"
            return ["x": number(percent), "label": tick.label, "anchor": anchor]
        } : []
        // The key names only what is drawn.
        var key: [[String: Any]] = []
        var shades: [Timeline.Shade] = []
        for band in timeline.bands where !shades.contains(band.shade) && bands.contains(where: { $0["shade"] as? String == band.shade.rawValue }) {
            shades.append(band.shade)
            key.append(["kind": "band timeline__swatch--\(band.shade.rawValue)", "label": band.label, "hatched": false])
        }
        if let curve = timeline.curve, line != nil { key.append(["kind": "curve", "label": curve.label, "hatched": false]) }
        if !bars.isEmpty { key.append(["kind": "bar", "label": timeline.barsLabel, "hatched": false]) }
        if bars.contains(where: { $0["unknown"] as? Bool == true }) { key.append(["kind": "unknown", "label": "\(timeline.barsLabel) unknown", "hatched": true]) }
        if !highlights.isEmpty { key.append(["kind": "highlight", "label": timeline.highlightsLabel, "hatched": false]) }
        view["key"] = key
        return view
    }

    /// The curve's polyline and its baseline, in the sky's units (the range's top at 0).
    static func curve(for curve: Timeline.Curve, _ timeline: Timeline) -> [String: Any]? {
        let (low, high) = (curve.range.lowerBound, curve.range.upperBound)
        guard low.isFinite, high.isFinite, high > low else { return nil }
        func y(_ value: Double) -> Double { (high - min(high, max(low, value))) / (high - low) * scale }
        let points = curve.samples.filter { $0.time >= timeline.start && $0.time <= timeline.end && $0.value.isFinite }
            .map { "\(number(timeline.position($0.time) * span)),\(number(y($0.value)))" }
        guard points.count >= 2 else { return nil }
        var view: [String: Any] = ["points": points.joined(separator: " "), "label": curve.label, "baseline": false]
        if let baseline = curve.baseline, baseline.isFinite, curve.range.contains(baseline) {
            view["baseline"] = ["y": number(y(baseline))]
        }
        return view
    }

    /// SVG numbers, short.
    static func number(_ value: Double) -> String { DrawingShape.number(value) }
}
