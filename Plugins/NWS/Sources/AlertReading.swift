import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// How one alert reads, shared by the forecast and alerts presentations: a line that stands
/// out, its card row, and what `watch` compares.
enum AlertReading {
    /// The alerts in `data`, or none.
    static func alerts(in data: JSONValue) -> [JSONValue] {
        (data["alerts"]?.arrayValue ?? []).filter { $0["event"]?.stringValue != nil }
    }

    /// `Extreme` and `Severe` are bad; the rest (Moderate, Minor, Unknown) call for care.
    static func tone(_ alert: JSONValue) -> ResultCard.Tone {
        ["Extreme", "Severe"].contains(alert["severity"]?.stringValue ?? "") ? .bad : .caution
    }

    /// The worst tone among `alerts`; nil when there are none.
    static func worstTone(_ alerts: [JSONValue]) -> ResultCard.Tone? {
        guard !alerts.isEmpty else { return nil }
        return alerts.contains { tone($0) == .bad } ? .bad : .caution
    }

    /// `Winter Storm Warning until Mon Nov 3 10:00 PST`: the event and how long it lasts.
    static func summary(_ alert: JSONValue, context: PresentationContext) -> String {
        var text = alert["event"]?.stringValue ?? "Alert"
        let from = date(alert["onset"]) ?? date(alert["effective"])
        let until = date(alert["ends"]) ?? date(alert["expires"])
        if let from, let until, from > until { return text }
        if let until { text += " until \(context.localTime(until, .dateTime))" }
        return text
    }

    /// `Severe · Expected · Likely`.
    static func grade(_ alert: JSONValue) -> String {
        ["severity", "urgency", "certainty"].compactMap { alert[$0]?.stringValue }.filter { $0 != "Unknown" }.joined(separator: " · ")
    }

    /// `⚠ Winter Storm Warning until Mon Nov 3 10:00 PST (Severe · Expected)`, red when severe.
    static func line(_ alert: JSONValue, context: PresentationContext) -> String {
        let grade = grade(alert)
        let text = "⚠ " + summary(alert, context: context) + (grade.isEmpty ? "" : " (\(grade))")
        return tone(alert) == .bad ? context.style.bold(context.style.red(text)) : context.style.bold(context.style.yellow(text))
    }

    /// What makes an alert the same alert across polls: its event, area and onset. NWS re-issues
    /// an alert under a new id with a later `expires` when nothing else changed; that is no news.
    static func identity(_ alert: JSONValue) -> String {
        [alert["event"]?.stringValue ?? "", alert["area"]?.stringValue ?? "",
         alert["onset"]?.stringValue ?? alert["effective"]?.stringValue ?? ""].joined(separator: "|")
    }

    /// `Winter Storm Warning, Avalanche Warning`, each event once.
    static func events(_ alerts: [JSONValue]) -> String {
        var seen = Set<String>()
        return alerts.compactMap { $0["event"]?.stringValue }.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    static func date(_ value: JSONValue?) -> Date? {
        value?.dateValue
    }
}
