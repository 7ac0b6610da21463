@testable import Astronomy
import Foundation
import Testing

/// Moonrise and moonset before the rounding to the minute against JPL's DE421, as Skyfield
/// 1.55 finds them (Tests/Resources/riseset-de421.csv, written by scripts/riseset-reference.py:
/// one local day every 100 days, 1900–2100, at Seattle, Miami, Sydney, Tromsø and Quito).
@Suite struct RiseSetAccuracyTests {
    struct Place {
        let code: Substring, name: String, latitude: Double, longitude: Double
    }

    struct Event {
        let date: Date
        let rising: Bool
        /// The Moon's altitude rate there, degrees per minute (from Skyfield).
        let rate: Double
    }

    struct Day {
        let place: Place
        let start: Date
        let events: [Event]
        var end: Date { start.addingTimeInterval(86_400) }
        /// The year of the day's middle (a day starting at 0 h local mean time east of Greenwich
    /// starts on the previous UT date).
    var year: Int { 1970 + Int(((start.timeIntervalSince1970 + 43_200) / 86_400 / 365.2425).rounded(.down)) }
    }

    static let days: [Day] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/riseset-de421.csv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        var places: [Substring: Place] = [:]
        var days: [Day] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields.first == "P", fields.count == 5, let latitude = Double(fields[2]), let longitude = Double(fields[3]) {
                places[fields[1]] = Place(code: fields[1], name: String(fields[4]), latitude: latitude, longitude: longitude)
            } else if fields.count == 3, let place = places[fields[0]], let start = Double(fields[1]) {
                let events = fields[2].split(separator: " ").compactMap { token -> Event? in
                    let parts = token.dropFirst().split(separator: "/").compactMap { Double($0) }
                    guard parts.count == 2, let kind = token.first else { return nil }
                    return Event(date: Date(timeIntervalSince1970: start + parts[0]), rising: kind == "r", rate: parts[1])
                }
                days.append(Day(place: place, start: Date(timeIntervalSince1970: start), events: events))
            }
        }
        return days
    }()

    /// Whether `event` is half of a graze shorter than the module's 10-minute scan step: the
    /// Moon rises and sets again (or sets and rises) within `MoonRiseSet.step`, which a scan
    /// may step over (MoonRiseSet says so). Such a crossing may be missing; when found it is
    /// held to 30 s like any other. In the table only Tromsø has one (1948-06-18, 6 minutes
    /// above the horizon at 0.001°/min; found anyway, 9 s off).
    static func isShortGraze(_ event: Event, in day: Day) -> Bool {
        day.events.contains { $0.rising != event.rising && seconds($0.date, event.date) < MoonRiseSet.step }
    }

    /// The module's crossings around `day` (a quarter hour either side, so a crossing that
    /// falls just outside the day on one side still pairs up).
    static func crossings(_ day: Day) -> [MoonRiseSet.Crossing] {
        MoonRiseSet.crossings(from: day.start.addingTimeInterval(-900), to: day.end.addingTimeInterval(900),
                              latitude: day.place.latitude, longitude: day.place.longitude)
    }

    /// Largest |error| per place and half-century, as "Seattle 1900–49 4.1 s, …".
    static func report(_ errors: [(place: String, year: Int, seconds: Double)]) -> String {
        var worst: [String: Double] = [:]
        var order: [String] = []
        for (place, year, seconds) in errors {
            let start = year < 1950 ? 1900 : year < 2000 ? 1950 : year < 2050 ? 2000 : 2050
            let key = "\(place) \(start)–\((start + 49) % 100)"
            if worst[key] == nil { order.append(key) }
            worst[key] = max(worst[key] ?? 0, abs(seconds))
        }
        return order.sorted().map { "\($0) \(String(format: "%.1f", worst[$0] ?? 0)) s" }.joined(separator: ", ")
    }

    @Test func theReferenceCoversFivePlacesAndTwoCenturies() throws {
        let days = Self.days
        #expect(days.count == 5 * 731)
        #expect(Set(days.map(\.place.name)).count == 5)
        let events = days.reduce(0) { $0 + $1.events.count }
        #expect(events > 6500)
        let first = try #require(days.map(\.year).min()), last = try #require(days.map(\.year).max())
        #expect(first == 1900 && last == 2099)
    }

    /// Every rise and set within 30 s of DE421, grazes included, and no crossing the reference
    /// lacks; only a graze shorter than the scan step (`isShortGraze`) may be missed.
    @Test func everyRiseAndSetWithinThirtySeconds() async {
        let (errors, unmatched, shortGrazes) = await offPool(Self.compare)
        let worst = errors.map { abs($0.seconds) }.max() ?? .infinity
        #expect(worst <= 30, "max |computed − DE421| by place and era: \(Self.report(errors))")
        #expect(unmatched.isEmpty, "\(unmatched)")
        #expect(errors.count + shortGrazes >= Self.days.reduce(0) { $0 + $1.events.count })
    }

    /// Every reference day's crossings against the computed ones: the errors, what is missing
    /// or extra, and how many short grazes there were.
    @Sendable static func compare() -> (errors: [(place: String, year: Int, seconds: Double)], unmatched: [String], shortGrazes: Int) {
        var errors: [(place: String, year: Int, seconds: Double)] = []
        var unmatched: [String] = []
        var shortGrazes = 0
        for day in Self.days {
            let computed = Self.crossings(day)
            for event in day.events {
                let nearest = computed.filter { $0.rising == event.rising }
                    .min { seconds($0.date, event.date) < seconds($1.date, event.date) }
                if Self.isShortGraze(event, in: day) { shortGrazes += 1 }
                guard let nearest, seconds(nearest.date, event.date) < 600 else {
                    if !Self.isShortGraze(event, in: day) {
                        unmatched.append("\(day.place.name) \(event.date) \(event.rising ? "rise" : "set") missing")
                    }
                    continue
                }
                errors.append((day.place.name, day.year, nearest.date.timeIntervalSince(event.date)))
            }
            // Nothing computed inside the day that the reference does not have (a minute's
            // margin at the ends, where the pairing above already looks beyond them).
            for crossing in computed where crossing.date > day.start.addingTimeInterval(60) && crossing.date < day.end.addingTimeInterval(-60) {
                let matched = day.events.contains { $0.rising == crossing.rising && seconds($0.date, crossing.date) < 600 }
                if !matched { unmatched.append("\(day.place.name) \(crossing.date) \(crossing.rising ? "rise" : "set") extra") }
            }
        }
        return (errors, unmatched, shortGrazes)
    }
}
