/// Labelled values on coloured fills, grouped under captions: a rating scale's level for each
/// part of something, such as avalanche danger above, near and below treeline, today and
/// tomorrow. A page draws each band as its value written on its fill, beside its label.
///
/// The module chooses each fill (its scale's colours); the page chooses the text colour on it
/// (black or white, whichever contrasts more with the fill by WCAG's relative luminance), so
/// any fill that allows WCAG AA text gets it. A fill must be `#RRGGBB`; a page draws anything
/// else grey, never passing it on. The value is always written out: colour is never the only
/// sign of a level.
///
/// ```swift
/// BandChart(title: "Avalanche danger", groups: [
///     .init(caption: "Today", bands: [
///         .init(label: "Above treeline", value: "3 Considerable", fill: "#F7941E"),
///         .init(label: "Near treeline", value: "2 Moderate", fill: "#FFF200"),
///     ]),
/// ])
/// ```
public struct BandChart: Sendable, Equatable {
    /// One band: what it is, its value as text, and the colour the value is written on.
    public struct Band: Sendable, Equatable {
        /// What the band is (`Above treeline`).
        public var label: String
        /// Its value as people read it (`3 Considerable`), written on the fill.
        public var value: String
        /// The fill as `#RRGGBB` (`#F7941E`); a page draws any other text grey.
        public var fill: String

        /// A band `label` of `value` written on `fill` (`#RRGGBB`).
        public init(label: String, value: String, fill: String) {
            self.label = label
            self.value = value
            self.fill = fill
        }
    }

    /// Bands under one caption (`Today`), in reading order (top to bottom).
    public struct Group: Sendable, Equatable {
        /// What the bands are of (`Today`, `Tomorrow`).
        public var caption: String
        /// The bands, top to bottom.
        public var bands: [Band]

        /// The `bands` under `caption`.
        public init(caption: String, bands: [Band]) {
            self.caption = caption
            self.bands = bands
        }
    }

    /// What the bands show (`Avalanche danger`): the figure's visible caption and accessible name.
    public var title: String
    /// The groups in reading order.
    public var groups: [Group]

    /// A figure titled `title` of `groups`.
    public init(title: String, groups: [Group]) {
        self.title = title
        self.groups = groups
    }
}
