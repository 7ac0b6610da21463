import Foundation

/// One stretch of time drawn left to right: shaded bands behind (day, the twilights, night),
/// a curve over them (the Moon's altitude, with its horizon line), a bar per slot under them
/// (hourly sky cover, 0–100), and spans picked out (the dark-sky windows): the Tonight card's
/// figure, drawn as marks by `drawing` (Timeline+Drawing.swift).
///
/// Every instant is placed by its distance from `start`; anything outside `start…end` is cut
/// to it, and a span that ends before it starts is not drawn. The module writes the tick labels
/// (local times), so the page needs no time zone.
///
/// ```swift
/// Timeline(title: "Tonight", start: sunset, end: sunrise,
///          bands: [.init(.civil, from: sunset, to: civilDusk, label: "Civil twilight")],
///          curve: .init(label: "Moon altitude", range: -90...90, baseline: 0, samples: [.init(sunset, -12.5)]),
///          bars: [.init(from: hour, to: hour + 3600, value: 20, label: "19:00 PST")],
///          highlights: [.init(from: windowStart, to: windowEnd, label: "Window 19:10–23:00 PST")],
///          ticks: [.init(hour, "19:00")],
///          summary: "Tonight from sunset 16:21 PST to sunrise 07:32 PST: …")
/// ```
struct Timeline: Sendable, Equatable {
    /// How light the sky is: a band's shade, lightest first.
    enum Shade: String, Sendable, CaseIterable {
        /// The Sun up.
        case day
        /// Civil twilight: the Sun's centre 0° to −6°.
        case civil
        /// Nautical twilight: −6° to −12°.
        case nautical
        /// Astronomical twilight: −12° to −18°.
        case astronomical
        /// Astronomical night: below −18°.
        case night
    }

    /// A shaded stretch behind everything else.
    struct Band: Sendable, Equatable {
        var shade: Shade
        var start: Date
        var end: Date
        /// What it is (`Nautical twilight`), shown when it is pointed at.
        var label: String

        /// A band of `shade` from `start` to `end`.
        init(_ shade: Shade, from start: Date, to end: Date, label: String) {
            self.shade = shade
            self.start = start
            self.end = end
            self.label = label
        }
    }

    /// A value at an instant.
    struct Sample: Sendable, Equatable {
        var time: Date
        var value: Double

        /// `value` at `time`.
        init(_ time: Date, _ value: Double) {
            self.time = time
            self.value = value
        }
    }

    /// A line through samples, to scale within `range` (its top at the top of the drawing).
    struct Curve: Sendable, Equatable {
        /// What it measures (`Moon altitude`).
        var label: String
        /// The values the drawing's height spans (`-90...90`); samples outside are cut to it.
        var range: ClosedRange<Double>
        /// A value drawn as a line across (the horizon at 0), if any.
        var baseline: Double?
        /// In time order; a sample that is not finite is left out.
        var samples: [Sample]

        /// A curve `label` through `samples`, drawn within `range`, with a line at `baseline`.
        init(label: String, range: ClosedRange<Double>, baseline: Double? = nil, samples: [Sample]) {
            self.label = label
            self.range = range
            self.baseline = baseline
            self.samples = samples.filter { $0.value.isFinite }
        }
    }

    /// One slot's value, 0–100, drawn as a bar from the bottom of its own strip.
    struct Bar: Sendable, Equatable {
        var start: Date
        var end: Date
        /// 0…100; nil when unknown (drawn hatched, never as 0).
        var value: Double?
        /// The slot as people read it (`19:00 PST`).
        var label: String

        /// A bar from `start` to `end` of `value` (one that is not finite counts as unknown).
        init(from start: Date, to end: Date, value: Double?, label: String) {
            self.start = start
            self.end = end
            self.value = value.flatMap { $0.isFinite ? $0 : nil }
            self.label = label
        }
    }

    /// A stretch picked out over everything (a window).
    struct Highlight: Sendable, Equatable {
        var start: Date
        var end: Date
        /// What it is (`Window 19:10–23:00 PST`).
        var label: String

        /// A highlight from `start` to `end`.
        init(from start: Date, to end: Date, label: String) {
            self.start = start
            self.end = end
            self.label = label
        }
    }

    /// A labelled instant on the time axis.
    struct Tick: Sendable, Equatable {
        var time: Date
        /// Local time as the module writes it (`19:00`).
        var label: String

        /// A tick at `time` reading `label`.
        init(_ time: Date, _ label: String) {
            self.time = time
            self.label = label
        }
    }

    /// What the drawing shows: its caption and accessible name.
    var title: String
    /// The left edge.
    var start: Date
    /// The right edge; a timeline whose end is not after its start draws nothing but its words.
    var end: Date
    var bands: [Band]
    var curve: Curve?
    /// What the bars measure (`Sky cover`), for their tooltips and the key.
    var barsLabel: String
    var bars: [Bar]
    /// What the highlights are (`Dark, moonless and clear`), for the key.
    var highlightsLabel: String
    var highlights: [Highlight]
    var ticks: [Tick]
    /// The drawing in words for those who cannot see it: the edges, the bands, the curve's
    /// crossings, the bars' range and gaps, the highlights.
    var summary: String

    /// A timeline titled `title` from `start` to `end`, described by `summary`.
    init(title: String, start: Date, end: Date, bands: [Band] = [], curve: Curve? = nil, barsLabel: String = "", bars: [Bar] = [],
                highlightsLabel: String = "", highlights: [Highlight] = [], ticks: [Tick] = [], summary: String) {
        self.title = title
        self.start = start
        self.end = end
        self.bands = bands
        self.curve = curve
        self.barsLabel = barsLabel
        self.bars = bars
        self.highlightsLabel = highlightsLabel
        self.highlights = highlights
        self.ticks = ticks
        self.summary = summary
    }

    /// Where `date` falls, 0 (`start`) … 1 (`end`), cut to the edges; 0 when the timeline is empty.
    func position(_ date: Date) -> Double {
        let length = end.timeIntervalSince(start)
        guard length > 0, length.isFinite else { return 0 }
        return min(1, max(0, date.timeIntervalSince(start) / length))
    }
}
