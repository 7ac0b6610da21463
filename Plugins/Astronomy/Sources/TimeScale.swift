import Foundation

/// Julian days and the two time scales the algorithms need: Universal Time (what clocks and
/// `Date` show) and Terrestrial (Dynamical) Time, the uniform scale the lunar theory runs on.
enum TimeScale {
    /// The Julian day of the Unix epoch, 1970-01-01T00:00:00Z.
    static let unixEpochJulianDay = 2440587.5
    /// J2000.0 (2000-01-01T12:00 TT) as a Julian ephemeris day.
    static let j2000 = 2451545.0

    /// The Julian day (UT) of `date`.
    static func julianDay(_ date: Date) -> Double {
        date.timeIntervalSince1970 / 86400 + unixEpochJulianDay
    }

    /// The instant of Julian day `julianDay` (UT).
    static func date(julianDay: Double) -> Date {
        Date(timeIntervalSince1970: (julianDay - unixEpochJulianDay) * 86400)
    }

    /// The Julian ephemeris day (TT) of `date`.
    static func julianEphemerisDay(_ date: Date) -> Double {
        let jd = julianDay(date)
        return jd + deltaT(decimalYear: decimalYear(julianDay: jd)) / 86400
    }

    /// The instant (UT) of Julian ephemeris day `jde` (TT). ΔT changes by well under a second
    /// per day, so evaluating it at the TT instant instead of the UT one changes nothing.
    static func date(julianEphemerisDay jde: Double) -> Date {
        date(julianDay: jde - deltaT(decimalYear: decimalYear(julianDay: jde)) / 86400)
    }

    /// Julian centuries of TT since J2000.0, the argument of every polynomial in Meeus.
    static func centuries(julianEphemerisDay jde: Double) -> Double {
        (jde - j2000) / 36525
    }

    /// The year with its fraction, as the ΔT polynomials expect (2000.0 is the start of 2000).
    static func decimalYear(julianDay: Double) -> Double {
        2000 + (julianDay - 2451544.5) / 365.2425
    }

    /// ΔT = TT − UT in seconds, from the polynomials of Espenak and Meeus ("Five Millennium
    /// Canon of Solar Eclipses", NASA/TP-2006-214141), which fit the observed values to about
    /// a second over 1900–2005 and extrapolate beyond.
    static func deltaT(decimalYear y: Double) -> Double {
        switch y {
        case ..<1860:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        case ..<1900:
            let t = y - 1860
            return 7.62 + 0.5737 * t - 0.251754 * t * t + 0.01680668 * pow(t, 3)
                - 0.0004473624 * pow(t, 4) + pow(t, 5) / 233174
        case ..<1920:
            let t = y - 1900
            return -2.79 + 1.494119 * t - 0.0598939 * t * t + 0.0061966 * pow(t, 3) - 0.000197 * pow(t, 4)
        case ..<1941:
            let t = y - 1920
            return 21.20 + 0.84493 * t - 0.076100 * t * t + 0.0020936 * pow(t, 3)
        case ..<1961:
            let t = y - 1950
            return 29.07 + 0.407 * t - t * t / 233 + pow(t, 3) / 2547
        case ..<1986:
            let t = y - 1975
            return 45.45 + 1.067 * t - t * t / 260 - pow(t, 3) / 718
        case ..<2005:
            let t = y - 2000
            return 63.86 + 0.3345 * t - 0.060374 * t * t + 0.0017275 * pow(t, 3)
                + 0.000651814 * pow(t, 4) + 0.00002373599 * pow(t, 5)
        case ..<2050:
            let t = y - 2000
            return 62.92 + 0.32217 * t + 0.005589 * t * t
        case ..<2150:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - y)
        default:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        }
    }
}
