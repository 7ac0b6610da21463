/// The Earth's orientation: nutation, the obliquity of the ecliptic and sidereal time
/// (Meeus, "Astronomical Algorithms", 2nd ed., chapters 12 and 22).
struct EarthOrientation {
    /// Nutation in longitude, degrees.
    let nutationInLongitude: Double
    /// The true obliquity of the ecliptic (mean plus nutation), degrees.
    let obliquity: Double

    /// Orientation at Julian ephemeris day `jde`, using the abridged nutation of Meeus ch. 22
    /// (good to 0.5″ in longitude and 0.1″ in obliquity — far below what the Moon needs).
    init(julianEphemerisDay jde: Double) {
        let t = TimeScale.centuries(julianEphemerisDay: jde)
        let node = 125.04452 - 1934.136261 * t + 0.0020708 * t * t + t * t * t / 450000
        let sunLongitude = 280.4665 + 36000.7698 * t
        let moonLongitude = 218.3165 + 481267.8813 * t
        let deltaPsi = -17.20 * Degrees.sin(node) - 1.32 * Degrees.sin(2 * sunLongitude)
            - 0.23 * Degrees.sin(2 * moonLongitude) + 0.21 * Degrees.sin(2 * node)
        let deltaEpsilon = 9.20 * Degrees.cos(node) + 0.57 * Degrees.cos(2 * sunLongitude)
            + 0.10 * Degrees.cos(2 * moonLongitude) - 0.09 * Degrees.cos(2 * node)
        // Mean obliquity, Meeus 22.2, in arcseconds after 23°26′.
        let meanSeconds = 21.448 - 46.8150 * t - 0.00059 * t * t + 0.001813 * t * t * t
        nutationInLongitude = deltaPsi / 3600
        obliquity = 23 + 26.0 / 60 + (meanSeconds + deltaEpsilon) / 3600
    }

    /// Apparent Greenwich sidereal time in degrees at Julian day `jd` (UT): Meeus 12.4 plus the
    /// equation of the equinoxes.
    func apparentSiderealTime(julianDay jd: Double) -> Double {
        let t = (jd - TimeScale.j2000) / 36525
        let mean = 280.46061837 + 360.98564736629 * (jd - TimeScale.j2000)
            + 0.000387933 * t * t - t * t * t / 38710000
        return Degrees.normalized(mean + nutationInLongitude * Degrees.cos(obliquity))
    }
}

/// A direction in equatorial coordinates (degrees).
struct Equatorial {
    /// Right ascension, 0..<360.
    var rightAscension: Double
    /// Declination, −90…90.
    var declination: Double

    /// Converts ecliptic longitude and latitude with the obliquity `epsilon` (Meeus 13.3, 13.4).
    init(longitude lambda: Double, latitude beta: Double, obliquity epsilon: Double) {
        rightAscension = Degrees.normalized(Degrees.atan2(
            Degrees.sin(lambda) * Degrees.cos(epsilon) - Degrees.tan(beta) * Degrees.sin(epsilon),
            Degrees.cos(lambda)))
        declination = Degrees.asin(Degrees.sin(beta) * Degrees.cos(epsilon)
            + Degrees.cos(beta) * Degrees.sin(epsilon) * Degrees.sin(lambda))
    }
}
