import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

extension ResultKind {
    /// `sun:now` / `sun:{date}` data (`SunReport`): one local day's sun times.
    public static let sun: ResultKind = "sun"
}

/// How `sun` results read: sunrise, sunset and daylight first, then solar noon, dawn and dusk
/// twilights, golden and blue hours, in the location's zone. `watch` compares the date: the
/// same day recomputed is not news, a new day is.
struct SunPresentation: ResultPresentation {
    let kind: ResultKind = .sun

    func render(_ sun: JSONValue, context: PresentationContext) -> [String] {
        guard let day = SunDay(sun) else { return GenericPresentation().render(sun, context: context) }
        let clock = Clock(context: context, noon: day.solarNoon)
        var lines = ["\(context.style.bold(context.urn))  \(day.summary(clock))"]
        let place = sun["location"]?["name"]?.stringValue ?? context.placeName
        lines.append("  solar noon \(clock.join([clock.piece("", day.solarNoon)]))" + (place.map { " (\($0))" } ?? ""))
        for (label, value) in day.details(clock) { lines.append("  \(label): \(value)") }
        return lines
    }

    func changeKey(_ sun: JSONValue) -> ChangeKey {
        guard let date = sun["date"]?.stringValue, SunDay(sun) != nil else { return GenericPresentation().changeKey(sun) }
        return ChangeKey(status: date)
    }

    /// A card titled Sun: the polar state as its status when there is one, then a row each for
    /// sunrise, sunset, daylight, solar noon, dawn, dusk, golden hour and blue hour.
    func card(_ sun: JSONValue, context: PresentationContext) -> ResultCard {
        guard let day = SunDay(sun) else { return GenericPresentation().card(sun, context: context) }
        let clock = Clock(context: context, noon: day.solarNoon)
        let none = switch day.polar {
        case "day": "none (midnight sun)"
        case "night": "none (polar night)"
        default: "none this day"
        }
        var rows = [
            ResultCard.Row("Sunrise", day.sunrise.map { clock.join([clock.piece("", $0)]) } ?? none),
            ResultCard.Row("Sunset", day.sunset.map { clock.join([clock.piece("", $0)]) } ?? none),
        ]
        if let length = day.dayLength { rows.append(.init("Daylight", SunDay.duration(length))) }
        rows.append(.init("Solar noon", clock.join([clock.piece("", day.solarNoon)])))
        for (label, value) in day.details(clock) {
            rows.append(.init(label.prefix(1).uppercased() + label.dropFirst(), value))
        }
        let status: ResultCard.Status? = switch day.polar {
        case "day": .init("midnight sun", tone: .neutral)
        case "night": .init("polar night", tone: .neutral)
        default: nil
        }
        return ResultCard(title: "Sun", subtitle: sun["location"]?["name"]?.stringValue ?? context.placeName,
                          status: status, rows: rows, lines: day.polarSentence.map { [$0] } ?? [])
    }
}

/// The parts of `sun` data a presentation reads, checked once: nil for data that is not a
/// sun day (a fixture routed under the wrong scheme, say).
private struct SunDay {
    var sunrise: Date?
    var sunset: Date?
    var solarNoon: Date
    var dayLength: Int?
    var polar: String?
    /// Dawn and dusk per twilight, deepest first.
    var twilights: [(name: String, dawn: Date?, dusk: Date?)]
    var golden: (morning: Period?, evening: Period?)
    var blue: (morning: Period?, evening: Period?)

    /// Start and end of a golden or blue hour; nil ends are open (see the module README).
    struct Period {
        var start: Date?
        var end: Date?
    }

    init?(_ data: JSONValue) {
        func date(_ value: JSONValue?) -> Date? { value?.dateValue }
        func period(_ value: JSONValue?) -> Period? {
            guard let value, value.objectValue != nil else { return nil }
            return Period(start: date(value["start"]), end: date(value["end"]))
        }
        guard data["date"]?.stringValue != nil, let noon = date(data["solarNoon"]) else { return nil }
        solarNoon = noon
        sunrise = date(data["sunrise"])
        sunset = date(data["sunset"])
        // A number no Int holds (a hand-edited fixture) is skipped, not a trap.
        dayLength = data["dayLengthSeconds"]?.doubleValue.flatMap { $0.isFinite ? Int(exactly: $0.rounded()) : nil }
        polar = data["polar"]?.stringValue
        let twilight = data["twilight"]
        twilights = ["astronomical", "nautical", "civil"].map {
            ($0, date(twilight?[$0]?["dawn"]), date(twilight?[$0]?["dusk"]))
        }
        golden = (period(data["goldenHour"]?["morning"]), period(data["goldenHour"]?["evening"]))
        blue = (period(data["blueHour"]?["morning"]), period(data["blueHour"]?["evening"]))
    }

    /// The sentence for a day the Sun neither rises nor sets.
    var polarSentence: String? {
        switch polar {
        case "day": "The sun does not set (midnight sun)"
        case "night": "The sun does not rise (polar night)"
        default: nil
        }
    }

    /// `☀️ sunrise 07:45, sunset 16:18 PST, 8h 33m of daylight`, or the polar sentence.
    func summary(_ clock: Clock) -> String {
        if let polarSentence { return (polar == "night" ? "🌌 " : "☀️ ") + polarSentence }
        var text = "☀️ " + clock.join([clock.piece("sunrise ", sunrise, none: "no sunrise"),
                                       clock.piece("sunset ", sunset, none: "no sunset")])
        if let dayLength { text += ", \(Self.duration(dayLength)) of daylight" }
        return text
    }

    /// Labelled lines after the summary: dawn and dusk (the twilights that happen, deepest
    /// first at dawn and last at dusk), golden hour, blue hour; a label without any is left out.
    func details(_ clock: Clock) -> [(String, String)] {
        var lines: [(String, String)] = []
        if twilights.contains(where: { $0.dawn != nil }) {
            lines.append(("dawn", clock.join(twilights.map { clock.piece("\($0.name) ", $0.dawn) })))
        }
        if twilights.contains(where: { $0.dusk != nil }) {
            lines.append(("dusk", clock.join(twilights.reversed().map { clock.piece("\($0.name) ", $0.dusk) })))
        }
        if let golden = Self.periods(golden, clock) { lines.append(("golden hour", golden)) }
        if let blue = Self.periods(blue, clock) { lines.append(("blue hour", blue)) }
        return lines
    }

    /// A band's morning and evening periods in words: `07:19–08:35 and 15:28–16:44 PST`. A
    /// morning period left open at its end followed by an evening one open at its start is
    /// one stretch through midday (a winter day the Sun stays low).
    static func periods(_ band: (morning: Period?, evening: Period?), _ clock: Clock) -> String? {
        if let morning = band.morning, let evening = band.evening, morning.end == nil, evening.start == nil,
           morning.start != nil || evening.end != nil {
            return clock.join([clock.range(morning.start, evening.end, openStart: "until ", openEnd: "from ")])
        }
        let pieces = [
            band.morning.map { clock.range($0.start, $0.end, openStart: "until ", openEnd: "from ", whole: "all morning") },
            band.evening.map { clock.range($0.start, $0.end, openStart: "until ", openEnd: "from ", whole: "all afternoon") },
        ].compactMap { $0 }
        return pieces.isEmpty ? nil : clock.join(pieces, separator: " and ")
    }

    /// `8h 33m`: whole minutes, rounded (through Double, so no value of hand-edited data traps).
    static func duration(_ seconds: Int) -> String {
        let minutes = Int((Double(max(0, seconds)) / 60).rounded())
        return "\(minutes / 60)h \(minutes % 60)m"
    }
}

/// Local times for a line of text, the zone said once after the last time when every time
/// on the line shares it (`astronomical 05:52, nautical 06:29, civil 07:08 PST`), and a time
/// on another local date than the day's solar noon marked so (`00:19 PDT (next day)`).
private struct Clock {
    let context: PresentationContext
    /// The day's solar noon, whose local date is the day's.
    let noon: Date

    /// Text with the zone it is in (nil when it holds no time, or holds its zones itself) and a
    /// note said after the zone.
    struct Piece {
        var text: String
        var zone: String?
        var note = ""
    }

    /// `prefix` and the local time of `date` (`—`, or `none`, without one).
    func piece(_ prefix: String, _ date: Date?, none: String? = nil) -> Piece {
        guard let date else { return Piece(text: none ?? prefix + "—", zone: nil) }
        let (time, zone) = split(context.localTime(date, .time))
        return Piece(text: prefix + time, zone: zone, note: note(date))
    }

    /// `start–end`, `until end` or `from start`, or `whole` when both are open.
    func range(_ start: Date?, _ end: Date?, openStart: String, openEnd: String, whole: String = "all day") -> Piece {
        switch (start, end) {
        case let (start?, end?):
            let (from, fromZone) = split(context.localTime(start, .time))
            let (to, toZone) = split(context.localTime(end, .time))
            let note = note(end).isEmpty ? note(start) : note(end)
            if fromZone == toZone { return Piece(text: "\(from)–\(to)", zone: fromZone, note: note) }
            return Piece(text: "\(from) \(fromZone ?? "")–\(to) \(toZone ?? "")", zone: nil, note: note)
        case let (start?, nil): return piece(openEnd, start)
        case let (nil, end?): return piece(openStart, end)
        case (nil, nil): return Piece(text: whole, zone: nil)
        }
    }

    /// The pieces joined, their one shared zone said once after the last time, or each with
    /// its own.
    func join(_ pieces: [Piece], separator: String = ", ") -> String {
        let zones = Set(pieces.compactMap(\.zone))
        let last = pieces.lastIndex { $0.zone != nil }
        return pieces.indices.map { index in
            let piece = pieces[index]
            guard let zone = piece.zone, zones.count > 1 || index == last else { return piece.text + piece.note }
            return piece.text + " " + zone + piece.note
        }.joined(separator: separator)
    }

    /// ` (next day)` or ` (day before)` for a time off the day's local date, else empty.
    private func note(_ date: Date) -> String {
        if context.localTime(date, .date) == context.localTime(noon, .date) { return "" }
        return date > noon ? " (next day)" : " (day before)"
    }

    /// `06:30 PST` as `06:30` and `PST`.
    private func split(_ local: String) -> (String, String?) {
        guard let space = local.lastIndex(of: " ") else { return (local, nil) }
        return (String(local[..<space]), String(local[local.index(after: space)...]))
    }
}
