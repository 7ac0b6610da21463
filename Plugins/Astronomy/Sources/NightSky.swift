import Foundation

/// One night at one place, from local noon to the next local noon: when the Sun's centre is
/// below a darkness altitude, when the Moon's upper limb is below the horizon (as for moonrise
/// and moonset) or the Moon dim enough, and, given hourly sky cover, when the sky is clear
/// enough. The dark-sky windows are the stretches where all three hold.
///
/// Every edge is an instant found to the second: the Sun's and the Moon's crossings (sampled
/// every `step`, then bisected) and the hour boundaries of the sky cover. Between two adjacent
/// edges nothing changes, so each stretch is judged once, at its middle.
struct NightSky {
    /// The Sun's centre below −18°: astronomical night.
    static let astronomical = -18.0
    /// Below −6°: civil twilight over, nautical twilight begun.
    static let civil = -6.0
    /// Below −12°: nautical darkness, offered when a summer night has no astronomical night.
    static let nautical = -12.0
    /// Sunset and sunrise: the upper limb on the refracted horizon (`SunAltitude`'s convention).
    static let horizon = -0.8333
    /// Samples for crossings: the Sun moves at most 2.5° and the Moon's limb about as much in
    /// 10 minutes; crossings are then bisected to a second.
    static let step: TimeInterval = 600

    /// A stretch of the night.
    struct Span: Equatable {
        var start: Date
        var end: Date
        var seconds: Double { end.timeIntervalSince(start) }
    }

    /// What the Moon may do in a window.
    enum MoonRule: Equatable {
        /// Its upper limb below the horizon (the default).
        case belowHorizon
        /// Below the horizon, or up with at most this fraction (0…1) lit.
        case atMostLit(Double)
    }

    let start: Date
    let end: Date
    let latitude: Double
    let longitude: Double

    /// The night beginning on the evening of the local day containing `noon` (local noon).
    init(noon: Date, latitude: Double, longitude: Double) {
        start = noon
        end = noon.addingTimeInterval(86_400)
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The stretches of the night when the Sun's centre is below `altitude` degrees.
    func sunBelow(_ altitude: Double) -> [Span] {
        let course = SunCourse(latitude: latitude, longitude: longitude)
        return spans { course.altitude(at: $0) - altitude < 0 }
    }

    /// The stretches when the Moon's upper limb is below the horizon.
    func moonDown() -> [Span] {
        spans { MoonRiseSet.limbAltitude(at: $0, latitude: latitude, longitude: longitude) < 0 }
    }

    /// The stretches where `below(date)` holds, edges to the second.
    private func spans(_ below: (Date) -> Bool) -> [Span] {
        var result: [Span] = []
        var before = start
        var wasBelow = below(start)
        var open: Date? = wasBelow ? start : nil
        while before < end {
            let after = min(before.addingTimeInterval(Self.step), end)
            let isBelow = below(after)
            if isBelow != wasBelow {
                let edge = Self.bisect(before, after, below: below, wasBelow: wasBelow)
                if isBelow { open = edge } else if let from = open { result.append(Span(start: from, end: edge)); open = nil }
            }
            before = after
            wasBelow = isBelow
        }
        if let from = open { result.append(Span(start: from, end: end)) }
        return result
    }

    private static func bisect(_ low: Date, _ high: Date, below: (Date) -> Bool, wasBelow: Bool) -> Date {
        var low = low, high = high
        while high.timeIntervalSince(low) > 1 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            if below(middle) == wasBelow { low = middle } else { high = middle }
        }
        return Date(timeIntervalSince1970: (low.addingTimeInterval(high.timeIntervalSince(low) / 2).timeIntervalSince1970).rounded())
    }

    /// The intersection of two sorted lists of disjoint spans.
    static func intersection(_ a: [Span], _ b: [Span]) -> [Span] {
        var result: [Span] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            let start = max(a[i].start, b[j].start), end = min(a[i].end, b[j].end)
            if start < end { result.append(Span(start: start, end: end)) }
            if a[i].end < b[j].end { i += 1 } else { j += 1 }
        }
        return result
    }

    /// The spans of `hours` (each an hour from its start) whose value passes `keep`, merged.
    /// Hours with no value are left out: unknown is never clear.
    static func hourly(_ hours: [(start: Date, value: Double?)], keep: (Double) -> Bool) -> [Span] {
        var result: [Span] = []
        for hour in hours {
            guard let value = hour.value, keep(value) else { continue }
            let span = Span(start: hour.start, end: hour.start.addingTimeInterval(3_600))
            if let last = result.last, last.end >= span.start {
                result[result.count - 1].end = max(last.end, span.end)
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// `spans` minus `covered`: what of `spans` lies outside every span of `covered`.
    static func subtracting(_ covered: [Span], from spans: [Span]) -> [Span] {
        var result: [Span] = []
        for span in spans {
            var pieces = [span]
            for cut in covered {
                pieces = pieces.flatMap { piece -> [Span] in
                    guard cut.start < piece.end, cut.end > piece.start else { return [piece] }
                    var parts: [Span] = []
                    if cut.start > piece.start { parts.append(Span(start: piece.start, end: cut.start)) }
                    if cut.end < piece.end { parts.append(Span(start: cut.end, end: piece.end)) }
                    return parts
                }
            }
            result += pieces
        }
        return result
    }
}
