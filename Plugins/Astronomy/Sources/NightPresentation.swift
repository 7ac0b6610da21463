import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// How `night` results read: the night's dark, moonless and clear windows first, then the Sun,
/// the Moon, the hourly clouds, the aurora when one is predicted, the totals and the notes.
///
/// Change key: whether there is a window, and the windows rounded to a quarter hour, and the
/// aurora's G-level: a window opening or closing, or moving by a quarter hour, is news; the
/// forecast's cover moving within the threshold is not.
struct NightPresentation: ResultPresentation {
    let kind: ResultKind = .night

    /// A night's data, read once for text and card.
    struct Night {
        let data: JSONValue
        let date: String
        let darkness: String
        let windows: [(Date, Date)]
        let unknown: [(Date, Date)]
        let darkMoonless: [(Date, Date)]

        init?(_ data: JSONValue) {
            guard let date = data["date"]?.stringValue, let darkness = data["darkness"]?.stringValue else { return nil }
            self.data = data
            self.date = date
            self.darkness = darkness
            windows = Self.spans(data["windows"])
            unknown = Self.spans(data["unknownClouds"])
            darkMoonless = Self.spans(data["darkMoonless"])
        }

        static func spans(_ value: JSONValue?) -> [(Date, Date)] {
            (value?.arrayValue ?? []).compactMap { span in
                guard let start = span["start"]?.dateValue,
                      let end = span["end"]?.dateValue, start < end else { return nil }
                return (start, end)
            }
        }

        var total: Double { windows.reduce(0) { $0 + $1.1.timeIntervalSince($1.0) } }

        /// `3 h 48 min dark, moonless and clear`, or why there is none.
        var summary: String {
            let darkWord = darkness == "nautical" ? "nautically dark" : "dark"
            if darkness == "none" { return "no darkness this night" }
            if !windows.isEmpty { return "\(NightPresentation.duration(total)) \(darkWord), moonless and clear" }
            if !unknown.isEmpty {
                let seconds = unknown.reduce(0) { $0 + $1.1.timeIntervalSince($1.0) }
                return "\(NightPresentation.duration(seconds)) \(darkWord) and moonless, clouds unknown"
            }
            if !darkMoonless.isEmpty { return "no clear window: clouds over the \(darkWord), moonless hours" }
            return "no \(darkWord), moonless window"
        }
    }

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard let night = Night(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        let name = data["place"]?["name"]?.stringValue ?? data["place"]?["id"]?.stringValue ?? context.placeName ?? "?"
        var lines = ["\(style.bold(context.urn))  \(name), night of \(night.date): \(night.summary)"]
        let window = night.darkness == "nautical" ? "nautical" : "window"
        for (start, end) in night.windows {
            lines.append("  " + style.dim(window.padding(toLength: 8, withPad: " ", startingAt: 0)) + " " + style.green("\(range(start, end, context))  \(Self.duration(end.timeIntervalSince(start)))"))
        }
        for (start, end) in night.unknown {
            lines.append("  " + style.dim("unknown ") + " \(range(start, end, context))  \(Self.duration(end.timeIntervalSince(start))) dark and moonless, clouds unknown")
        }
        var sun: [String] = []
        if let sunset = time(data["sunset"]) { sun.append("sets \(context.localTime(sunset, .time))") }
        let dark = Night.spans(data["dark"])
        if !dark.isEmpty {
            let label = night.darkness == "nautical" ? "nautical darkness" : "astronomical night"
            sun.append(label + " " + dark.map { range($0.0, $0.1, context) }.joined(separator: ", "))
        } else if night.darkness == "none" {
            sun.append("never below −12°")
        }
        if let sunrise = time(data["sunrise"]) { sun.append("rises \(context.localTime(sunrise, .time))") }
        if !sun.isEmpty { lines.append("  " + style.dim("sun     ") + " " + sun.joined(separator: " · ")) }
        let up = Night.spans(data["moon"]?["up"])
        var moon = up.isEmpty ? ["down all night"] : ["up " + up.map { range($0.0, $0.1, context) }.joined(separator: ", ")]
        if let lit = data["moon"]?["illumination"]?.doubleValue { moon.append("\(Self.number(lit))% lit") }
        lines.append("  " + style.dim("moon    ") + " " + moon.joined(separator: " · "))
        let hours = (data["sky"]?["hours"]?.arrayValue ?? []).compactMap { hour -> (Date, Double?)? in
            guard let start = time(hour["time"]) else { return nil }
            return (start, hour["skyCover"]?.doubleValue)
        }
        if let first = hours.first, let last = hours.last {
            let strip = Self.strip(hours.map(\.1))
            let limit = data["sky"]?["maxCover"]?.doubleValue.map { Self.number($0) } ?? "30"
            lines.append("  " + style.dim("clouds  ") + " \(strip)  \(range(first.0, last.0.addingTimeInterval(3_600), context)), ≤ \(limit)% counts as clear")
        }
        if let aurora = data["aurora"], !aurora.isNull, let level = aurora["gScale"]?.stringValue {
            var text = "\(level) predicted"
            if let kp = aurora["kpText"]?.stringValue { text += " (Kp \(kp))" }
            if let at = time(aurora["time"]) { text += " around \(context.localTime(at, .time))" }
            if let chance = aurora["probability"]?.doubleValue { text += " · \(Self.number(chance))% chance here" }
            lines.append("  " + style.dim("aurora  ") + " " + style.yellow(text))
        }
        if let totals = data["totals"] {
            let parts = [("dark", "darkMinutes"), ("moonless too", "darkMoonlessMinutes"), ("clear too", "windowMinutes")].compactMap { label, key in
                totals[key]?.intValue.map { "\(label) \(Self.duration(Double($0) * 60))" }
            }
            lines.append("  " + style.dim("total   ") + " " + parts.joined(separator: " · "))
        }
        for note in data["notes"]?.arrayValue ?? [] {
            if let text = note.stringValue { lines.append("  " + style.dim("note    ") + " " + text) }
        }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard let night = Night(data) else { return GenericPresentation().changeKey(data) }
        let status = night.windows.isEmpty ? (night.unknown.isEmpty ? "no window" : "clouds unknown") : "clear dark window"
        func quarter(_ date: Date) -> String { Timestamp.string(from: Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 900).rounded() * 900)) }
        let windows = night.windows.map { "\(quarter($0.0))/\(quarter($0.1))" }.joined(separator: ",")
        let aurora = data["aurora"]?["gScale"]?.stringValue ?? "-"
        return ChangeKey(status: status, detail: "\(night.date); \(windows); aurora \(aurora)")
    }

    /// A card titled Tonight: the windows as its status and rows, one timeline from sunset to
    /// sunrise (twilights, the Moon's altitude, the clouds per hour, the windows), the Sun,
    /// the Moon, the aurora when predicted, the notes.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard let night = Night(data) else { return GenericPresentation().card(data, context: context) }
        let tone: ResultCard.Tone = night.windows.isEmpty ? (night.unknown.isEmpty ? .bad : .neutral) : .good
        var rows = night.windows.map { ResultCard.Row(night.darkness == "nautical" ? "Nautical window" : "Window",
                                                      "\(range($0.0, $0.1, context)) (\(Self.duration($0.1.timeIntervalSince($0.0))))", tone: .good) }
        rows += night.unknown.map { ResultCard.Row("Clouds unknown", "\(range($0.0, $0.1, context)) dark and moonless", tone: .neutral) }
        let lines = render(data, context: context.plain).dropFirst().filter { !$0.contains("window ") && !$0.contains("unknown ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let hours = (data["sky"]?["hours"]?.arrayValue ?? []).compactMap { hour -> Drawing.Slot? in
            guard let start = time(hour["time"]) else { return nil }
            return Drawing.Slot(context.localTime(start, .time), hour["skyCover"]?.doubleValue)
        }
        // Data from before the timeline (no sunset, sunrise or Moon samples) keeps the bars.
        if let timeline = NightTimeline(data: data, night: night, context: context).timeline {
            return ResultCard(title: "Tonight", subtitle: data["place"]?["name"]?.stringValue ?? data["place"]?["id"]?.stringValue,
                              status: .init(night.summary, tone: tone), figure: timeline.drawing, rows: rows, lines: Array(lines))
        }
        let figure: Drawing? = hours.isEmpty ? nil : .bars(
            title: "Sky cover per hour", unit: "%", hours,
            summary: "Sky cover per hour through the night, \(hours.first!.label) to \(hours.last!.label): "
                + hours.map { "\($0.label) \($0.value.map { Self.number($0) + "%" } ?? "unknown")" }.joined(separator: ", "))
        return ResultCard(title: "Tonight", subtitle: data["place"]?["name"]?.stringValue ?? data["place"]?["id"]?.stringValue,
                          status: .init(night.summary, tone: tone), figure: figure, rows: rows, lines: Array(lines))
    }

    private func time(_ value: JSONValue?) -> Date? {
        value?.dateValue
    }

    private func range(_ start: Date, _ end: Date, _ context: PresentationContext) -> String {
        Self.range(start, end, context)
    }

    /// `02:10–05:58 PST`: the start's clock time without its zone, then the end's with it.
    static func range(_ start: Date, _ end: Date, _ context: PresentationContext) -> String {
        let from = context.localTime(start, .time)
        return (from.split(separator: " ").first.map(String.init) ?? from) + "–" + context.localTime(end, .time)
    }

    /// `30`, `96.4`: a percentage as written, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `3 h 48 min`, `45 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// One character per hour: ` ` clear … `█` overcast, `·` unknown.
    static func strip(_ covers: [Double?]) -> String {
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return String(covers.map { cover -> Character in
            guard let cover, cover.isFinite else { return "·" }
            return levels[min(levels.count - 1, max(0, Int(cover / 100 * Double(levels.count))))]
        })
    }
}
