import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// How `forecast` results read. Daily: the place and its elevation, the active alerts first
/// (standing out, red when severe), then the next four periods. Hourly: the next twelve hours.
/// `watch` compares the alerts and the periods' contents; a re-issued forecast that says the
/// same (only `updated`/`generatedAt` moved) is no change.
struct ForecastPresentation: ResultPresentation {
    let kind: ResultKind = .forecast

    /// Periods shown in text and on cards.
    static let dailyPeriods = 4
    static let hourlyPeriods = 12

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard let periods = Self.periods(data) else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        let hourly = data["hourly"]?.boolValue == true
        var lines = ["\(style.bold(context.urn))  " + Self.heading(data, hourly: hourly, context: context)]
        if !hourly {
            lines += AlertReading.alerts(in: data).map { "  " + AlertReading.line($0, context: context) }
            if let error = data["alertsError"]?.stringValue { lines.append("  " + style.yellow("alerts unavailable: \(error)")) }
        }
        let rows = periods.prefix(hourly ? Self.hourlyPeriods : Self.dailyPeriods).map { period in
            (Self.label(period, hourly: hourly, context: context), Self.summary(period))
        }
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in "  " + style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0)) + "  " + value }
        if rows.isEmpty { lines.append("  " + style.dim("no periods")) }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard let periods = Self.periods(data) else { return GenericPresentation().changeKey(data) }
        let alerts = AlertReading.alerts(in: data)
        let first = periods.first.map(Self.summary) ?? "no periods"
        let status = alerts.isEmpty ? first : AlertReading.events(alerts)
        var detail = alerts.map(AlertReading.identity).sorted().joined(separator: " || ")
        detail += " ## " + periods.map { period in
            ["name", "start", "temperature", "temperatureUnit", "windSpeed", "windDirection", "precipitationChance", "shortForecast", "detailedForecast"]
                .map { period[$0].map { $0.stringValue ?? $0.serialized() } ?? "" }.joined(separator: "|")
        }.joined(separator: " || ")
        return ChangeKey(status: status, detail: detail)
    }

    /// The place, its active alerts (daily), the periods as rows, NWS's page.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard let periods = Self.periods(data) else { return GenericPresentation().card(data, context: context) }
        let hourly = data["hourly"]?.boolValue == true
        var rows: [ResultCard.Row] = []
        var status: ResultCard.Status?
        if !hourly {
            let alerts = AlertReading.alerts(in: data)
            for alert in alerts { rows.append(.init("Alert", AlertReading.summary(alert, context: context.plain), tone: AlertReading.tone(alert))) }
            if let tone = AlertReading.worstTone(alerts) { status = .init(alerts.count == 1 ? "1 alert" : "\(alerts.count) alerts", tone: tone) }
            if let error = data["alertsError"]?.stringValue { rows.append(.init("Alerts", "unavailable: \(error)", tone: .neutral)) }
        }
        for period in periods.prefix(hourly ? Self.hourlyPeriods : Self.dailyPeriods) {
            rows.append(.init(Self.label(period, hourly: hourly, context: context.plain), Self.summary(period)))
        }
        if let feet = Self.feet(data) { rows.append(.init("Elevation", "\(feet) ft")) }
        let place = Self.placeName(data)
        return ResultCard(title: place, subtitle: hourly ? "Hourly forecast (NWS)" : "Forecast (NWS)", status: status, rows: rows,
                          updated: AlertReading.date(data["updated"]),
                          link: data["url"]?.stringValue.flatMap { URL(string: $0) }.map { .init(url: $0, label: "NWS forecast for \(place)") })
    }

    /// The periods, when `data` is a forecast.
    static func periods(_ data: JSONValue) -> [JSONValue]? {
        guard data["place"]?.objectValue != nil, let periods = data["periods"]?.arrayValue else { return nil }
        return periods.filter { $0.objectValue != nil }
    }

    static func placeName(_ data: JSONValue) -> String {
        data["place"]?["name"]?.stringValue ?? data["place"]?["id"]?.stringValue ?? data["point"]?.stringValue ?? "forecast"
    }

    /// `Stevens Pass · 4,062 ft · updated Sun Nov 2 04:12 PST`.
    static func heading(_ data: JSONValue, hourly: Bool, context: PresentationContext) -> String {
        var parts = [context.style.bold(placeName(data)) + (hourly ? " hourly" : "")]
        if let feet = feet(data) { parts.append("\(feet) ft") }
        if let updated = AlertReading.date(data["updated"]) {
            // Over a day old, it is no forecast for today (a replayed recording, a stale cache).
            if let age = data["age"]?.doubleValue, age > 86_400 {
                parts.append(context.style.yellow("issued \(context.localTime(updated, .date)), \(Int(age / 86_400)) day\(age < 172_800 ? "" : "s") old"))
            } else {
                parts.append("updated \(context.localTime(updated, .dateTime))")
            }
        }
        return parts.joined(separator: " · ")
    }

    /// `Tonight`, or the local hour for hourly periods (which have no names).
    static func label(_ period: JSONValue, hourly: Bool, context: PresentationContext) -> String {
        let name = period["name"]?.stringValue ?? ""
        if !hourly, !name.isEmpty { return name }
        guard let start = AlertReading.date(period["start"]) else { return name.isEmpty ? "—" : name }
        return context.localTime(start, hourly ? .time : .dateTime)
    }

    /// `34°F  Snow · SW 5 to 10 mph · precip 90%`.
    static func summary(_ period: JSONValue) -> String {
        var parts: [String] = []
        if let temperature = period["temperature"]?.doubleValue {
            parts.append("\(JSONValue.double(temperature.rounded()))°\(period["temperatureUnit"]?.stringValue ?? "")")
        }
        var facts: [String] = []
        if let short = period["shortForecast"]?.stringValue, !short.isEmpty { facts.append(short) }
        let wind = [period["windDirection"]?.stringValue, period["windSpeed"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }
        if !wind.isEmpty { facts.append("wind " + wind.joined(separator: " ")) }
        if let chance = period["precipitationChance"]?.intValue { facts.append("precip \(chance)%") }
        if !facts.isEmpty { parts.append(facts.joined(separator: " · ")) }
        return parts.isEmpty ? "—" : parts.joined(separator: "  ")
    }

    /// The grid's elevation in feet, thousands grouped (`4,062`).
    static func feet(_ data: JSONValue) -> String? {
        guard let metres = data["elevationM"]?.doubleValue, metres.isFinite, abs(metres) < 100_000 else { return nil }
        return GroupedNumber.text(Int((metres / 0.3048).rounded()))
    }
}
