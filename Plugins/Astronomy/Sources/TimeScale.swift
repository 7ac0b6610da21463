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

    /// ΔT = TT − UT in seconds (DeltaT says from what).
    static func deltaT(decimalYear y: Double) -> Double {
        DeltaT.seconds(decimalYear: y)
    }
}
