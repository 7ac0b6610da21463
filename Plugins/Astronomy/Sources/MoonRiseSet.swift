import Foundation

/// Moonrise and moonset: the instants the Moon's upper limb crosses the horizon, with 34′ of
/// standard refraction, the Moon's topocentric parallax and its semidiameter (the convention of
/// the US Naval Observatory and of Meeus ch. 15, where the combined geocentric altitude is
/// h₀ = 0.7275π − 0°34′).
enum MoonRiseSet {
    /// Standard refraction at the horizon, degrees.
    static let refraction = 34.0 / 60
    /// The Moon's radius in Earth equatorial radii (Meeus ch. 55, k = 0.272481).
    static let radiusRatio = 0.272481
    /// How finely the day is sampled for horizon crossings. The Moon's altitude changes by at
    /// most about 2.5° in this time; two crossings closer than this (a grazing Moon at polar
    /// latitudes) can be missed, which only matters within minutes of such a graze.
    static let step: TimeInterval = 600
    /// The most the Moon's altitude can change in a `step`, degrees: an altitude changes no
    /// faster than the body moves on the sky, the Earth's turning (15.04°/h at most) plus the
    /// Moon's own motion (under 0.6°/h), 2.6° in ten minutes, and its parallax in altitude
    /// changing with it (under 0.05°); with a margin.
    static let maximumChange = 3.0

    /// The first rise and the first set in `start..<end`, each nil when there is none, rounded
    /// to the minute as almanacs publish them (down, when rounding up would leave the day).
    static func events(from start: Date, to end: Date, latitude: Double, longitude: Double)
        -> (rise: Date?, set: Date?)
    {
        let found = crossings(from: start, to: end, latitude: latitude, longitude: longitude, firstOfEach: true)
        let rise = found.first { $0.rising }?.date, set = found.first { !$0.rising }?.date
        return (rise.map { minute($0, before: end) }, set.map { minute($0, before: end) })
    }

    /// A horizon crossing of the upper limb, before any rounding.
    struct Crossing: Equatable {
        let date: Date
        let rising: Bool
    }

    /// The crossings in `start..<end` in time order, unrounded; with `firstOfEach` the scan
    /// stops once it has a rise and a set (all `events` needs). The accuracy tests compare these
    /// with DE421, since the minute rounding alone is worth up to 30 s. `skipping: false`
    /// samples every step (`RiseSetSkippingTests` compares the two).
    static func crossings(from start: Date, to end: Date, latitude: Double, longitude: Double,
                          firstOfEach: Bool = false, skipping: Bool = true) -> [Crossing]
    {
        var found: [Crossing] = []
        var rose = false, went = false
        var before = start
        var altitudeBefore = limbAltitude(at: before, latitude: latitude, longitude: longitude)
        while before < end, !(firstOfEach && rose && went) {
            // Steps in which the altitude cannot reach zero are skipped whole (it moves at most
            // `maximumChange` a step), so a crossing is bracketed by the same step, and found
            // the same, as by sampling every step; a Moon high or low for hours costs a few
            // samples instead of dozens (scenario 1, docs/performance.md, "Issue 45").
            let steps = skipping ? max(1, Int(abs(altitudeBefore) / maximumChange)) : 1
            let after = min(before.addingTimeInterval(step * Double(steps)), end)
            let altitudeAfter = limbAltitude(at: after, latitude: latitude, longitude: longitude)
            if altitudeBefore < 0, altitudeAfter >= 0, !(firstOfEach && rose) {
                found.append(Crossing(date: crossing(before, after, rising: true, latitude: latitude, longitude: longitude), rising: true))
                rose = true
            } else if altitudeBefore >= 0, altitudeAfter < 0, !(firstOfEach && went) {
                found.append(Crossing(date: crossing(before, after, rising: false, latitude: latitude, longitude: longitude), rising: false))
                went = true
            }
            before = after
            altitudeBefore = altitudeAfter
        }
        return found
    }

    /// `date` rounded to the nearest minute, or down when the nearest is `end` or later.
    static func minute(_ date: Date, before end: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        let nearest = Date(timeIntervalSince1970: (seconds / 60).rounded() * 60)
        return nearest < end ? nearest : Date(timeIntervalSince1970: (seconds / 60).rounded(.down) * 60)
    }

    /// Bisects a bracketed crossing to a second.
    static func crossing(_ low: Date, _ high: Date, rising: Bool, latitude: Double, longitude: Double) -> Date {
        var low = low, high = high
        while high.timeIntervalSince(low) > 1 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            let above = limbAltitude(at: middle, latitude: latitude, longitude: longitude) >= 0
            if above == rising { high = middle } else { low = middle }
        }
        return low.addingTimeInterval(high.timeIntervalSince(low) / 2)
    }

    /// How far, in degrees, the Moon's upper limb stands above the refracted horizon of a
    /// sea-level observer at `latitude`, `longitude` (east positive): zero at rise and set.
    static func limbAltitude(at date: Date, latitude: Double, longitude: Double) -> Double {
        let jd = TimeScale.julianDay(date)
        let jde = TimeScale.julianEphemerisDay(date)
        let earth = EarthOrientation(julianEphemerisDay: jde)
        let moon = MoonPosition(julianEphemerisDay: jde, earth: earth)
        let hourAngle = earth.apparentSiderealTime(julianDay: jd) + longitude - moon.equatorial.rightAscension
        let declination = moon.equatorial.declination
        let geocentric = Degrees.asin(Degrees.sin(latitude) * Degrees.sin(declination)
            + Degrees.cos(latitude) * Degrees.cos(declination) * Degrees.cos(hourAngle))
        // The observer stands ρ Earth radii from the centre (ρ from the flattening, 1/298.257);
        // seen from there the Moon is lower by the parallax in altitude.
        let rho = 0.99833 + 0.00167 * Degrees.cos(2 * latitude)
        let parallaxInAltitude = Degrees.asin(rho * Degrees.sin(moon.parallax) * Degrees.cos(geocentric))
        let semidiameter = Degrees.asin(radiusRatio * Degrees.sin(moon.parallax))
        return geocentric - parallaxInAltitude + semidiameter + refraction
    }
}
