import ConditionsJSON
import ConditionsKit
import Foundation

/// How `alerts` results read: the place and how many alerts are active, then each alert
/// standing out (event, until when, how severe), its headline, time span, area and what to do.
/// `watch` reports a new or ended alert; NWS re-issuing one unchanged is no change.
struct AlertsPresentation: ResultPresentation {
    let kind: ResultKind = .alerts

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        guard data["alerts"]?.arrayValue != nil, data["place"]?.objectValue != nil else { return GenericPresentation().render(data, context: context) }
        let style = context.style
        let alerts = AlertReading.alerts(in: data)
        let place = ForecastPresentation.placeName(data)
        guard !alerts.isEmpty else { return ["\(style.bold(context.urn))  \(style.bold(place)): " + style.green("no active alerts")] }
        var lines = ["\(style.bold(context.urn))  \(style.bold(place)): \(alerts.count) active alert\(alerts.count == 1 ? "" : "s")"]
        for alert in alerts {
            lines.append("  " + AlertReading.line(alert, context: context))
            if let headline = alert["headline"]?.stringValue { lines.append("    " + headline) }
            if let span = Self.span(alert, context: context) { lines.append("    " + style.dim(span)) }
            if let area = alert["area"]?.stringValue { lines.append("    " + style.dim("Area: ") + area) }
            if let instruction = alert["instruction"]?.stringValue {
                lines.append("    " + style.dim("What to do: ") + instruction.replacingOccurrences(of: "\n\n", with: " "))
            }
        }
        return lines
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        guard data["alerts"]?.arrayValue != nil else { return GenericPresentation().changeKey(data) }
        let alerts = AlertReading.alerts(in: data)
        let status = alerts.isEmpty ? "no alerts" : "\(alerts.count) alert\(alerts.count == 1 ? "" : "s"): \(AlertReading.events(alerts))"
        return ChangeKey(status: status, detail: alerts.map(AlertReading.identity).sorted().joined(separator: " || "))
    }

    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        guard data["alerts"]?.arrayValue != nil, data["place"]?.objectValue != nil else { return GenericPresentation().card(data, context: context) }
        let alerts = AlertReading.alerts(in: data)
        let rows = alerts.map { alert in
            ResultCard.Row(alert["event"]?.stringValue ?? "Alert",
                           [alert["headline"]?.stringValue ?? AlertReading.summary(alert, context: context.plain), alert["area"].flatMap(\.stringValue).map { "Area: \($0)" }]
                               .compactMap { $0 }.joined(separator: " — "),
                           tone: AlertReading.tone(alert))
        }
        let status = AlertReading.worstTone(alerts).map { ResultCard.Status(alerts.count == 1 ? "1 alert" : "\(alerts.count) alerts", tone: $0) }
            ?? ResultCard.Status("no alerts", tone: .good)
        let place = ForecastPresentation.placeName(data)
        let link = data["point"]?.stringValue.map { $0.split(separator: ",") }.flatMap { parts -> URL? in
            guard parts.count == 2 else { return nil }
            return URL(string: "https://forecast.weather.gov/MapClick.php?lat=\(parts[0])&lon=\(parts[1])")
        }
        return ResultCard(title: place, subtitle: "Active alerts (NWS)", status: status, rows: rows, updated: AlertReading.date(data["updated"]),
                          link: link.map { .init(url: $0, label: "NWS forecast and alerts for \(place)") })
    }

    /// `from Sun Nov 2 16:00 PST until Mon Nov 3 10:00 PST`.
    static func span(_ alert: JSONValue, context: PresentationContext) -> String? {
        let from = AlertReading.date(alert["onset"]) ?? AlertReading.date(alert["effective"])
        let until = AlertReading.date(alert["ends"]) ?? AlertReading.date(alert["expires"])
        switch (from, until) {
        case let (from?, until?): return "from \(context.localTime(from, .dateTime)) until \(context.localTime(until, .dateTime))"
        case let (from?, nil): return "from \(context.localTime(from, .dateTime))"
        case let (nil, until?): return "until \(context.localTime(until, .dateTime))"
        case (nil, nil): return nil
        }
    }
}
