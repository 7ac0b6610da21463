import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// One `night:{place}[:{date}]` URN: which place and night it means, the clouds and the aurora
/// asked of whichever sources the config routes `sky:` and `aurora:` to (through the host;
/// this module imports no other), and the report made of them.
struct NightRequest {
    static let placeAllowed = "a place name, \(Places.here), or latitude,longitude in decimal degrees (47.745,-121.0933)"
    static let dateAllowed = "a date such as 2026-12-04 (the night beginning that evening), in the years 1900–2100"

    let placeText: String
    let dateText: String?
    let context: SourceContext
    let override: Place?
    let rules: NightReport.Rules

    init(_ location: Location, context: SourceContext, override: Place?, rules: NightReport.Rules) throws(ConditionsError) {
        placeText = try location.argument("place")
        dateText = location.pattern == AstronomySource.nightOfDatePattern ? try location.argument("date") : nil
        self.context = context
        self.override = override
        self.rules = rules
    }

    func resolve() async throws -> SourceResult {
        let (place, placeJSON) = try Self.place(placeText, places: context.places, override: override)
        // A configured place carries no zone of its own: it is read in the config location's.
        let timeZone = place.timeZone ?? override?.timeZone ?? context.place.timeZone ?? .gmt
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let day = try dateText.map { text throws(ConditionsError) in try Self.day(text) } ?? Self.currentNight(now: context.now, place: place, calendar: calendar)

        // The clouds and the aurora, asked at once; each failure is said, never fatal.
        let answers = await context.resolve(["sky:\(placeText)", "aurora:\(placeText)"])
        var notes: [String] = []
        var sky: [NightReport.SkyHour] = []
        switch answers[0].result {
        case .success(let result):
            sky = (result.data["hours"]?.arrayValue ?? []).compactMap { hour in
                guard let start = hour["time"]?.dateValue else { return nil }
                return NightReport.SkyHour(start: start, cover: hour["skyCover"]?.doubleValue)
            }
            if sky.isEmpty { notes.append("sky:\(placeText) gave no hourly sky cover: clouds unknown") }
        case .failure(let error):
            notes.append("clouds unknown: sky:\(placeText) failed (\(error.kind.rawValue): \(error.message))")
        }
        let report = NightReport(year: day.year, month: day.month, day: day.day, latitude: place.latitude, longitude: place.longitude,
                                 timeZone: timeZone, place: placeJSON, rules: rules, sky: sky, notes: notes)
        if !sky.isEmpty, report.skyHours.isEmpty {
            // Nothing of the forecast falls in this night: past its range, or a past night.
            return SourceResult(data: Self.withNote(report, "this night is outside the sky forecast's hours: clouds unknown", aurora: .null),
                                kind: .night, inputs: answers.map(\.input))
        }
        let aurora = Self.aurora(answers[1], night: report)
        return SourceResult(data: report.json(aurora: aurora), kind: .night, inputs: answers.map(\.input))
    }

    private static func withNote(_ report: NightReport, _ note: String, aurora: JSONValue) -> JSONValue {
        guard var object = report.json(aurora: aurora).objectValue else { return .null }
        object["notes"] = .array([.string(note)] + (object["notes"]?.arrayValue ?? []))
        return .object(object)
    }

    /// The aurora beside the windows when G1 or more is predicted for a time within the night:
    /// the G-level, Kp and its time, and the OVATION probability at the place when given.
    static func aurora(_ answer: ResolvedURN, night: NightReport) -> JSONValue {
        guard case .success(let result) = answer.result, let first = night.dark.first, let last = night.dark.last else { return .null }
        let span = (first.start.addingTimeInterval(-6 * 3_600))...(last.end)
        for key in ["next24h", "next3d"] {
            guard let peak = result.data[key], let level = peak["gScale"]?.stringValue, let number = Int(level.dropFirst()), level.hasPrefix("G"), number >= 1,
                  let time = peak["time"]?.dateValue, span.contains(time) else { continue }
            return ["gScale": .string(level), "kp": peak["kp"] ?? .null, "kpText": peak["kpText"] ?? .null, "time": .string(Timestamp.string(from: time)),
                    "probability": result.data["ovation"]?["probability"] ?? .null]
        }
        return .null
    }

    /// `{place}`: coordinates (range-checked), a configured place or `here`.
    static func place(_ text: String, places: Places, override: Place?) throws(ConditionsError) -> (Place, JSONValue) {
        let point = try places.point(text, allowed: placeAllowed)
        if let point, point.id.contains(",") {
            let place = Place(latitude: point.latitude, longitude: point.longitude)
            return (place, ["id": .string(point.id), "latitude": .double(point.latitude), "longitude": .double(point.longitude)])
        }
        if text.lowercased() == Places.here, let override {
            return (override, ["id": .string(Places.here), "name": override.name.map(JSONValue.string) ?? .null,
                               "latitude": .double(override.latitude), "longitude": .double(override.longitude)])
        }
        guard let point, let place = places.place(named: text) else {
            let known = places.names + [Places.here]
            throw ConditionsError.notFound("no place named \"\(text)\" (places: \(known.joined(separator: ", ")); or latitude,longitude)",
                                           suggestions: Suggestions.closest(to: text.lowercased(), among: known).map { "night:\($0)" })
        }
        return (place, ["id": .string(point.id), "name": place.name.map(JSONValue.string) ?? .null,
                        "latitude": .double(place.latitude), "longitude": .double(place.longitude)])
    }

    /// `{date}`: a calendar date, 1900–2100.
    static func day(_ text: String) throws(ConditionsError) -> (year: Int, month: Int, day: Int) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              (1900...2100).contains(year) else {
            throw ConditionsError.invalidArguments(argument: "date", value: text, allowed: dateAllowed)
        }
        return (year, month, day)
    }

    /// The night in progress, or the coming one in daytime: before local noon, last evening's
    /// night while its Sun is still below the horizon, else this evening's.
    static func currentNight(now: Date, place: Place, calendar: Calendar) -> (year: Int, month: Int, day: Int) {
        let today = calendar.dateComponents([.year, .month, .day, .hour], from: now)
        var evening = today
        if (today.hour ?? 12) < 12, SunCourse(latitude: place.latitude, longitude: place.longitude).altitude(at: now) < NightSky.horizon {
            let yesterday = calendar.date(byAdding: .day, value: -1, to: now) ?? now
            evening = calendar.dateComponents([.year, .month, .day], from: yesterday)
        }
        return (evening.year ?? 2000, evening.month ?? 1, evening.day ?? 1)
    }
}

extension ResultKind {
    /// `night:` data: the dark-sky windows of one night.
    public static let night: ResultKind = "night"
}
