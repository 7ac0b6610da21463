import ConditionsJSON
import ConditionsKit
import Foundation

/// The Sun over one place on one local calendar day: what `sun:now` and `sun:{date}` answer.
///
/// The day's events are those of its solar day: from the lower culmination (solar midnight)
/// before the transit nearest local noon to the one after it. Morning events are searched
/// between the first and the transit, evening events between the transit and the second, so
/// each is found at most once, and where the Sun sets late an evening event may come after
/// local midnight (it is still that day's dusk).
struct SunReport: Equatable {
    /// A day on which the Sun never crosses the horizon.
    enum Polar: String {
        /// The Sun stays up: midnight sun.
        case day
        /// The Sun stays down: polar night.
        case night
    }

    /// Dawn and dusk of one twilight: when the Sun passes its altitude rising and setting.
    struct Twilight: Equatable {
        /// Rising through the altitude; nil when it does not that morning.
        var dawn: Date?
        /// Setting through it; nil when it does not that evening.
        var dusk: Date?
    }

    /// A time of day in one band of altitudes (the golden or blue hour) during the morning or
    /// the evening.
    struct Period: Equatable {
        /// When the Sun enters the band; nil when it is already in it as the half-day begins.
        var start: Date?
        /// When it leaves; nil when it is still in it as the half-day ends.
        var end: Date?
    }

    /// One band's periods in the morning and in the evening, each nil when there is none.
    struct Periods: Equatable {
        var morning: Period?
        var evening: Period?
    }

    /// The local calendar date, `2026-12-04`.
    let date: String
    /// The Sun's upper limb clearing the horizon, nil on a day without one.
    let sunrise: Date?
    /// The upper limb going below the horizon, nil on a day without one.
    let sunset: Date?
    /// The transit: the Sun highest, due south or north.
    let solarNoon: Date
    /// Seconds the Sun is up during the solar day.
    let dayLength: Int
    /// Set when the Sun neither rises nor sets.
    let polar: Polar?
    /// The Sun's centre at −6°.
    let civil: Twilight
    /// At −12°.
    let nautical: Twilight
    /// At −18°.
    let astronomical: Twilight
    /// The Sun between −4° and +6°.
    let goldenHour: Periods
    /// The Sun between −6° and −4°.
    let blueHour: Periods

    /// Computes the day that contains `instant` at `place`, in the place's zone (UTC when it
    /// names none).
    init(at instant: Date, place: Place) {
        let calendar = MoonReport.calendar(for: place)
        let day = calendar.dateComponents([.year, .month, .day], from: instant)
        date = String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
        // Noon through the calendar, so it stays noon on daylight-saving days.
        let start = calendar.startOfDay(for: instant)
        let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: start) ?? start.addingTimeInterval(12 * 3600)

        let course = SunCourse(latitude: place.latitude, longitude: place.longitude)
        let transit = course.culmination(hourAngle: 0, near: noon)
        let midnightBefore = course.culmination(hourAngle: 180, near: transit.addingTimeInterval(-12 * 3600))
        let midnightAfter = course.culmination(hourAngle: 180, near: transit.addingTimeInterval(12 * 3600))
        let beforeNoon = course.samples(from: midnightBefore, to: transit)
        let afterNoon = course.samples(from: transit, to: midnightAfter)
        func rising(_ altitude: Double) -> Date? {
            course.crossing(altitude, rising: true, in: beforeNoon).map(Self.second)
        }
        func setting(_ altitude: Double) -> Date? {
            course.crossing(altitude, rising: false, in: afterNoon).map(Self.second)
        }
        /// The period in `low...high` of one half-day: nil when the Sun never enters the band,
        /// both ends nil when it stays in it throughout.
        func period(_ low: Double, _ high: Double, morning: Bool) -> Period? {
            let start = morning ? rising(low) : setting(high)
            let end = morning ? rising(high) : setting(low)
            if start != nil || end != nil { return Period(start: start, end: end) }
            let altitude = (morning ? beforeNoon : afterNoon)[0].altitude
            return (low...high).contains(altitude) ? Period(start: nil, end: nil) : nil
        }

        solarNoon = Self.second(transit)
        sunrise = rising(SunAltitude.horizon)
        sunset = setting(SunAltitude.horizon)
        if sunrise == nil, sunset == nil {
            polar = afterNoon[0].altitude >= SunAltitude.horizon ? .day : .night
        } else {
            polar = nil
        }
        let up: TimeInterval = switch (sunrise, sunset, polar) {
        case let (rise?, set?, _): set.timeIntervalSince(rise)
        case let (rise?, nil, _): midnightAfter.timeIntervalSince(rise)
        case let (nil, set?, _): set.timeIntervalSince(midnightBefore)
        case (nil, nil, .day): midnightAfter.timeIntervalSince(midnightBefore)
        default: 0
        }
        dayLength = Int(up.rounded())
        civil = Twilight(dawn: rising(SunAltitude.civil), dusk: setting(SunAltitude.civil))
        nautical = Twilight(dawn: rising(SunAltitude.nautical), dusk: setting(SunAltitude.nautical))
        astronomical = Twilight(dawn: rising(SunAltitude.astronomical), dusk: setting(SunAltitude.astronomical))
        goldenHour = Periods(morning: period(SunAltitude.goldenBottom, SunAltitude.goldenTop, morning: true),
                             evening: period(SunAltitude.goldenBottom, SunAltitude.goldenTop, morning: false))
        blueHour = Periods(morning: period(SunAltitude.blueBottom, SunAltitude.goldenBottom, morning: true),
                           evening: period(SunAltitude.blueBottom, SunAltitude.goldenBottom, morning: false))
    }

    /// The result data, keys in the order the module README documents.
    func json(place: Place) -> JSONValue {
        [
            "date": .string(date),
            "sunrise": JSONValue(sunrise),
            "sunset": JSONValue(sunset),
            "solarNoon": JSONValue(solarNoon),
            "dayLengthSeconds": .int(dayLength),
            "polar": polar.map { .string($0.rawValue) } ?? .null,
            "twilight": [
                "civil": Self.json(civil),
                "nautical": Self.json(nautical),
                "astronomical": Self.json(astronomical),
            ],
            "goldenHour": Self.json(goldenHour),
            "blueHour": Self.json(blueHour),
            "location": place.json,
        ]
    }

    private static func json(_ twilight: Twilight) -> JSONValue {
        ["dawn": JSONValue(twilight.dawn), "dusk": JSONValue(twilight.dusk)]
    }

    private static func json(_ periods: Periods) -> JSONValue {
        ["morning": json(periods.morning), "evening": json(periods.evening)]
    }

    private static func json(_ period: Period?) -> JSONValue {
        guard let period else { return .null }
        return ["start": JSONValue(period.start), "end": JSONValue(period.end)]
    }

    /// `date` rounded to the nearest second, as NOAA's calculator and the NWS give them.
    static func second(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded())
    }
}
