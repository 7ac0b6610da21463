import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// How `avalanche` results read, and what `watch` compares in them.
///
/// Text: the zone and the day's rating, the danger by band today and tomorrow, the scale's
/// travel advice, the problems, the bottom line, who published it when, and the link.
/// `avalanche:all`: a line per zone.
///
/// Card (the dashboard, `AvalanchePresentation+Card.swift`): the danger by band today and
/// tomorrow as a drawing (`DangerChart`) in the scale's colours, the warning first when one is in effect,
/// the problems and the bottom line as rows; `avalanche:all` a part per zone.
///
/// Change key: a level in any band today or tomorrow, the set of problems (by name), a warning
/// in effect or not, and the status (off-season, no rating). Wording, likelihood, size and the
/// publication times are not news.
struct AvalanchePresentation: ResultPresentation {
    let kind = AvalancheSource.kind

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        let style = context.style
        if let zones = data["zones"]?.arrayValue {
            let center = data["center"]?.stringValue ?? "?"
            var lines = ["\(style.bold(context.urn))  \(center): \(zones.count) zone\(zones.count == 1 ? "" : "s") today"]
            let width = zones.compactMap { $0["zone"]?["name"]?.stringValue?.count }.max() ?? 0
            for zone in zones {
                let name = (zone["zone"]?["name"]?.stringValue ?? "?").padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(name)  " + Self.oneLine(zone, style: style))
            }
            return lines
        }
        guard let zone = data["zone"]?["name"]?.stringValue, let status = data["status"]?.stringValue else {
            return GenericPresentation().render(data, context: context)
        }
        let day = data["day"]?.stringValue ?? ForecastDay.today.rawValue
        var heading = "\(style.bold(context.urn))  \(zone) (\(data["center"]?.stringValue ?? "?"))"
        if let place = data["place"]?["name"]?.stringValue, place != zone { heading += " for \(place)" }
        switch status {
        case ZoneStatus.forecast.rawValue:
            heading += ": " + Self.colored(data["rating"], style: style) + " \(day)"
        case ZoneStatus.offSeason.rawValue:
            heading += ": off-season, no forecasts until next season"
        default:
            heading += ": \(status) \(day)"
        }
        if data["warning"].map({ !$0.isNull }) ?? false { heading += "  " + style.red("⚠ avalanche warning in effect") }
        var lines = [heading]
        if status == ZoneStatus.forecast.rawValue || status == ZoneStatus.noRating.rawValue {
            for (label, key) in [("today   ", ForecastDay.today.rawValue), ("tomorrow", ForecastDay.tomorrow.rawValue)] {
                guard let bands = data["danger"]?[key], !bands.isNull else { continue }
                lines.append("  " + style.dim(label) + "  " + Self.bands(bands, style: style))
            }
            if let advice = data["rating"]?["advice"]?.stringValue { lines.append("  " + advice) }
            for problem in data["problems"]?.arrayValue ?? [] { lines.append("  " + Self.problem(problem)) }
            lines += Self.paragraphs(data["bottomLine"])
        }
        lines += Self.paragraphs(data["summary"])
        var byline: [String] = []
        if let forecaster = data["forecaster"]?.stringValue { byline.append("by \(forecaster)") }
        if let published = data["published"]?.dateValue {
            byline.append("published \(context.localTime(published, .dateTime))")
        }
        if status != ZoneStatus.offSeason.rawValue, let expires = data["expires"]?.dateValue {
            let expired = data["expired"]?.boolValue == true
            let text = "\(expired ? "expired" : "expires") \(context.localTime(expires, .dateTime))"
            byline.append(expired ? style.yellow(text) : text)
        }
        if !byline.isEmpty { lines.append("  " + style.dim(byline.joined(separator: " · "))) }
        if let url = data["url"]?.stringValue { lines.append("  " + url) }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        if let zones = data["zones"]?.arrayValue {
            let levels = zones.compactMap { $0["rating"]?["level"]?.intValue }.filter { DangerScale.isRated($0) }
            let status = levels.max().map { DangerScale.levels[$0 - 1].name }
                ?? (zones.allSatisfy { $0["status"]?.stringValue == ZoneStatus.offSeason.rawValue } ? ZoneStatus.offSeason.rawValue : ZoneStatus.noRating.rawValue)
            let detail = zones.map { "\($0["zone"]?["name"]?.stringValue ?? "?"): \(Self.news($0))" }.joined(separator: " || ")
            return ChangeKey(status: status, detail: detail)
        }
        guard data["zone"] != nil, let status = data["status"]?.stringValue else { return GenericPresentation().changeKey(data) }
        // The day's highest band, read from the bands themselves (what `news` compares).
        let day = data["day"]?.stringValue ?? ForecastDay.today.rawValue
        let highest = ["above", "near", "below"].compactMap { data["danger"]?[day]?[$0]?["level"]?.intValue }.filter { DangerScale.isRated($0) }.max()
        let word = status == ZoneStatus.forecast.rawValue ? highest.map { DangerScale.levels[$0 - 1].name } ?? status : status
        return ChangeKey(status: word, detail: Self.news(data))
    }

    /// What counts as news in one zone's data, as text: its status, each band's level today
    /// and tomorrow, its problems' names, and whether a warning is in effect.
    static func news(_ zone: JSONValue) -> String {
        let levels = [ForecastDay.today.rawValue, ForecastDay.tomorrow.rawValue].map { day in
            let bands = zone["danger"]?[day]
            let text = ["above", "near", "below"].map { bands?[$0]?["level"]?.intValue.map(String.init) ?? "-" }.joined(separator: "/")
            return "\(day) \(text)"
        }
        let problems = (zone["problems"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }.sorted().joined(separator: ", ")
        let warning = zone["warning"].map { !$0.isNull } ?? false
        return "\(zone["status"]?.stringValue ?? "?"); \(levels.joined(separator: "; ")); problems: \(problems); warning: \(warning ? "yes" : "no")"
    }

    /// One zone of `avalanche:all` on a line: its rating and bands, or its status.
    static func oneLine(_ zone: JSONValue, style: TextStyle) -> String {
        let status = zone["status"]?.stringValue ?? "?"
        var line = status == ZoneStatus.forecast.rawValue
            ? colored(zone["rating"], style: style) + (zone["danger"]?["today"].map { "  " + style.dim(bands($0, style: .plain)) } ?? "")
            : status
        if zone["warning"].map({ !$0.isNull }) ?? false { line += "  " + style.red("⚠ warning") }
        return line
    }

    /// `above treeline 3 Considerable · near treeline 2 Moderate · below treeline 2 Moderate`.
    static func bands(_ bands: JSONValue, style: TextStyle) -> String {
        [("above", "above treeline"), ("near", "near treeline"), ("below", "below treeline")].map { key, label in
            "\(label) " + colored(bands[key], style: style)
        }.joined(separator: " · ")
    }

    /// `3 Considerable`, coloured by level (red for High and Extreme, yellow for Moderate and
    /// Considerable, green for Low); `no rating` as it is.
    static func colored(_ rating: JSONValue?, style: TextStyle) -> String {
        guard let level = rating?["level"]?.intValue, DangerScale.isRated(level), let name = rating?["name"]?.stringValue else {
            return DangerScale.noRating.lowercased()
        }
        let text = "\(level) \(name)"
        switch level {
        case 4...: return style.red(text)
        case 2...3: return style.yellow(text)
        default: return style.green(text)
        }
    }

    /// `Storm Slab: likely · D1–2 · above and near treeline · all aspects`.
    static func problem(_ problem: JSONValue) -> String {
        let name = problem["name"]?.stringValue ?? "Problem"
        let details = problemDetails(problem)
        return details.isEmpty ? name : "\(name): " + details
    }

    /// `likely · D1–2 · above and near treeline · all aspects`: a problem but its name.
    static func problemDetails(_ problem: JSONValue) -> String {
        var parts: [String] = []
        if let likelihood = problem["likelihood"]?.stringValue { parts.append(likelihood) }
        if let low = problem["size"]?["min"]?.doubleValue, let high = problem["size"]?["max"]?.doubleValue {
            parts.append(low == high ? "D\(JSONValue.format(low))" : "D\(JSONValue.format(low))–\(JSONValue.format(high))")
        }
        let elevations = (problem["elevations"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !elevations.isEmpty { parts.append(listed(elevations.map { $0.replacingOccurrences(of: " treeline", with: "") }) + " treeline") }
        let aspects = (problem["aspects"]?.arrayValue ?? []).compactMap(\.stringValue)
        if aspects.count == AvalancheProblem.compass.count {
            parts.append("all aspects")
        } else if !aspects.isEmpty {
            parts.append(aspects.map(abbreviation).joined(separator: " "))
        }
        return parts.joined(separator: " · ")
    }

    /// `north` → `N`, `southwest` → `SW`.
    private static func abbreviation(_ aspect: String) -> String {
        let words = ["north": "N", "south": "S", "east": "E", "west": "W"]
        if let whole = words[aspect] { return whole }
        for (prefix, letter) in [("north", "N"), ("south", "S")] where aspect.hasPrefix(prefix) {
            return letter + (words[String(aspect.dropFirst(prefix.count))] ?? "")
        }
        return aspect
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ items: [String]) -> String {
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// A text of blank-line-separated paragraphs, one indented line each.
    private static func paragraphs(_ text: JSONValue?) -> [String] {
        (text?.stringValue ?? "").components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { "  " + $0 }
    }
}
