import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// How `sky` results read: the place and the grid's update time, the 48 hours' sky cover as one
/// strip of blocks (`▁` clear … `█` overcast, `·` no value) between the local start and end
/// hours, then the ranges of the other layers. The dashboard draws the sky cover per hour as
/// bars. `watch` reports the current hour's cloud band as the status, and a change in the
/// sequence of bands over the next 12 hours as news: an hour's few percent are not.
struct SkyPresentation: ResultPresentation {
    let kind: ResultKind = .sky
    /// Hours whose cloud bands `watch` compares.
    static let watchedHours = 12

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard let hours = Self.hours(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        var lines = ["\(style.bold(context.urn))  " + Self.heading(data, context: context)]
        guard let first = hours.first?.time, let last = hours.last?.time else {
            lines.append("  " + style.dim("no hours"))
            return lines
        }
        var rows = [("Clouds", "\(context.localTime(first, .time)) \(Self.strip(hours.map(\.skyCover))) \(context.localTime(last, .time))")]
        rows.append(("", style.dim("▁ clear … █ overcast, · no value; now \(Self.now(hours))")))
        rows += Self.ranges(hours, context: context)
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in "  " + style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value }
        lines += Self.notes(data).map { "  " + style.yellow("note: \($0)") }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard let hours = Self.hours(data) else { return GenericPresentation().changeKey(data) }
        let status = hours.first?.skyCover.map(Self.band) ?? "no value"
        // The bands one after another, each once: the window moving on by an hour changes this
        // only when a band comes into or leaves it.
        var bands: [String] = []
        for cover in hours.prefix(Self.watchedHours).map(\.skyCover) {
            let band = cover.map(Self.band) ?? "no value"
            if bands.last != band { bands.append(band) }
        }
        return ChangeKey(status: status, detail: bands.joined(separator: " > "))
    }

    /// The place, the sky cover per hour as bars, the other layers' ranges as rows, the grid.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard let hours = Self.hours(data) else { return GenericPresentation().card(data, context: context) }
        let place = ForecastPresentation.placeName(data)
        let plain = context.plain
        var rows = [ResultCard.Row("Now", Self.now(hours))]
        rows += Self.ranges(hours, context: plain).map { ResultCard.Row($0.0, $0.1) }
        if let grid = data["grid"]?.stringValue { rows.append(.init("Grid", grid)) }
        rows += Self.notes(data).map { ResultCard.Row("Note", $0, tone: .caution) }
        let status = hours.first?.skyCover.map { ResultCard.Status(Self.band($0), tone: .neutral) }
        return ResultCard(title: place, subtitle: "Sky cover, next \(hours.count) hours (NWS)", status: status,
                          figure: hours.isEmpty ? nil : Self.chart(hours, place: place, context: plain), rows: rows,
                          updated: AlertReading.date(data["updated"]),
                          link: data["url"]?.stringValue.flatMap { URL(string: $0) }.map { .init(url: $0, label: "NWS forecast for \(place)") })
    }

    // MARK: Reading the data

    /// One hour as the presentation reads it.
    struct Hour {
        let time: Date
        let skyCover: Double?
        let precipChance: Double?
        let humidity: Double?
        let visibilityM: Double?
    }

    /// The hours with a readable time, when `data` is a sky result.
    static func hours(_ data: JSONValue) -> [Hour]? {
        guard data["place"]?.objectValue != nil, let hours = data["hours"]?.arrayValue else { return nil }
        return hours.compactMap { hour in
            guard let time = AlertReading.date(hour["time"]) else { return nil }
            func number(_ key: String) -> Double? { hour[key]?.doubleValue.flatMap { $0.isFinite ? $0 : nil } }
            return Hour(time: time, skyCover: number("skyCover"), precipChance: number("precipChance"),
                        humidity: number("humidity"), visibilityM: number("visibilityM"))
        }
    }

    static func notes(_ data: JSONValue) -> [String] {
        (data["notes"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(NWSSky.maximumNotes).map { $0.oneLine(limit: 200) }
    }

    /// `Stevens Pass · SEW 163,68 · updated Thu Feb 3 19:15 PST`.
    static func heading(_ data: JSONValue, context: PresentationContext) -> String {
        var parts = [context.style.bold(ForecastPresentation.placeName(data))]
        if let grid = data["grid"]?.stringValue { parts.append(grid) }
        if let updated = AlertReading.date(data["updated"]) { parts.append("updated \(context.localTime(updated, .dateTime))") }
        return parts.joined(separator: " · ")
    }

    /// NWS's words for a sky cover by eighths of the sky: clear (0/8), mostly clear (1–2/8),
    /// partly cloudy (3–5/8), mostly cloudy (6–7/8), cloudy (8/8).
    static func band(_ cover: Double) -> String {
        switch Int((min(100, max(0, cover)) / 12.5).rounded()) {
        case 0: "clear"
        case 1...2: "mostly clear"
        case 3...5: "partly cloudy"
        case 6...7: "mostly cloudy"
        default: "cloudy"
        }
    }

    /// `mostly cloudy (79%)`: the current hour, the first.
    static func now(_ hours: [Hour]) -> String {
        guard let cover = hours.first?.skyCover else { return "no value" }
        return "\(band(cover)) (\(Int(cover.rounded()))%)"
    }

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// An hour without a value (not a clear sky).
    static let gap: Character = "·"

    /// One block per hour by its sky cover: `▁` for 0 %, `█` for 100 %.
    static func strip(_ covers: [Double?]) -> String {
        String(covers.map { cover -> Character in
            guard let cover else { return gap }
            return levels[min(7, max(0, Int((cover / 100 * 7).rounded())))]
        })
    }

    /// The other layers' ranges over the hours, labelled.
    static func ranges(_ hours: [Hour], context: PresentationContext) -> [(String, String)] {
        var rows: [(String, String)] = []
        let chances = hours.compactMap { hour in hour.precipChance.map { (hour.time, $0) } }
        if let most = chances.max(by: { $0.1 < $1.1 }), let least = chances.map(\.1).min() {
            let range = least == most.1 ? percent(least) : "\(Int(least.rounded()))–\(percent(most.1))"
            rows.append(("Precip chance", most.1 > 0 ? "\(range), highest \(context.localTime(most.0, .dateTime))" : range))
        } else {
            rows.append(("Precip chance", "—"))
        }
        rows.append(("Humidity", range(hours.compactMap(\.humidity)) { "\(Int($0.rounded()))" } + (hours.contains { $0.humidity != nil } ? "%" : "")))
        rows.append(("Visibility", range(hours.compactMap(\.visibilityM), kilometres) + (hours.contains { $0.visibilityM != nil } ? " km" : "")))
        return rows
    }

    static func percent(_ value: Double) -> String { "\(Int(value.rounded()))%" }

    /// `0.4`, `16`: tenths below 10 km, whole kilometres above.
    static func kilometres(_ metres: Double) -> String {
        let km = metres / 1000
        return km < 9.95 ? String(format: "%.1f", km) : "\(Int(km.rounded()))"
    }

    /// `low–high` (one number when they agree), `—` when there are none.
    static func range(_ values: [Double], _ shown: (Double) -> String) -> String {
        guard let low = values.min(), let high = values.max() else { return "—" }
        return shown(low) == shown(high) ? shown(low) : "\(shown(low))–\(shown(high))"
    }

    /// The sky cover per hour as bars, with the same facts in words.
    static func chart(_ hours: [Hour], place: String, context: PresentationContext) -> Drawing {
        let bars = hours.map { Drawing.Slot(context.localTime($0.time, .dateTime), $0.skyCover) }
        let covers = hours.compactMap(\.skyCover)
        var words = "Sky cover per hour at \(place)"
        if let first = hours.first, let last = hours.last {
            words += " from \(context.localTime(first.time, .dateTime)) to \(context.localTime(last.time, .dateTime))"
        }
        if covers.isEmpty {
            words += ": no hour has a value"
        } else {
            let mean = covers.reduce(0, +) / Double(covers.count)
            words += ": \(range(covers) { "\(Int($0.rounded()))" })%, \(percent(mean)) on average"
            let missing = hours.count - covers.count
            if missing > 0 { words += "; \(missing) hour\(missing == 1 ? "" : "s") without a value" }
        }
        return .bars(title: "Sky cover per hour", unit: "%", bars, summary: words + ".")
    }
}
