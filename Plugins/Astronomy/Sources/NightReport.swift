import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What `night:{place}[:{date}]` answers: the dark-sky windows of one night, when the Sun's
/// centre is below −18°, the Moon is down (or dim enough) and the forecast sky cover is at or
/// under the threshold, with the night's twilights, the Moon, the hourly clouds and totals.
///
/// Where no sky cover is known (past the forecast grid's range, or `sky:` unanswered), the
/// dark and moonless stretches are still given, under `unknownClouds`: unknown is never clear.
/// A night without astronomical darkness (north of about 48.6°N near the summer solstice)
/// says so, and its windows are of nautical darkness (−12°) instead.
struct NightReport {
    /// The thresholds, from the instance's options.
    struct Rules: Equatable {
        /// Highest forecast sky cover, percent, that counts as clear.
        var maxSkyCover: Double = 30
        /// What the Moon may do.
        var moon: NightSky.MoonRule = .belowHorizon
    }

    /// One hour of forecast sky cover.
    struct SkyHour {
        var start: Date
        var cover: Double?
    }

    let date: String
    let place: JSONValue
    let timeZone: TimeZone
    let rules: Rules
    let darkness: String
    let sunset: Date?
    let sunrise: Date?
    let dark: [NightSky.Span]
    /// Dusk and dawn of each twilight (civil, nautical, astronomical), nil where the Sun does
    /// not cross that altitude this evening or morning: what a page shades the night by.
    let twilight: [(name: String, dusk: Date?, dawn: Date?)]
    let moonUp: [NightSky.Span]
    /// The Moon's upper limb's altitude (as for `moonUp`, so it is 0 where those spans begin
    /// and end) every `altitudeStep` from sunset to sunrise, both included.
    let moonAltitude: [(time: Date, degrees: Double)]
    let illumination: Double
    let skyHours: [SkyHour]
    let darkMoonless: [NightSky.Span]
    let windows: [NightSky.Span]
    let unknownClouds: [NightSky.Span]
    let notes: [String]

    /// Computes the night that begins on the evening of `day` (`year`, `month`, `day`, local to
    /// `timeZone`) at `latitude`, `longitude`; `sky` the forecast hours known (may be empty),
    /// `notes` what to say about how the clouds were read.
    init(year: Int, month: Int, day: Int, latitude: Double, longitude: Double, timeZone: TimeZone, place: JSONValue,
         rules: Rules, sky: [SkyHour], notes: [String]) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
        date = String(format: "%04d-%02d-%02d", year, month, day)
        self.place = place
        self.timeZone = timeZone
        self.rules = rules
        let night = NightSky(noon: noon, latitude: latitude, longitude: longitude)

        // Sunset (and each dusk) is the first going-down after noon; sunrise (each dawn) the
        // last coming-up before the next noon.
        func edges(_ altitude: Double) -> (Date?, Date?) {
            let below = night.sunBelow(altitude)
            return (below.first.flatMap { $0.start > night.start ? $0.start : nil }, below.last.flatMap { $0.end < night.end ? $0.end : nil })
        }
        (sunset, sunrise) = edges(NightSky.horizon)
        twilight = [("civil", NightSky.civil), ("nautical", NightSky.nautical), ("astronomical", NightSky.astronomical)].map { name, altitude in
            let (dusk, dawn) = edges(altitude)
            return (name, dusk, dawn)
        }
        var notes = notes
        let astronomical = night.sunBelow(NightSky.astronomical)
        let darkSpans: [NightSky.Span]
        if astronomical.isEmpty {
            let nautical = night.sunBelow(NightSky.nautical)
            darkness = nautical.isEmpty ? "none" : "nautical"
            darkSpans = nautical
            notes.insert(nautical.isEmpty
                ? "no astronomical or nautical darkness this night: the Sun stays above −12°"
                : "no astronomical darkness this night: the Sun stays above −18°; windows are of nautical darkness (Sun below −12°)", at: 0)
        } else {
            darkness = "astronomical"
            darkSpans = astronomical
        }
        dark = darkSpans

        let moonDown = night.moonDown()
        moonUp = NightSky.subtracting(moonDown, from: [NightSky.Span(start: night.start, end: night.end)])
        moonAltitude = Self.samples(from: sunset ?? night.start, to: sunrise ?? night.end).map { time in
            (time, (MoonRiseSet.limbAltitude(at: time, latitude: latitude, longitude: longitude) * 10).rounded() / 10)
        }
        let middle = if let first = darkSpans.first, let last = darkSpans.last {
            first.start.addingTimeInterval(last.end.timeIntervalSince(first.start) / 2)
        } else {
            noon.addingTimeInterval(43_200)
        }
        let lit = MoonIllumination.fraction(julianEphemerisDay: TimeScale.julianEphemerisDay(middle))
        illumination = (lit * 1000).rounded() / 10
        let moonOK: [NightSky.Span]
        switch rules.moon {
        case .belowHorizon: moonOK = moonDown
        case .atMostLit(let fraction): moonOK = lit <= fraction ? [NightSky.Span(start: night.start, end: night.end)] : moonDown
        }
        let darkMoonless = NightSky.intersection(darkSpans, moonOK)
        self.darkMoonless = darkMoonless

        let inNight = sky.filter { $0.start.addingTimeInterval(3_600) > night.start && $0.start < night.end }
        skyHours = inNight
        let clear = NightSky.hourly(inNight.map { ($0.start, $0.cover) }) { $0 <= rules.maxSkyCover }
        let known = NightSky.hourly(inNight.map { ($0.start, $0.cover) }) { _ in true }
        windows = NightSky.intersection(darkMoonless, clear)
        unknownClouds = NightSky.subtracting(known, from: darkMoonless)
        if !darkMoonless.isEmpty, !unknownClouds.isEmpty, !inNight.isEmpty {
            notes.append("sky cover unknown for part of the night (past the forecast's range): those dark, moonless hours are listed as clouds unknown")
        }
        self.notes = notes
    }

    /// How often `moonAltitude` is sampled: a line through samples this far apart is within a
    /// few tenths of a degree of the Moon's path, and a night holds at most 73.
    static let altitudeStep: TimeInterval = 1_200

    /// Instants every `altitudeStep` from `start`, and `end` itself.
    static func samples(from start: Date, to end: Date) -> [Date] {
        guard end > start else { return [start] }
        var times = Array(stride(from: 0, to: end.timeIntervalSince(start), by: altitudeStep).map { start.addingTimeInterval($0) })
        times.append(end)
        return times
    }

    /// The result data.
    func json(aurora: JSONValue) -> JSONValue {
        func spans(_ list: [NightSky.Span]) -> JSONValue {
            .array(list.map { ["start": .string(Timestamp.string(from: $0.start)), "end": .string(Timestamp.string(from: $0.end)),
                               "minutes": .int(Int(($0.seconds / 60).rounded()))] })
        }
        func instant(_ date: Date?) -> JSONValue { date.map { .string(Timestamp.string(from: $0)) } ?? .null }
        func minutes(_ list: [NightSky.Span]) -> JSONValue { .int(Int((list.reduce(0) { $0 + $1.seconds } / 60).rounded())) }
        let moonRule: JSONValue = switch rules.moon {
        case .belowHorizon: "below the horizon"
        case .atMostLit(let fraction): .string("below the horizon or at most \(Int((fraction * 100).rounded()))% lit")
        }
        return JSONValue.object(JSONObject([
            ("place", place), ("date", .string(date)), ("timeZone", .string(timeZone.identifier)),
            ("darkness", .string(darkness)),
            ("sunset", instant(sunset)),
            ("sunrise", instant(sunrise)),
            ("dark", spans(dark)),
            ("twilight", .object(JSONObject(twilight.map { ($0.name, JSONValue.object(JSONObject([("dusk", instant($0.dusk)), ("dawn", instant($0.dawn))]))) }))),
            ("moon", ["up": spans(moonUp), "illumination": .double(illumination), "rule": moonRule,
                      "altitude": .array(moonAltitude.map { ["time": .string(Timestamp.string(from: $0.time)), "degrees": .double($0.degrees)] })]),
            ("sky", ["maxCover": .double(rules.maxSkyCover),
                     "hours": .array(skyHours.map { ["time": .string(Timestamp.string(from: $0.start)), "skyCover": $0.cover.map(JSONValue.double) ?? .null] })]),
            ("darkMoonless", spans(darkMoonless)),
            ("windows", spans(windows)),
            ("unknownClouds", spans(unknownClouds)),
            ("totals", ["darkMinutes": minutes(dark), "darkMoonlessMinutes": minutes(darkMoonless), "windowMinutes": minutes(windows)]),
            ("aurora", aurora),
            ("notes", .array(notes.map(JSONValue.string))),
        ]))
    }
}
