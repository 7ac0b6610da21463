/// The Sun's apparent geocentric position to about 0.01° (Meeus ch. 25, "low accuracy"), which
/// is all the illuminated fraction needs (an error of 0.01° in the Sun moves it by < 0.01 %)
/// and all sun times need: 0.01° is under 3 seconds of the Sun's daily motion across the sky.
struct SunPosition {
    /// Apparent ecliptic longitude, degrees.
    let longitude: Double
    /// Distance from the Earth, astronomical units.
    let distance: Double

    init(julianEphemerisDay jde: Double) {
        let t = TimeScale.centuries(julianEphemerisDay: jde)
        let meanLongitude = 280.46646 + 36000.76983 * t + 0.0003032 * t * t
        let anomaly = 357.52911 + 35999.05029 * t - 0.0001537 * t * t
        let eccentricity = 0.016708634 - 0.000042037 * t - 0.0000001267 * t * t
        let center = (1.914602 - 0.004817 * t - 0.000014 * t * t) * Degrees.sin(anomaly)
            + (0.019993 - 0.000101 * t) * Degrees.sin(2 * anomaly)
            + 0.000289 * Degrees.sin(3 * anomaly)
        let trueAnomaly = anomaly + center
        let node = 125.04 - 1934.136 * t
        longitude = Degrees.normalized(meanLongitude + center - 0.00569 - 0.00478 * Degrees.sin(node))
        distance = 1.000001018 * (1 - eccentricity * eccentricity) / (1 + eccentricity * Degrees.cos(trueAnomaly))
    }
}

extension SunPosition {
    /// The apparent right ascension and declination, with the true obliquity of the date
    /// (Meeus 25.6–25.7; the Sun's ecliptic latitude is below 1.2″ and taken as zero).
    func equatorial(obliquity: Double) -> Equatorial {
        Equatorial(longitude: longitude, latitude: 0, obliquity: obliquity)
    }
}
