import ConditionsFigures
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

extension ResultKind {
    /// `snowfall:{pass}` and `snowfall:{pass}:{season}` data (one `SnowfallReport`).
    public static let snowfall: ResultKind = "snowfall"
}

/// How `snowfall` results read: the pass and season, the summary (depth, season total, new
/// snow over the last 24 hours and 7 days), a sparkline of the last 14 days of new snow, and on
/// the dashboard a bar chart of the last 30. Windows end on the latest reported day, as the
/// summary's do. `watch` reports a new season total, and counts a newly reported latest day as
/// a change too; a revised older day is not news.
struct SnowfallPresentation: ResultPresentation {
    let kind: ResultKind = .snowfall
    /// Days in the text's sparkline.
    static let sparklineDays = 14
    /// Days in the card's chart.
    static let chartDays = 30

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard Self.isSnowfall(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        let name = data["name"]?.stringValue ?? data["id"]?.stringValue ?? "pass"
        var lines = ["\(style.bold(name))  \(Self.seasonText(data))"]
        let summary = data["summary"] ?? .null
        guard let latest = Self.latestDay(data) else {
            lines.append("  " + (data["note"]?.stringValue ?? "No snowfall reported for this season."))
            return lines
        }
        let window = Self.window(data, days: Self.sparklineDays, endingOn: latest)
        var rows = Self.figureRows(summary)
        var spark = Self.sparkline(window.map(\.newSnowIn))
        if let first = window.first?.date { spark += "  \(first.shortText) – \(latest.shortText)" }
        let most = window.compactMap(\.newSnowIn).max() ?? 0
        if most > 0 { spark += ", most \(Self.inches(most))" }
        rows.append(("Last \(Self.sparklineDays) days", spark))
        var facts = ["latest report \(latest.longText)"]
        if let count = summary["daysReported"]?.intValue { facts.append("\(count) day\(count == 1 ? "" : "s") reported") }
        rows.append(("", style.dim(facts.joined(separator: " · "))))
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in
            "  " + style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value
        }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard Self.isSnowfall(data) else { return GenericPresentation().changeKey(data) }
        let total = data["summary"]?["seasonTotalIn"]?.doubleValue
        return ChangeKey(status: total.map { "\(Self.inches($0)) this season" } ?? "no snowfall reported",
                         detail: data["summary"]?["latestDay"]?.stringValue ?? "")
    }

    /// The pass and season, a bar chart of the last 30 days' new snow, the summary's figures,
    /// the latest report's day and WSDOT's page; a season with no days says so in a line.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard Self.isSnowfall(data) else { return GenericPresentation().card(data, context: context) }
        let name = data["name"]?.stringValue ?? data["id"]?.stringValue ?? "pass"
        let link = data["url"]?.stringValue.flatMap { URL(string: $0) }.map { ResultCard.Link(url: $0, label: "WSDOT's page for \(name)") }
        guard let latest = Self.latestDay(data) else {
            return ResultCard(title: name, subtitle: Self.seasonText(data),
                              lines: [data["note"]?.stringValue ?? "No snowfall reported for this season."], link: link)
        }
        let summary = data["summary"] ?? .null
        var rows = Self.figureRows(summary).map { ResultCard.Row($0.0, $0.1) }
        rows.append(.init("Latest report", latest.longText))
        if let count = summary["daysReported"]?.intValue { rows.append(.init("Days reported", "\(count)")) }
        return ResultCard(title: name, subtitle: Self.seasonText(data), figure: Self.chart(data, name: name, endingOn: latest),
                          rows: rows, link: link)
    }

    // MARK: Reading the data

    /// Data from elsewhere (a fixture, the cache) is read as snowfall only with the members
    /// the text is built from.
    static func isSnowfall(_ data: JSONValue) -> Bool {
        data["summary"]?.objectValue != nil && data["days"]?.arrayValue != nil
    }

    /// `2023–24 season`.
    static func seasonText(_ data: JSONValue) -> String {
        if let name = data["seasonName"]?.stringValue { return "\(name) season" }
        if let year = data["season"]?.intValue, (1...9999).contains(year) { return "\(SnowfallSeason(startYear: year).name) season" }
        return "snowfall"
    }

    /// The summary's latest day, else the last readable day.
    static func latestDay(_ data: JSONValue) -> CivilDate? {
        if let day = data["summary"]?["latestDay"]?.stringValue.flatMap(CivilDate.init(iso:)) { return day }
        return data["days"]?.arrayValue?.compactMap { $0["date"]?.stringValue.flatMap(CivilDate.init(iso:)) }.max()
    }

    /// One slot of a window: a day and its new snow, nil when the day reports none.
    struct Slot {
        let date: CivilDate
        let newSnowIn: Double?
    }

    /// The `days` calendar days ending on `last`, each with the new snow reported for it.
    static func window(_ data: JSONValue, days count: Int, endingOn last: CivilDate) -> [Slot] {
        let first = last.ordinal - count + 1
        var reported: [Int: Double] = [:]
        for day in data["days"]?.arrayValue ?? [] {
            guard let date = day["date"]?.stringValue.flatMap(CivilDate.init(iso:)), (first...last.ordinal).contains(date.ordinal),
                  let value = day["newSnowIn"]?.doubleValue, value.isFinite, reported[date.ordinal] == nil
            else { continue }
            reported[date.ordinal] = value
        }
        return (first...last.ordinal).map { Slot(date: CivilDate(ordinal: $0), newSnowIn: reported[$0]) }
    }

    /// The summary's figures as labelled texts, `—` where one is not reported.
    static func figureRows(_ summary: JSONValue) -> [(String, String)] {
        func figure(_ key: String) -> String { summary[key]?.doubleValue.map(inches) ?? "—" }
        return [("Depth", figure("depthIn")), ("Season total", figure("seasonTotalIn")),
                ("Last 24 h", figure("newSnow24hIn")), ("Last 7 days", figure("newSnow7dIn"))]
    }

    // MARK: Drawing

    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Where a day reports no new snow figure.
    static let gap: Character = "·"

    /// One glyph per value, scaled to the largest: `▁` for none, `█` for the most, any snow at
    /// all at least `▂`; `·` for a day not reported.
    static func sparkline(_ values: [Double?]) -> String {
        let most = values.compactMap { $0 }.filter(\.isFinite).max() ?? 0
        return String(values.map { value -> Character in
            guard let value, value.isFinite else { return gap }
            guard value > 0, most > 0 else { return levels[0] }
            let level = Int((value / most * 7).rounded(.up))
            return levels[min(7, max(1, level))]
        })
    }

    /// The last `chartDays` days of new snow as bars, with the same facts in words.
    static func chart(_ data: JSONValue, name: String, endingOn last: CivilDate) -> Drawing {
        let window = window(data, days: chartDays, endingOn: last)
        let bars = window.map { Drawing.Slot($0.date.shortText, $0.newSnowIn) }
        let first = window.first?.date ?? last
        var words = "New snow per day at \(name) from \(first.shortText)\(first.year == last.year ? "" : " \(first.year)") to \(last.shortText) \(last.year): "
        let reported = window.filter { $0.newSnowIn != nil }
        let total = reported.compactMap(\.newSnowIn).reduce(0, +)
        let most = reported.compactMap(\.newSnowIn).max() ?? 0
        if most > 0 {
            let peaks = reported.filter { $0.newSnowIn == most }.map(\.date.shortText)
            let shown = peaks.count > 3 ? peaks.prefix(3).joined(separator: ", ") + " and \(peaks.count - 3) more" : peaks.joined(separator: " and ")
            words += "\(inches(total)) altogether, the most \(inches(most)) on \(shown)"
        } else {
            words += reported.isEmpty ? "no day reported" : "no new snow"
        }
        let missing = window.count - reported.count
        if missing > 0, !reported.isEmpty { words += "; \(missing) day\(missing == 1 ? "" : "s") not reported" }
        return .bars(title: "New snow per day", unit: "in", bars, summary: words + ".")
    }

    /// `4 in`, `389.9 in`, `0.04 in`: whole inches as such, else tenths, and hundredths where
    /// tenths would show a little snow as none.
    static func inches(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "\(value) in" }
        let tenths = (value * 10).rounded() / 10
        if tenths == 0, abs(value) >= 0.005 { return String(format: "%.2f in", value) }
        if tenths == tenths.rounded() { return "\(Int(tenths)) in" }
        return String(format: "%.1f in", tenths)
    }
}
