import ConditionsFigures

/// The danger chart as marks: a heading, then for each day its caption and a row per band, the
/// band's label on the left and its level written on the scale's colour in a box that runs to
/// the right edge, the text black or white, whichever reads on the colour (WCAG AA on every
/// fill the scale has).
///
/// Sizes are the page's at its default text size (1 rem = 16 px): labels in the card's body
/// type (0.9 rem), levels bold at 1 rem in boxes of 26.375 px with 0.5 rem before the words,
/// rows 0.2 rem apart, a label column as wide as "Above treeline" and 0.6 rem. Positions are
/// where the list this drawing replaced put them (docs/dashboard.md compares the two), given
/// as distances from the top and turned into the drawing's y, which runs up.
extension DangerChart {
    /// Baseline of the heading, from the top.
    static let headingBaseline = 16.0
    /// From the top of a day's group: its caption's baseline and its first box's top.
    static let captionBaseline = 42.421875, firstBoxTop = 51.3125
    /// One day's group below the previous one.
    static let groupPitch = 114.78125
    /// A box's height, and the distance from one box's top to the next.
    static let boxHeight = 26.375, rowPitch = 29.5625
    /// Baselines of a label and of the level, from the box's top.
    static let labelBaseline = 17.75, valueBaseline = 18.59375
    /// Where the boxes start (the label column and its gap) and where a level's words start.
    static let boxStart = 114.25, valueStart = 122.25

    /// The chart as a drawing as wide as the card.
    var drawing: Drawing {
        // As tall as the last box's bottom (the heading's line when there is nothing under it).
        let lastTop = Self.firstBoxTop + Double(max(0, groups.count - 1)) * Self.groupPitch
            + Double(max(0, (groups.last?.bands.count ?? 0) - 1)) * Self.rowPitch
        let height = groups.last?.bands.isEmpty == false ? lastTop + Self.boxHeight : Self.headingBaseline + 4
        /// The drawing's y of a distance `top` from the top.
        func y(_ top: Double) -> Double { height - top }
        var marks: [Drawing.Mark] = [.init(.text(title, at: .init(x: 0, y: y(Self.headingBaseline)), anchor: .start, role: .heading), ink: .text)]
        for (index, group) in groups.enumerated() {
            let groupTop = Double(index) * Self.groupPitch
            marks.append(.init(.text(group.caption, at: .init(x: 0, y: y(groupTop + Self.captionBaseline)), anchor: .start, role: .note), ink: .muted))
            for (row, band) in group.bands.enumerated() {
                let top = groupTop + Self.firstBoxTop + Double(row) * Self.rowPitch
                let said = "\(group.caption), \(band.label.lowercased()): \(band.value)"
                marks += [
                    .init(.text(band.label, at: .init(x: 0, y: y(top + Self.labelBaseline)), anchor: .start, role: .body), ink: .text),
                    .init(.rect(x: 0...1, y: y(top + Self.boxHeight)...y(top), inset: .init(leading: Self.boxStart), corner: 4),
                          ink: .fill(band.fill), label: said),
                    .init(.text(band.value, at: .init(x: 0, y: y(top + Self.valueBaseline)), anchor: .start, role: .value, dx: Self.valueStart),
                          ink: .contrasting(with: band.fill), label: said),
                ]
            }
        }
        let summary = groups.map { group in
            "\(group.caption): " + group.bands.map { "\($0.label.lowercased()) \($0.value)" }.joined(separator: ", ") + "."
        }.joined(separator: " ")
        return Drawing(title: title, summary: summary, frame: .strip(height: height), x: 0...1, y: 0...height, marks: marks)
    }
}
