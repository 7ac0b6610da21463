import Foundation

/// The instant a principal phase happens: when the Moon's apparent geocentric ecliptic
/// longitude minus the Sun's is 0°, 90°, 180° or 270° (the definition the almanacs and
/// Skyfield use), found from Meeus's estimate by the secant method on ELP/MPP02 and VSOP87D.
/// Nutation in longitude moves both bodies alike and drops out of the difference.
enum PhaseSolver {
    /// Light from the Moon takes about 1.28 s (at its mean distance, 385 000 km; the ±7 %
    /// swing changes the result by under 0.1 s), during which the Moon moves about 0.7″ round
    /// the Earth: the apparent Moon is the geometric one that long ago. Its annual aberration
    /// is the Earth's and cancels against the light-time of the Earth–Moon barycentre's orbit.
    static let lunarLightTime = 1.2826 / 86400

    /// Apparent elongation in longitude, Moon minus Sun, radians in −π..<π after subtracting
    /// `target`, at Julian ephemeris day `jde`.
    static func offset(julianEphemerisDay jde: Double, target: Double) -> Double {
        let t = TimeScale.centuries(julianEphemerisDay: jde)
        let moon = LunarLongitude.shared.longitude(centuries: TimeScale.centuries(julianEphemerisDay: jde - lunarLightTime))
        let difference = moon - SolarLongitude.shared.apparentLongitude(centuries: t) - target
        let turn = 2 * Double.pi
        return difference - turn * ((difference + .pi) / turn).rounded(.down)
    }

    /// The JDE of `phase` nearest `estimate` (a JDE within a few minutes of it). The elongation
    /// grows by 10–15° a day, smoothly enough that three or four secant steps reach a
    /// thousandth of a second.
    static func refine(_ estimate: Double, phase: PrincipalPhase) -> Double {
        let target = Double(phase.rawValue) * .pi / 2
        var (t0, t1) = (estimate, estimate + 60.0 / 86400)
        var (f0, f1) = (offset(julianEphemerisDay: t0, target: target), offset(julianEphemerisDay: t1, target: target))
        for _ in 0..<8 where f1 != f0 {
            let t2 = t1 - f1 * (t1 - t0) / (f1 - f0)
            (t0, f0) = (t1, f1)
            t1 = t2
            if abs(t1 - t0) < 0.001 / 86400 { break }
            f1 = offset(julianEphemerisDay: t1, target: target)
        }
        return t1
    }
}
