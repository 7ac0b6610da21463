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
    /// `target`, at Julian ephemeris day `jde`, with its first and second derivatives per day.
    static func offset(julianEphemerisDay jde: Double, target: Double) -> Motion {
        let t = TimeScale.centuries(julianEphemerisDay: jde)
        let moon = LunarLongitude.shared.motion(centuries: TimeScale.centuries(julianEphemerisDay: jde - lunarLightTime))
        var difference = (moon - SolarLongitude.shared.apparentMotion(centuries: t)).perUnit(1 / 36525)
        difference.value -= target
        let turn = 2 * Double.pi
        difference.value -= turn * ((difference.value + .pi) / turn).rounded(.down)
        return difference
    }

    /// The JDE of `phase` nearest `estimate` (a JDE within a few minutes of it), by Halley's
    /// method on the elongation and its two derivatives. Its error shrinks with the cube of the
    /// last one's, by a factor of ~2·10⁻¹³ s⁻² here (the elongation's second and third
    /// derivatives against its first, at most ~0.035 and ~0.008 a day): from Meeus's estimate
    /// (within 18 s) one step lands within ~10⁻⁹ s, and a step of up to two minutes within
    /// ~10⁻⁶ s, both below what a JDE's last bit resolves (~4·10⁻⁵ s), so one summing of the
    /// series is enough; a longer step is checked by another.
    /// (The secant method it replaced needed three or four: scenario 1, docs/performance.md.)
    static func refine(_ estimate: Double, phase: PrincipalPhase) -> Double {
        let target = Double(phase.rawValue) * .pi / 2
        var t = estimate
        for _ in 0..<8 {
            let f = offset(julianEphemerisDay: t, target: target)
            let denominator = 2 * f.rate * f.rate - f.value * f.acceleration
            guard denominator != 0 else { break }
            let step = 2 * f.value * f.rate / denominator
            t -= step
            if abs(step) < 120.0 / 86400 { break }
        }
        return t
    }
}
