import Foundation

extension Drawing {
    /// One slot of a bar chart: its label and value.
    public struct Slot: Sendable, Equatable {
        /// What the slot is (`Jan 15`), said when its bar is pointed at.
        public var label: String
        /// The value; nil when nothing was reported for the slot (a gap, unlike 0).
        public var value: Double?

        /// A slot `label` of `value`; a value that is not finite counts as not reported.
        public init(_ label: String, _ value: Double?) {
            self.label = label
            self.value = value.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// Bars drawn to scale from zero, one per slot, in a strip 72 pixels tall (the notes' rule
    /// under it is their baseline):
    /// a month of days' new snow, a station's daily depth. A slot without a value gets no bar
    /// (a gap); a value of zero or less a bar of no height, still there to be pointed at. The
    /// notes under it say the title, the first and last slots and the top of the scale.
    ///
    /// ```swift
    /// Drawing.bars(title: "New snow per day", unit: "in",
    ///              [.init("Jan 14", 0), .init("Jan 15", 8.5), .init("Jan 16", nil)],
    ///              summary: "New snow per day, Jan 14 to Jan 16: 8.5 in in all, most on Jan 15; Jan 16 not reported.")
    /// ```
    public static func bars(title: String, unit: String, _ slots: [Slot], summary: String) -> Drawing {
        let top = slots.compactMap(\.value).reduce(0, max)
        let width = Double(max(1, slots.count)) * slotWidth
        let marks: [Mark] = slots.enumerated().compactMap { index, slot in
            guard let value = slot.value else { return nil }
            let height = top > 0 && value > 0 ? min(100, value / top * 100) : 0
            let barWidth = slotWidth * barShare
            let left = Double(index) * slotWidth + (slotWidth - barWidth) / 2
            return Mark(.rect(x: left...(left + barWidth), y: 0...height), ink: .accent,
                        label: "\(slot.label): \(text(value, unit: unit))")
        }
        return Drawing(title: title, summary: summary, frame: .strip(height: plotHeight), x: 0...width, y: 0...100, marks: marks,
                       notes: [title, "\(slots.first?.label ?? "") – \(slots.last?.label ?? "")", "top \(text(top, unit: unit))"])
    }

    /// Each slot's width on the x axis; a bar takes `barShare` of it, the rest is the gap.
    static let slotWidth = 10.0, barShare = 0.8
    /// The bars' height in pixels, the tallest reaching it.
    static let plotHeight = 72.0

    /// `8.5 in`, `3 in`: a value as a bar's label and the scale say it (two decimals at most).
    public static func text(_ value: Double, unit: String) -> String {
        let shown: String
        if !value.isFinite {
            shown = "0"
        } else if abs(value) >= 1e12 {
            shown = String(format: "%.3g", value)
        } else {
            let rounded = (value * 100).rounded() / 100
            var decimals = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.2f", rounded)
            while decimals.contains("."), decimals.hasSuffix("0") { decimals.removeLast() }
            shown = decimals
        }
        return unit.isEmpty ? shown : "\(shown) \(unit)"
    }
}
