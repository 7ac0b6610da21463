import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation

/// The Moon, its phases and the Sun's times computed on this machine from published algorithms
/// (Meeus, "Astronomical Algorithms"): no network, no keys. Answers `moon:now`, `moon:{date}`
/// and `phases:{count}` with the same data as the Aeris module, and `sun:now` and `sun:{date}`
/// (sunrise, sunset, solar noon, twilights, golden and blue hours), and `night:{place}[:{date}]`:
/// the dark-sky windows of one night, with the clouds from `sky:` through the host.
///
/// Options: an optional `location` object (`latitude`, `longitude`, `name`, `timeZone`)
/// replacing the config's location for this source; `nightMaxSkyCover` (percent, default 30)
/// and `nightMaxMoonIllumination` (percent; absent: the Moon must be below the horizon) for
/// `night:` windows.
public struct AstronomySource: ConditionsSource {
    public static let moduleName = "Astronomy"
    public static let summary = "The Moon's phase, rise and set, the Sun's times and a night's dark-sky windows, computed offline"
    /// `sample.json`, compiled in: what `conditions config init --module Astronomy` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)

    static let moonNowPattern: RoutePattern = "moon:now"
    static let moonPattern: RoutePattern = "moon:{date}"
    static let phasesPattern: RoutePattern = "phases:{count}"
    static let sunNowPattern: RoutePattern = "sun:now"
    static let sunPattern: RoutePattern = "sun:{date}"
    static let nightPattern: RoutePattern = "night:{place}"
    static let nightOfDatePattern: RoutePattern = "night:{place}:{date}"
    public let routes = [moonNowPattern, moonPattern, phasesPattern, sunNowPattern, sunPattern, nightPattern, nightOfDatePattern]
    public static let exampleURNs = ["moon:now", "moon:2026-12-04", "phases:5", "sun:now", "sun:2026-06-21", "night:here", "night:here:2026-12-04"]
    /// `moon` and `phases` read as every moon source's do; `sun` and `night` are this module's own.
    public static let presentations: [any ResultPresentation] = MoonData.presentations + [SunPresentation(), NightPresentation()]

    /// The years the stated accuracy was measured over; other instants are refused.
    static let years = 1900...2100
    /// What `moon:{date}` and `sun:{date}` accept, for error messages (shared wording with the
    /// Aeris module).
    static let dateAllowed = Timestamp.instantForms

    private let location: Place?
    /// The thresholds of `night:` windows (`nightMaxSkyCover`, `nightMaxMoonIllumination`).
    private let nightRules: NightReport.Rules

    /// Reads the optional `location` override and the night's thresholds; any other option is
    /// a configuration error.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        if var nested = try options.object("location") {
            location = try Place(options: &nested)
        } else {
            location = nil
        }
        var rules = NightReport.Rules()
        if let cover = try options.double("nightMaxSkyCover", in: 0...100) { rules.maxSkyCover = cover }
        if let lit = try options.double("nightMaxMoonIllumination", in: 0...100) { rules.moon = .atMostLit(lit / 100) }
        nightRules = rules
        try options.finish()
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let place = self.location ?? context.place
        let date: Date
        switch location.pattern {
        case Self.nightPattern, Self.nightOfDatePattern:
            return try await NightRequest(location, context: context, override: self.location, rules: nightRules).resolve()
        case Self.phasesPattern:
            let count = try MoonData.phaseCount(try location.argument("count"))
            try Self.checkRange(context.now, place: place, argument: "now", value: Timestamp.string(from: context.now))
            let events = MoonPhases.events(after: context.now, count: count)
            return SourceResult(data: MoonData.phases(events.map { ($0.phase.name, $0.date) }), kind: .phases)
        case Self.moonPattern, Self.sunPattern:
            date = try Self.instant(try location.argument("date"), now: context.now, place: place)
        default:
            date = context.now
            try Self.checkRange(date, place: place, argument: "now", value: Timestamp.string(from: date))
        }
        if location.pattern == Self.sunPattern || location.pattern == Self.sunNowPattern {
            return SourceResult(data: SunReport(at: date, place: place).json(place: place), kind: .sun)
        }
        return SourceResult(data: MoonReport(at: date, place: place).json(place: place), kind: .moon)
    }

    /// Parses `moon:{date}` and `sun:{date}`: `now`, a date-time, or a date alone meaning
    /// local noon of that day (the middle of the day whose rise and set are reported). For the
    /// Sun any instant stands for its local day.
    static func instant(_ text: String, now: Date, place: Place) throws(ConditionsError) -> Date {
        if text.lowercased() == "now" {
            try checkRange(now, place: place, argument: "date", value: text)
            return now
        }
        guard let date = Timestamp.instant(text, now: now, timeZone: place.timeZone ?? .gmt) else {
            throw ConditionsError.invalidArguments(argument: "date", value: text, allowed: dateAllowed)
        }
        try checkRange(date, place: place, argument: "date", value: text)
        return date
    }

    /// Refuses instants whose local year is outside `years`.
    static func checkRange(_ date: Date, place: Place, argument: String, value: String) throws(ConditionsError) {
        // The year in UTC settles it unless it is a range end's, where the place's zone may
        // move the instant a year either way: only then is Foundation's Calendar set up (it
        // cost a local answer ~0.2 ms; docs/performance.md, "Issue 45").
        let utcYear = CivilDate(date, offsetSeconds: 0).year
        if years.lowerBound < utcYear && utcYear < years.upperBound { return }
        let year = MoonReport.calendar(for: place).component(.year, from: date)
        guard years.contains(year) else {
            let allowed = argument == "date"
                ? dateAllowed + ", in the years \(years.lowerBound)–\(years.upperBound)"
                : "an instant in the years \(years.lowerBound)–\(years.upperBound)"
            throw ConditionsError.invalidArguments(argument: argument, value: value, allowed: allowed)
        }
    }
}
