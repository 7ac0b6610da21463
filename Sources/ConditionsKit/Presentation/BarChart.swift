/// Bars drawn to scale from zero, one per labelled slot: a month of days' new snow. A page
/// draws them (the dashboard as inline SVG) and gives screen readers `title` and `summary`.
///
/// ```swift
/// BarChart(title: "New snow per day", unit: "in",
///          bars: [.init("Jan 14", 0), .init("Jan 15", 8.5), .init("Jan 16", nil)],
///          summary: "New snow per day, Jan 14 to Jan 16: 8.5 in in all, most on Jan 15; Jan 16 not reported.")
/// ```
public struct BarChart: Sendable, Equatable {
    /// One slot: its label and value.
    public struct Bar: Sendable, Equatable {
        /// What the slot is (`Jan 15`), shown when a bar is pointed at.
        public var label: String
        /// The value; nil when nothing was reported for the slot (drawn as a gap, unlike 0).
        public var value: Double?

        /// A bar `label` of `value`; a value that is not finite counts as not reported.
        public init(_ label: String, _ value: Double?) {
            self.label = label
            self.value = value.flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// What the bars measure: the chart's visible caption and accessible name.
    public var title: String
    /// The values' unit (`in`), after each number.
    public var unit: String
    /// The slots in drawing order (left to right).
    public var bars: [Bar]
    /// The chart in words for those who cannot see it: the range, the total, the peak, gaps.
    public var summary: String

    /// A chart titled `title` of `bars` in `unit`, described by `summary`.
    public init(title: String, unit: String, bars: [Bar], summary: String) {
        self.title = title
        self.unit = unit
        self.bars = bars
        self.summary = summary
    }

    /// The top of the scale: the largest value, or 0 when none is above zero (bars at or
    /// below zero are drawn with no height).
    public var scaleMaximum: Double {
        bars.compactMap(\.value).reduce(0, max)
    }
}
