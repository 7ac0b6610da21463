import Foundation
import Synchronization

/// The four principal phases, in cycle order.
enum PrincipalPhase: Int, CaseIterable, Sendable {
    case newMoon = 0, firstQuarter, fullMoon, lastQuarter

    /// The name used in result data.
    var name: String {
        switch self {
        case .newMoon: "new moon"
        case .firstQuarter: "first quarter"
        case .fullMoon: "full moon"
        case .lastQuarter: "last quarter"
        }
    }

    /// The name of the stretch of the cycle that follows this phase.
    var followingName: String {
        switch self {
        case .newMoon: "waxing crescent"
        case .firstQuarter: "waxing gibbous"
        case .fullMoon: "waning gibbous"
        case .lastQuarter: "waning crescent"
        }
    }
}

/// One principal phase and its instant (UT, rounded to the second it is reported with).
struct PhaseEvent: Equatable, Sendable {
    let phase: PrincipalPhase
    let date: Date
}

/// Instants of the principal phases. Meeus's series (ch. 49: the mean phase plus the periodic
/// corrections in the Sun's and Moon's anomalies, the argument of latitude and the node, and
/// the fourteen planetary arguments) is off DE421 by up to 18 s over 1900–2100, so it only
/// starts PhaseSolver, which brings the instant within 1.5 s of DE421 (TT); ΔT then converts
/// it to UT.
enum MoonPhases {
    /// New moon of 2000 January 6 (k = 0), JDE.
    static let epoch = 2451550.09766
    /// The mean synodic month, days.
    static let synodicMonth = 29.530588861

    /// The phase numbered `index`: lunations since January 2000 times four plus the phase
    /// (so index 0 is the new moon of 2000-01-06, 1 the next first quarter, −4 the previous new moon).
    static func event(index: Int) -> PhaseEvent {
        if let known = solved.withLock({ $0.first { $0.index == index }?.event }) { return known }
        let (phase, jde) = julianEphemerisDay(index: index)
        let date = TimeScale.date(julianEphemerisDay: jde)
        let event = PhaseEvent(phase: phase, date: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded()))
        solved.withLock { solved in
            if solved.count >= solvedLimit { solved.removeFirst(solved.count / 2) }
            solved.append((index, event))
        }
        return event
    }

    /// Phases already solved: one report asks for the same few several times (the phases
    /// around now for the bracket, the new moons for the lunation, the next ones for
    /// `phases:`), and each solve sums ELP/MPP02 and VSOP87D several times over
    /// (docs/performance.md, "Issue 45"). A short list searched in order, not a dictionary,
    /// whose first use (its hashing's seed among it) cost more than the search.
    private static let solved = Mutex<[(index: Int, event: PhaseEvent)]>([])
    /// A long-lived process asks for more as months pass: the older half goes at this many.
    private static let solvedLimit = 64

    /// The phase numbered `index` (as in `event(index:)`) and its instant as a JDE (TT).
    static func julianEphemerisDay(index: Int) -> (phase: PrincipalPhase, jde: Double) {
        let lunation = index >= 0 ? index / 4 : -((-index + 3) / 4)
        let phase = PrincipalPhase(rawValue: index - lunation * 4) ?? .newMoon
        let estimate = julianEphemerisDay(k: Double(lunation) + Double(phase.rawValue) / 4, phase: phase)
        return (phase, PhaseSolver.refine(estimate, phase: phase))
    }

    /// The index of a phase at or before `date` (within one phase of the last one that is).
    static func approximateIndex(before date: Date) -> Int {
        let jde = TimeScale.julianEphemerisDay(date)
        return Int(((jde - epoch) / synodicMonth * 4).rounded(.down)) - 1
    }

    /// The last principal phase at or before `date` and the first one after it.
    static func bracket(_ date: Date) -> (previous: PhaseEvent, next: PhaseEvent) {
        var index = approximateIndex(before: date)
        while event(index: index).date > date { index -= 1 }
        while event(index: index + 1).date <= date { index += 1 }
        return (event(index: index), event(index: index + 1))
    }

    /// The last new moon at or before `date` and the first one after it.
    static func lunation(containing date: Date) -> (start: Date, end: Date) {
        var index = approximateIndex(before: date)
        index -= ((index % 4) + 4) % 4
        while event(index: index).date > date { index -= 4 }
        while event(index: index + 4).date <= date { index += 4 }
        return (event(index: index).date, event(index: index + 4).date)
    }

    /// The first `count` principal phases strictly after `date`, in time order.
    static func events(after date: Date, count: Int) -> [PhaseEvent] {
        var index = approximateIndex(before: date)
        while event(index: index).date > date { index -= 1 }
        var events: [PhaseEvent] = []
        while events.count < count {
            index += 1
            let next = event(index: index)
            if next.date > date { events.append(next) }
        }
        return events
    }

    /// Meeus 49.1 and the corrections of the tables that follow it, as a JDE: the solver's
    /// starting point.
    static func julianEphemerisDay(k: Double, phase: PrincipalPhase) -> Double {
        let t = k / 1236.85
        let t2 = t * t, t3 = t2 * t, t4 = t3 * t
        var jde = epoch + synodicMonth * k + 0.00015437 * t2 - 0.000000150 * t3 + 0.00000000073 * t4
        let e = 1 - 0.002516 * t - 0.0000074 * t2
        let m = 2.5534 + 29.10535670 * k - 0.0000014 * t2 - 0.00000011 * t3
        let mp = 201.5643 + 385.81693528 * k + 0.0107582 * t2 + 0.00001238 * t3 - 0.000000058 * t4
        let f = 160.7108 + 390.67050284 * k - 0.0016118 * t2 - 0.00000227 * t3 + 0.000000011 * t4
        let node = 124.7746 - 1.56375588 * k + 0.0020672 * t2 + 0.00000215 * t3
        let s = Degrees.sin

        switch phase {
        case .newMoon, .fullMoon:
            let new = phase == .newMoon
            jde += (new ? -0.40720 : -0.40614) * s(mp)
                + (new ? 0.17241 : 0.17302) * e * s(m)
                + (new ? 0.01608 : 0.01614) * s(2 * mp)
                + (new ? 0.01039 : 0.01043) * s(2 * f)
                + (new ? 0.00739 : 0.00734) * e * s(mp - m)
                + (new ? -0.00514 : -0.00515) * e * s(mp + m)
                + (new ? 0.00208 : 0.00209) * e * e * s(2 * m)
                - 0.00111 * s(mp - 2 * f)
                - 0.00057 * s(mp + 2 * f)
                + 0.00056 * e * s(2 * mp + m)
                - 0.00042 * s(3 * mp)
                + 0.00042 * e * s(m + 2 * f)
                + 0.00038 * e * s(m - 2 * f)
                - 0.00024 * e * s(2 * mp - m)
                - 0.00017 * s(node)
                - 0.00007 * s(mp + 2 * m)
                + 0.00004 * s(2 * mp - 2 * f)
                + 0.00004 * s(3 * m)
                + 0.00003 * s(mp + m - 2 * f)
                + 0.00003 * s(2 * mp + 2 * f)
                - 0.00003 * s(mp + m + 2 * f)
                + 0.00003 * s(mp - m + 2 * f)
                - 0.00002 * s(mp - m - 2 * f)
                - 0.00002 * s(3 * mp + m)
                + 0.00002 * s(4 * mp)
        case .firstQuarter, .lastQuarter:
            jde += -0.62801 * s(mp)
                + 0.17172 * e * s(m)
                - 0.01183 * e * s(mp + m)
                + 0.00862 * s(2 * mp)
                + 0.00804 * s(2 * f)
                + 0.00454 * e * s(mp - m)
                + 0.00204 * e * e * s(2 * m)
                - 0.00180 * s(mp - 2 * f)
                - 0.00070 * s(mp + 2 * f)
                - 0.00040 * s(3 * mp)
                - 0.00034 * e * s(2 * mp - m)
                + 0.00032 * e * s(m + 2 * f)
                + 0.00032 * e * s(m - 2 * f)
                - 0.00028 * e * e * s(mp + 2 * m)
                + 0.00027 * e * s(2 * mp + m)
                - 0.00017 * s(node)
                - 0.00005 * s(mp - m - 2 * f)
                + 0.00004 * s(2 * mp + 2 * f)
                - 0.00004 * s(mp + m + 2 * f)
                + 0.00004 * s(mp - 2 * m)
                + 0.00003 * s(mp + m - 2 * f)
                + 0.00003 * s(3 * m)
                + 0.00002 * s(2 * mp - 2 * f)
                + 0.00002 * s(mp - m + 2 * f)
                - 0.00002 * s(3 * mp + m)
            let c = Degrees.cos
            let w = 0.00306 - 0.00038 * e * c(m) + 0.00026 * c(mp) - 0.00002 * c(mp - m)
                + 0.00002 * c(mp + m) + 0.00002 * c(2 * f)
            jde += phase == .firstQuarter ? w : -w
        }

        // Planetary arguments and their corrections, common to all phases.
        let planetary: [(Double, Double, Double)] = [
            (299.77, 0.107408, 0.000325), (251.88, 0.016321, 0.000165), (251.83, 26.651886, 0.000164),
            (349.42, 36.412478, 0.000126), (84.66, 18.206239, 0.000110), (141.74, 53.303771, 0.000062),
            (207.14, 2.453732, 0.000060), (154.84, 7.306860, 0.000056), (34.52, 27.261239, 0.000047),
            (207.19, 0.121824, 0.000042), (291.34, 1.844379, 0.000040), (161.72, 24.198154, 0.000037),
            (239.56, 25.513099, 0.000035), (331.55, 3.592518, 0.000023),
        ]
        for (index, (base, rate, amplitude)) in planetary.enumerated() {
            let argument = base + rate * k - (index == 0 ? 0.009173 * t2 : 0)
            jde += amplitude * s(argument)
        }
        return jde
    }
}
