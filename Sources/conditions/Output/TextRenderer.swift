import ConditionsKit
import Foundation

/// Renders results for people. Data is recognised by its shape (a pass, a list of passes,
/// the moon, a list of phases), so any source producing those contracts — live or replayed
/// from fixtures — prints the same way; anything else prints as indented key/value lines.
struct TextRenderer {
    let style: Style
    let timeZone: TimeZone
    let placeName: String?
    private let formats: LocalTimeFormats

    init(style: Style, timeZone: TimeZone, placeName: String?) {
        self.style = style
        self.timeZone = timeZone
        self.placeName = placeName
        formats = LocalTimeFormats(timeZone: timeZone)
    }

    /// The lines for a successful result; failures go to stderr elsewhere.
    func render(urn: String, data: JSONValue) -> [String] {
        if let passes = data["passes"]?.arrayValue, passes.allSatisfy(isPass) {
            return [style.bold(urn)] + passes.flatMap { renderPass($0) }
        }
        if isPass(data) { return renderPass(data) }
        if data["phase"]?.stringValue != nil, data["illumination"] != nil { return renderMoon(urn: urn, data) }
        if let phases = data["phases"]?.arrayValue, phases.allSatisfy({ $0["name"]?.stringValue != nil }) {
            return renderPhases(urn: urn, phases)
        }
        return [style.bold(urn)] + renderGeneric(data, indent: 1)
    }

    private func isPass(_ data: JSONValue) -> Bool {
        data["status"]?.stringValue != nil && data["restrictions"]?.arrayValue != nil
    }

    // MARK: Passes

    func renderPass(_ pass: JSONValue) -> [String] {
        let name = pass["name"]?.stringValue ?? pass["id"]?.stringValue ?? "pass"
        let status = pass["status"]?.stringValue ?? "unknown"
        var lines = ["\(style.bold(name))  \(styledStatus(status))"]
        var rows: [(String, String)] = []
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            rows.append((restriction["direction"]?.stringValue ?? "—", restriction["text"]?.stringValue ?? "—"))
        }
        if let conditions = pass["conditions"]?.stringValue { rows.append(("Conditions", conditions)) }
        if let weather = pass["weather"]?.stringValue { rows.append(("Weather", weather)) }
        var facts: [String] = []
        if let temperature = pass["temperatureF"]?.doubleValue { facts.append("\(JSONValue.double(temperature))°F") }
        if let elevation = pass["elevationFt"]?.doubleValue { facts.append("\(JSONValue.double(elevation)) ft") }
        if let updated = pass["updated"]?.stringValue.flatMap({ Timestamp.parse($0) }) {
            // Off-season passes keep months-old reports; printing them like fresh news misleads.
            if let age = pass["reportAge"]?.doubleValue, age > 86_400 {
                facts.append(style.yellow("report from \(formats.string(updated, pattern: "EEE MMM d yyyy")), \(Self.staleness(age)) old"))
            } else {
                facts.append("updated \(localTime(updated, withDate: true))")
            }
        }
        if !facts.isEmpty { rows.append(("", facts.joined(separator: " · "))) }
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in
            "  " + (label.isEmpty ? String(repeating: " ", count: width) : style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0))) + "  " + value
        }
        return lines
    }

    private func styledStatus(_ status: String) -> String {
        switch status {
        case "open": return style.green("OPEN")
        case "restricted": return style.yellow("RESTRICTED")
        case "closed": return style.red("CLOSED")
        default: return style.dim(status.uppercased())
        }
    }

    // MARK: Moon

    static let glyphs: [(String, String)] = [
        ("new moon", "🌑"), ("waxing crescent", "🌒"), ("first quarter", "🌓"), ("waxing gibbous", "🌔"),
        ("full moon", "🌕"), ("waning gibbous", "🌖"), ("last quarter", "🌗"), ("waning crescent", "🌘"),
    ]

    static func glyph(for phase: String) -> String {
        glyphs.first { $0.0 == phase.lowercased() }?.1 ?? "🌙"
    }

    func renderMoon(urn: String, _ moon: JSONValue) -> [String] {
        let phase = moon["phase"]?.stringValue ?? "unknown"
        var summary = "\(Self.glyph(for: phase)) \(phase)"
        // Data may come from any source (a hand-edited fixture, say): a number no Int holds is skipped, not a trap.
        if let illumination = moon["illumination"]?.doubleValue.flatMap({ Int(exactly: $0.rounded()) }) { summary += ", \(illumination)% lit" }
        if let age = moon["age"]?.doubleValue { summary += ", \(String(format: "%.1f", age)) days old" }
        var lines = ["\(style.bold(urn))  \(summary)"]
        let rise = moon["rise"]?.stringValue.flatMap { Timestamp.parse($0) }
        let set = moon["set"]?.stringValue.flatMap { Timestamp.parse($0) }
        var times: [String] = []
        times.append(rise.map { "rises \(localTime($0, withDate: false))" } ?? "no moonrise")
        times.append(set.map { "sets \(localTime($0, withDate: false))" } ?? "no moonset")
        let place = moon["location"]?["name"]?.stringValue ?? placeName
        lines.append("  " + times.joined(separator: ", ") + (place.map { " (\($0))" } ?? ""))
        return lines
    }

    func renderPhases(urn: String, _ phases: [JSONValue]) -> [String] {
        let width = phases.compactMap { $0["name"]?.stringValue?.count }.max() ?? 0
        return [style.bold(urn)] + phases.map { phase in
            let name = phase["name"]?.stringValue ?? "?"
            let date = phase["date"]?.stringValue.flatMap { Timestamp.parse($0) }
            return "  \(Self.glyph(for: name)) \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(date.map { localTime($0, withDate: true) } ?? "—")"
        }
    }

    // MARK: Anything else

    func renderGeneric(_ value: JSONValue, indent: Int) -> [String] {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case .object(let object):
            return object.flatMap { key, member -> [String] in
                switch member {
                case .object, .array: return ["\(pad)\(style.dim(key))"] + renderGeneric(member, indent: indent + 1)
                default: return ["\(pad)\(style.dim(key))  \(scalarText(member))"]
                }
            }
        case .array(let elements):
            return elements.flatMap { element -> [String] in
                switch element {
                case .object, .array: return ["\(pad)-"] + renderGeneric(element, indent: indent + 1)
                default: return ["\(pad)- \(scalarText(element))"]
                }
            }
        default:
            return [pad + scalarText(value)]
        }
    }

    private func scalarText(_ value: JSONValue) -> String {
        if case .string(let s) = value { return s }
        return value.serialized()
    }

    // MARK: Time

    /// "42 s", "17 min", "3 h 5 min", "2 d 4 h".
    static func age(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86400 { return "\(s / 3600) h \(s % 3600 / 60) min" }
        return "\(s / 86400) d \(s % 86400 / 3600) h"
    }

    /// "2 days", "3 weeks", "7 months", "2 years": how old a stale report is, roughly.
    static func staleness(_ seconds: Double) -> String {
        let days = Int(seconds / 86_400)
        func counted(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if days < 14 { return counted(days, "day") }
        if days < 61 { return counted(days / 7, "week") }
        if days < 365 { return counted(Int((Double(days) / 30.44).rounded(.down)), "month") }
        return counted(days / 365, "year")
    }

    /// Times print in the location's zone with its usual abbreviation ("Sat Nov 21 06:30 PST");
    /// the year appears only when it is not the current one.
    func localTime(_ date: Date, withDate: Bool) -> String {
        formats.string(date, withDate: withDate)
    }
}

/// The renderer's time formatting through Foundation: one `DateFormatter` per pattern, made on
/// first use (creating one opens an ICU formatter, ~0.3 ms; the first also loads ICU's data).
/// Zone names are ICU's: `PST`/`PDT` for North American zones since about 1970, `GMT-7` for
/// earlier instants and for zones without an English short name (`GMT+1` in Berlin).
final class LocalTimeFormats {
    private let timeZone: TimeZone
    private var formatters: [String: DateFormatter] = [:]
    private lazy var calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }()
    private lazy var currentYear = calendar.component(.year, from: Date())

    init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    func string(_ date: Date, withDate: Bool) -> String {
        guard withDate else { return string(date, pattern: "HH:mm zzz") }
        let sameYear = calendar.component(.year, from: date) == currentYear
        return string(date, pattern: sameYear ? "EEE MMM d HH:mm zzz" : "EEE MMM d yyyy HH:mm zzz")
    }

    /// Formats with Foundation.
    func string(_ date: Date, pattern: String) -> String {
        if let formatter = formatters[pattern] { return formatter.string(from: date) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        formatters[pattern] = formatter
        return formatter.string(from: date)
    }
}
