import ConditionsKit
import Foundation

/// A `BarChart` as the `chart` template draws it: one `<rect>` per reported slot in a
/// `viewBox` of `width` × `height`, to scale from a baseline at the bottom, so the tallest bar
/// fills the height. A slot without a value gets no bar (a gap); a value of zero or less gets a
/// bar of no height, still there to be pointed at.
enum BarChartShape {
    /// Each slot's width in the `viewBox`; the SVG is stretched to the card's width.
    static let slotWidth = 10.0
    /// The bar's share of its slot; the rest is the gap between bars.
    static let barShare = 0.8
    /// The `viewBox` height: the tallest bar's.
    static let height = 100.0

    /// The template context of `chart` as figure `id`.
    static func view(_ chart: BarChart, id: String) -> [String: Any] {
        let maximum = chart.scaleMaximum
        let width = max(1, Double(chart.bars.count)) * slotWidth
        let barWidth = slotWidth * barShare
        var bars: [[String: Any]] = []
        for (index, bar) in chart.bars.enumerated() {
            guard let value = bar.value else { continue }
            let barHeight = maximum > 0 && value > 0 ? min(height, value / maximum * height) : 0
            bars.append([
                "x": number(Double(index) * slotWidth + (slotWidth - barWidth) / 2), "y": number(height - barHeight),
                "width": number(barWidth), "height": number(barHeight),
                "label": bar.label, "text": text(value, unit: chart.unit),
            ])
        }
        return [
            "id": "\(id)-chart", "title": chart.title, "summary": chart.summary,
            "width": number(width), "height": number(height), "bars": bars,
            "first": chart.bars.first?.label ?? "", "last": chart.bars.last?.label ?? "",
            "scale": text(maximum, unit: chart.unit),
        ]
    }

    /// `8.5 in`, `3 in`: a value as a bar's tooltip and the scale show it (two decimals at most).
    static func text(_ value: Double, unit: String) -> String {
        let shown = number(value)
        return unit.isEmpty ? shown : "\(shown) \(unit)"
    }

    /// Two decimals at most, no trailing zeros: SVG numbers stay short.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        guard abs(value) < 1e12 else { return String(format: "%.3g", value) }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
