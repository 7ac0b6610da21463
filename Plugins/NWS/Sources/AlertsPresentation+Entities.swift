import ConditionsEntities
import ConditionsJSON
import ConditionsKit

/// Active alerts in Home Assistant: how many, and the highest CAP severity among them, with
/// their headlines beside it for a card or a notification to quote.
extension AlertsPresentation {
    /// CAP's severities, lowest first, lowercased as HA's options are; `unknown` (CAP's own
    /// word, and any value NWS might add) ranks below `minor`: a known severity says more.
    static let severities = ["unknown", "minor", "moderate", "severe", "extreme"]
    /// `highest_severity`'s options: `none` when no alert is active.
    static let severityOptions = ["none", "minor", "moderate", "severe", "extreme", "unknown"]

    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        // Without an `alerts` array the data is no alerts result: every state unknown, not "none".
        let alerts = data["alerts"]?.arrayValue == nil ? nil : AlertReading.alerts(in: data)
        let headlines = (alerts ?? []).map { JSONValue.string($0["headline"]?.stringValue ?? $0["event"]?.stringValue ?? "Alert") }
        return [
            .sensor("alerts", name: "Alerts", state: alerts.map { .int($0.count) } ?? .null, stateClass: "measurement", icon: "mdi:alert"),
            .choice("highest_severity", name: "Highest severity", alerts.map(Self.highestSeverity), options: Self.severityOptions,
                    icon: "mdi:alert-octagon", attributes: ["headlines": .array(headlines)]),
        ]
    }

    /// The highest severity among `alerts`, `none` when there are none.
    static func highestSeverity(_ alerts: [JSONValue]) -> String {
        let ranks = alerts.map { alert in severities.firstIndex(of: alert["severity"]?.stringValue?.lowercased() ?? "") ?? 0 }
        return ranks.max().map { severities[$0] } ?? "none"
    }
}
