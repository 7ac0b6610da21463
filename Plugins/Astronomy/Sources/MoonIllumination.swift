/// The illuminated fraction of the Moon's disk (Meeus ch. 48, formulas 48.2 and 48.3): the
/// phase angle from the geocentric elongation of the Moon from the Sun and their distances.
enum MoonIllumination {
    /// Kilometres in one astronomical unit.
    static let kilometresPerAU = 149_597_870.7

    /// The illuminated fraction, 0…1, at Julian ephemeris day `jde`.
    static func fraction(julianEphemerisDay jde: Double) -> Double {
        let earth = EarthOrientation(julianEphemerisDay: jde)
        let moon = MoonPosition(julianEphemerisDay: jde, earth: earth)
        let sun = SunPosition(julianEphemerisDay: jde)
        // Both longitudes carry the same nutation, so it cancels in the difference.
        let elongation = Degrees.acos(Degrees.cos(moon.latitude) * Degrees.cos(moon.longitude - sun.longitude))
        let sunDistance = sun.distance * kilometresPerAU
        let phaseAngle = Degrees.atan2(sunDistance * Degrees.sin(elongation),
                                       moon.distance - sunDistance * Degrees.cos(elongation))
        return (1 + Degrees.cos(phaseAngle)) / 2
    }
}
