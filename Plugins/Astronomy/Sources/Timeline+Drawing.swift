import ConditionsFigures
import Foundation

extension Timeline {
    /// Pixels from the top of the drawing: the sky (bands, curve, windows), the bars' strip
    /// under it, the tick marks and their labels.
    static let skyHeight = 96.0, barsTop = 102.0, barsHeight = 36.0, tickTop = 138.0, tickEnd = 143.0, labelBaseline = 156.0, height = 162.0
    /// The gap between adjacent bars, as a share of the width (at most a quarter of a bar's slot).
    static let barGap = 0.003
    /// The Moon's curve, and a window's outline: the same on every shade of the sky, in both schemes.
    static let curveColour = "#F5C542", outlineColour = "#56D364", horizonColour = "#FFFFFF"

    /// The timeline as marks in a strip as wide as the card: time runs left to right as a
    /// share of the night (x 0…1), heights are pixels up from the bottom (y 0…162). The sky's
    /// shades, the windows outlined over them, the horizon and the Moon's curve; an hour's sky
    /// cover as a bar (an hour without a value hatched at full height, never blank); the
    /// local hours under them. Anything outside the night is cut to it, values to their range.
    var drawing: Drawing {
        func up(_ fromTop: Double) -> Double { Self.height - fromTop }
        let forward = end > start
        func stretch(_ from: Date, _ to: Date) -> ClosedRange<Double>? {
            let (left, right) = (position(from), position(to))
            return forward && right > left ? left...right : nil
        }
        var marks: [Drawing.Mark] = []
        var key: [Drawing.Key] = []
        for band in bands {
            guard let span = stretch(band.start, band.end) else { continue }
            let ink = Drawing.Ink.sky(Shade.allCases.firstIndex(of: band.shade) ?? 0)
            marks.append(.init(.rect(x: span, y: up(Self.skyHeight)...Self.height), ink: ink, label: band.label))
            if !key.contains(where: { $0.ink == ink }) { key.append(.init(band.label, ink: ink)) }
        }
        // Windows: translucent over the shades, outlined so they read on any of them.
        let (top, bottom) = (up(Self.skyHeight * 0.01), up(Self.skyHeight * 0.99))
        let outline = Drawing.Ink.fill(Self.outlineColour)
        var windows = 0
        for highlight in highlights {
            guard let span = stretch(highlight.start, highlight.end) else { continue }
            let (left, right) = (span.lowerBound, span.upperBound)
            marks.append(.init(.rect(x: span, y: bottom...top), ink: .highlight, label: highlight.label))
            marks += [.init(.rule(.init(x: left, y: bottom), .init(x: left, y: top)), ink: outline),
                      .init(.rule(.init(x: right, y: bottom), .init(x: right, y: top)), ink: outline),
                      .init(.rule(.init(x: left, y: top), .init(x: right, y: top)), ink: outline),
                      .init(.rule(.init(x: left, y: bottom), .init(x: right, y: bottom)), ink: outline)]
            windows += 1
        }
        if let curve, forward, let line = curveMarks(curve, up: up) {
            marks += line
            key.append(.init(curve.label, ink: .fill(Self.curveColour)))
        }
        let slots = bars.compactMap { bar in stretch(bar.start, bar.end).map { (bar, $0) } }
        for (bar, span) in slots {
            let gap = min(Self.barGap, (span.upperBound - span.lowerBound) / 4)
            // Unknown fills the strip, hatched: it must never read as a clear hour.
            let share = bar.value.map { min(100, max(0, $0)) / 100 } ?? 1
            let floor = up(Self.barsTop + Self.barsHeight)
            marks.append(.init(.rect(x: (span.lowerBound + gap / 2)...(span.upperBound - gap / 2), y: floor...(floor + share * Self.barsHeight)),
                               ink: bar.value == nil ? .unknown : .accent,
                               label: "\(bar.label): \(bar.value.map { Drawing.text($0, unit: "") + "%" } ?? "unknown")"))
        }
        if !slots.isEmpty {
            marks.append(.init(.rule(.init(x: 0, y: up(Self.tickTop)), .init(x: 1, y: up(Self.tickTop))), ink: .muted))
            key.append(.init(barsLabel, ink: .accent))
            if slots.contains(where: { $0.0.value == nil }) { key.append(.init("\(barsLabel) unknown", ink: .unknown)) }
        }
        if windows > 0 { key.append(.init(highlightsLabel, ink: .highlight)) }
        for tick in ticks where forward && tick.time >= start && tick.time <= end {
            let at = position(tick.time)
            // Labels near an edge hang inwards so they are not cut off.
            let anchor: Drawing.Anchor = at < 0.08 ? .start : at > 0.92 ? .end : .middle
            marks.append(.init(.rule(.init(x: at, y: up(Self.tickTop)), .init(x: at, y: up(Self.tickEnd))), ink: .muted))
            marks.append(.init(.text(tick.label, at: .init(x: at, y: up(Self.labelBaseline)), anchor: anchor), ink: .muted))
        }
        return Drawing(title: title, summary: summary, frame: .strip(height: Self.height), x: 0...1, y: 0...Self.height,
                       marks: marks, caption: title, key: key)
    }

    /// The horizon and the curve through the samples inside the night, in the sky's pixels
    /// (the range's top at the top); nil when fewer than two samples are left.
    private func curveMarks(_ curve: Curve, up: (Double) -> Double) -> [Drawing.Mark]? {
        let (low, high) = (curve.range.lowerBound, curve.range.upperBound)
        guard low.isFinite, high.isFinite, high > low else { return nil }
        func y(_ value: Double) -> Double { up((high - min(high, max(low, value))) / (high - low) * Self.skyHeight) }
        let points = curve.samples.filter { $0.time >= start && $0.time <= end && $0.value.isFinite }
            .map { Drawing.Point(x: position($0.time), y: y($0.value)) }
        guard points.count >= 2 else { return nil }
        var marks: [Drawing.Mark] = []
        if let baseline = curve.baseline, baseline.isFinite, curve.range.contains(baseline) {
            marks.append(.init(.rule(.init(x: 0, y: y(baseline)), .init(x: 1, y: y(baseline))), ink: .fill(Self.horizonColour), label: "Horizon"))
        }
        marks.append(.init(.line(points), ink: .fill(Self.curveColour), label: curve.label))
        return marks
    }
}
