import ConditionsFigures
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// `moon:now` as text: `🌔 waxing gibbous, 88% lit, 12.3 days old` and the day's rise and set.
/// `watch` compares the phase name only: illumination and age change every poll.
struct MoonPresentation: ResultPresentation {
    let kind: ResultKind = .moon

    func render(_ moon: JSONValue, context: PresentationContext) -> [String] {
        // Not a moon after all (a fixture routed under the wrong scheme, say): still readable.
        guard let phase = moon["phase"]?.stringValue else { return GenericPresentation().render(moon, context: context) }
        var summary = "\(MoonGlyph.glyph(for: phase)) \(phase)"
        // Data may come from any source (a hand-edited fixture, say): a number no Int holds is skipped, not a trap.
        if let lit = moon["illumination"]?.doubleValue.flatMap({ Int(exactly: $0.rounded()) }) { summary += ", \(lit)% lit" }
        if let age = moon["age"]?.doubleValue { summary += ", \(OneDecimal.text(age)) days old" }
        var lines = ["\(context.style.bold(context.urn))  \(summary)"]
        let rise = moon["rise"]?.dateValue
        let set = moon["set"]?.dateValue
        let times = [
            rise.map { "rises \(context.localTime($0, .time))" } ?? "no moonrise",
            set.map { "sets \(context.localTime($0, .time))" } ?? "no moonset",
        ]
        let place = moon["location"]?["name"]?.stringValue ?? context.placeName
        lines.append("  " + times.joined(separator: ", ") + (place.map { " (\($0))" } ?? ""))
        return lines
    }

    func changeKey(_ moon: JSONValue) -> ChangeKey {
        guard let phase = moon["phase"]?.stringValue else { return GenericPresentation().changeKey(moon) }
        return ChangeKey(status: phase)
    }

    /// The moon drawn as it looks (lit fraction, lit side for the place's hemisphere), then
    /// phase, illumination, age, rise and set in the location's zone.
    func card(_ moon: JSONValue, context: PresentationContext) -> ResultCard {
        guard let phase = moon["phase"]?.stringValue else { return GenericPresentation().card(moon, context: context) }
        let illumination = moon["illumination"]?.doubleValue
        let cycle = moon["cycle"]?.doubleValue
        let latitude = moon["location"]?["latitude"]?.doubleValue ?? context.place?.latitude ?? 0
        let drawing = MoonDrawing(
            illuminated: (illumination ?? MoonGlyph.illuminated(phase: phase) * 100) / 100,
            waxing: cycle.map { $0 < 0.5 } ?? MoonGlyph.isWaxing(phase: phase),
            southern: latitude < 0)
        var rows = [ResultCard.Row("Phase", phase)]
        if let illumination, illumination.isFinite { rows.append(.init("Illumination", "\(Int(illumination.rounded()))%")) }
        if let age = moon["age"]?.doubleValue, age.isFinite { rows.append(.init("Age", "\(OneDecimal.text(age)) days")) }
        let rise = moon["rise"]?.dateValue
        let set = moon["set"]?.dateValue
        rows.append(.init("Rises", rise.map { context.localTime($0, .time) } ?? "no moonrise this day"))
        rows.append(.init("Sets", set.map { context.localTime($0, .time) } ?? "no moonset this day"))
        return ResultCard(title: "Moon", subtitle: moon["location"]?["name"]?.stringValue ?? context.placeName,
                          figure: drawing.drawing(rem: 9), rows: rows)
    }
}

/// `phases:5` as text: one aligned line per phase with its glyph and local date. `watch`
/// reports the next phase, and any change of dates as a change.
struct PhasesPresentation: ResultPresentation {
    let kind: ResultKind = .phases

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard let phases = data["phases"]?.arrayValue, phases.allSatisfy({ $0["name"]?.stringValue != nil }) else {
            return GenericPresentation().render(data, context: context)
        }
        let width = phases.compactMap { $0["name"]?.stringValue?.count }.max() ?? 0
        return [context.style.bold(context.urn)] + phases.map { phase in
            let name = phase["name"]?.stringValue ?? "?"
            let date = phase["date"]?.dateValue
            return "  \(MoonGlyph.glyph(for: name)) \(name + String(repeating: " ", count: max(0, width - name.count)))  \(date.map { context.localTime($0, .dateTime) } ?? "—")"
        }
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard let phases = data["phases"]?.arrayValue, let first = phases.first else { return GenericPresentation().changeKey(data) }
        return ChangeKey(status: "next: \(first["name"]?.stringValue ?? "?")",
                         detail: phases.compactMap { $0["date"]?.stringValue }.joined(separator: ","))
    }

    /// One row per phase: a small drawing of it, its name and its local date and time.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard let phases = data["phases"]?.arrayValue, phases.allSatisfy({ $0["name"]?.stringValue != nil }) else {
            return GenericPresentation().card(data, context: context)
        }
        let southern = (context.place?.latitude ?? 0) < 0
        return ResultCard(title: "Moon phases", subtitle: context.placeName, rows: phases.map { phase in
            let name = phase["name"]?.stringValue ?? "?"
            let date = phase["date"]?.dateValue
            let drawing = MoonDrawing(illuminated: MoonGlyph.illuminated(phase: name), waxing: MoonGlyph.isWaxing(phase: name), southern: southern)
            return ResultCard.Row(name, date.map { context.localTime($0, .dateTime) } ?? "—", figure: drawing.drawing(rem: 1.25))
        })
    }
}

/// The moon-phase emoji.
enum MoonGlyph {
    static let glyphs: [(String, String)] = [
        ("new moon", "🌑"), ("waxing crescent", "🌒"), ("first quarter", "🌓"), ("waxing gibbous", "🌔"),
        ("full moon", "🌕"), ("waning gibbous", "🌖"), ("last quarter", "🌗"), ("waning crescent", "🌘"),
    ]

    static func glyph(for phase: String) -> String {
        glyphs.first { $0.0 == phase.lowercased() }?.1 ?? "🌙"
    }

    /// The lit fraction a phase name stands for (0 new, ½ quarters, 1 full; crescents ¼, gibbous ¾).
    static func illuminated(phase: String) -> Double {
        let name = phase.lowercased()
        if name.contains("new") { return 0 }
        if name.contains("full") { return 1 }
        if name.contains("crescent") { return 0.25 }
        if name.contains("gibbous") { return 0.75 }
        return 0.5
    }

    /// Whether a phase name is on the way from new to full (new moon and full moon count as
    /// waxing; they look the same either way).
    static func isWaxing(phase: String) -> Bool {
        let name = phase.lowercased()
        return !(name.contains("waning") || name.contains("last quarter") || name.contains("third quarter"))
    }
}
