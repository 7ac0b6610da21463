import Foundation

/// The Sun's path across one observer's sky: its altitude at any instant, its culminations,
/// and the instants it crosses a given altitude. Everything sun times are made of.
///
/// Altitudes are of the Sun's centre, geometric (no refraction), for an observer at sea level;
/// the conventions that turn them into rise and set or twilight live in `SunAltitude`.
struct SunCourse {
    /// Degrees north.
    let latitude: Double
    /// Degrees east.
    let longitude: Double

    /// How finely a half-day is sampled for crossings. In 10 minutes the Sun's altitude changes
    /// by at most 2.5°; two crossings of one altitude closer together than this (a Sun grazing
    /// that altitude near a culmination) can be missed, which only matters within minutes of
    /// such a graze.
    static let step: TimeInterval = 600

    /// The Sun's geometric altitude above the horizon, degrees.
    func altitude(at date: Date) -> Double {
        let (hourAngle, declination) = position(at: date)
        return Degrees.asin(Degrees.sin(latitude) * Degrees.sin(declination)
            + Degrees.cos(latitude) * Degrees.cos(declination) * Degrees.cos(hourAngle))
    }

    /// The Sun's local hour angle (−180..<180, negative before the meridian) and declination.
    func position(at date: Date) -> (hourAngle: Double, declination: Double) {
        let jde = TimeScale.julianEphemerisDay(date)
        let earth = EarthOrientation(julianEphemerisDay: jde)
        let sun = SunPosition(julianEphemerisDay: jde).equatorial(obliquity: earth.obliquity)
        let hourAngle = earth.apparentSiderealTime(julianDay: TimeScale.julianDay(date)) + longitude - sun.rightAscension
        return (Self.signed(hourAngle), sun.declination)
    }

    /// The instant nearest `guess` at which the Sun's hour angle is `target`: 0 for the upper
    /// culmination (the transit, solar noon), 180 for the lower one (solar midnight).
    func culmination(hourAngle target: Double, near guess: Date) -> Date {
        var date = guess
        // The hour angle grows by about 360° a day; three corrections leave well under a second.
        for _ in 0..<4 {
            let error = Self.signed(position(at: date).hourAngle - target)
            date = date.addingTimeInterval(-error / 360 * 86400)
        }
        return date
    }

    /// One altitude reading of a sampled stretch of the day.
    struct Sample {
        var date: Date
        var altitude: Double
    }

    /// The Sun's altitude every `step` from `start` to `end`, both included: a half-day read
    /// once and then searched for every altitude's crossing.
    func samples(from start: Date, to end: Date) -> [Sample] {
        var samples = [Sample(date: start, altitude: altitude(at: start))]
        var date = start
        while date < end {
            date = min(date.addingTimeInterval(Self.step), end)
            samples.append(Sample(date: date, altitude: altitude(at: date)))
        }
        return samples
    }

    /// The first instant in `samples` at which the Sun's altitude passes `altitude` going up
    /// (`rising`) or down, to the second; nil when it does not.
    func crossing(_ altitude: Double, rising: Bool, in samples: [Sample]) -> Date? {
        for (before, after) in zip(samples, samples.dropFirst()) {
            let above = before.altitude >= altitude, aboveAfter = after.altitude >= altitude
            if above != aboveAfter, aboveAfter == rising {
                return bisect(altitude, rising: rising, before.date, after.date)
            }
        }
        return nil
    }

    /// Narrows a bracketed crossing to half a second and returns its middle.
    private func bisect(_ altitude: Double, rising: Bool, _ low: Date, _ high: Date) -> Date {
        var low = low, high = high
        while high.timeIntervalSince(low) > 0.5 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            if (self.altitude(at: middle) >= altitude) == rising { high = middle } else { low = middle }
        }
        return low.addingTimeInterval(high.timeIntervalSince(low) / 2)
    }

    /// `degrees` reduced to −180..<180.
    static func signed(_ degrees: Double) -> Double {
        let reduced = Degrees.normalized(degrees)
        return reduced >= 180 ? reduced - 360 : reduced
    }
}

/// The altitudes of the Sun's centre that define its events, degrees.
enum SunAltitude {
    /// Sunrise and sunset: the upper limb on the horizon, with 34′ of standard refraction and
    /// a 16′ semidiameter — the convention of the USNO and of NOAA's calculator.
    static let horizon = -0.833
    /// Civil twilight begins (dawn) and ends (dusk).
    static let civil = -6.0
    /// Nautical twilight begins and ends.
    static let nautical = -12.0
    /// Astronomical twilight begins and ends: darker than this is night.
    static let astronomical = -18.0
    /// The golden hour is the Sun between −4° and +6°, the blue hour between −6° and −4°, as
    /// photographers' planners such as PhotoPills define them.
    static let goldenTop = 6.0
    /// Where the golden hour gives way to the blue hour.
    static let goldenBottom = -4.0
    /// Where the blue hour ends (the same altitude as civil twilight's).
    static let blueBottom = -6.0
}
