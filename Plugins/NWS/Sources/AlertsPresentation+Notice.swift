import ConditionsJSON
import ConditionsKit
import Foundation

/// What is news of NWS alerts (issue 43): a new alert, by its event's kind: a Warning → 5, a
/// Watch → 4, an Advisory → 3, any other → 2; the most urgent new one titles the notice. Alerts
/// ending are news of priority 2; NWS re-issuing one unchanged is none.
extension AlertsPresentation {
    func notice(from previous: JSONValue, to current: JSONValue, context: PresentationContext) -> Notice? {
        guard current["alerts"]?.arrayValue != nil else { return nil }
        let before = Set(AlertReading.alerts(in: previous).map(AlertReading.identity))
        let now = AlertReading.alerts(in: current)
        let place = ForecastPresentation.placeName(current)
        let fresh = now.filter { !before.contains(AlertReading.identity($0)) }
        let body = render(current, context: context).joined(separator: "\n")
        if let top = fresh.max(by: { Self.priority($0) < Self.priority($1) }) {
            let event = top["event"]?.stringValue ?? "Alert"
            let more = fresh.count > 1 ? " (and \(fresh.count - 1) more)" : ""
            return Notice(title: "\(event): \(place)\(more)", body: body, priority: Self.priority(top),
                          tags: ["warning", event], link: Self.link(current))
        }
        let ended = before.subtracting(now.map(AlertReading.identity))
        guard !ended.isEmpty else { return nil }
        let events = ended.map { String($0.split(separator: "|", omittingEmptySubsequences: false).first ?? "") }.sorted()
        return Notice(title: "\(place): \(events.joined(separator: ", ")) ended", body: body, priority: .low, tags: ["ended"], link: Self.link(current))
    }

    /// A new alert's priority from its event's last word.
    static func priority(_ alert: JSONValue) -> Notice.Priority {
        switch (alert["event"]?.stringValue ?? "").split(separator: " ").last.map(String.init) {
        case "Warning": .urgent
        case "Watch": .high
        case "Advisory": .normal
        default: .low
        }
    }

    /// The forecast page for the alerts' point.
    static func link(_ data: JSONValue) -> URL? {
        let parts = data["point"]?.stringValue?.split(separator: ",") ?? []
        guard parts.count == 2 else { return nil }
        return URL(string: "https://forecast.weather.gov/MapClick.php?lat=\(parts[0])&lon=\(parts[1])")
    }
}
