/// The danger by elevation band, today and tomorrow, as the card shows it: each band's label,
/// its level written out (colour is never the only sign of a level) and the scale's colour for
/// it. `DangerChart+Drawing.swift` draws it.
struct DangerChart: Equatable {
    /// One band: what it is (`Above treeline`), its level as text and the colour it is written on.
    struct Band: Equatable {
        var label: String
        var value: String
        /// `#RRGGBB`: the scale's colour of the level, avalanche.org's grey for "no rating".
        var fill: String
    }

    /// The bands of one day under its caption (`Today`).
    struct Group: Equatable {
        var caption: String
        var bands: [Band]
    }

    /// What the chart shows: its visible title and accessible name.
    var title: String
    var groups: [Group]
}
