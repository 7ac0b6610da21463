import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// An `/alerts/active?point=` body (GeoJSON features) read into result data: the actual
/// alerts (test and exercise messages left out), most severe first, then by onset.
struct NWSAlerts: Sendable {
    /// The collection's `updated`.
    let updated: Date?
    /// `{id, event, severity, certainty, urgency, headline, onset, effective, expires, ends,
    /// area, sender, description, instruction}` each, dates in UTC.
    let alerts: [JSONValue]

    /// Reads `body`, fetched from `url`.
    init(body: Data, url: URL) throws(ConditionsError) {
        let shown = Redaction.redact(url)
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw ConditionsError.badResponse("\(shown): not JSON (\(ConditionsError.report(error).message))")
        }
        guard let features = root["features"]?.arrayValue else {
            throw ConditionsError.badResponse("\(shown): \"features\" is missing or not an array")
        }
        updated = root["updated"]?.dateValue
        var read: [(rank: Int, onset: Date, alert: JSONValue)] = []
        for feature in features {
            guard let properties = feature["properties"], properties.objectValue != nil else { continue }
            // "Test", "Exercise", "System", "Draft": not weather anyone must act on.
            if let status = properties["status"]?.stringValue, status != "Actual" { continue }
            let text = { (key: String, limit: Int) -> JSONValue in
                JSONValue(properties[key]?.stringValue.map { $0.oneLine(limit: limit) }.flatMap { $0.isEmpty ? nil : $0 })
            }
            let date = { (key: String) -> Date? in properties[key]?.dateValue }
            let severity = properties["severity"]?.stringValue ?? "Unknown"
            let alert: JSONValue = [
                "id": text("id", 200) == .null ? JSONValue(feature["id"]?.stringValue) : text("id", 200),
                "event": text("event", 120),
                "severity": .string(severity.oneLine(limit: 20)),
                "certainty": text("certainty", 20),
                "urgency": text("urgency", 20),
                "headline": text("headline", 400),
                "onset": JSONValue(date("onset")),
                "effective": JSONValue(date("effective")),
                "expires": JSONValue(date("expires")),
                "ends": JSONValue(date("ends")),
                "area": text("areaDesc", 1000),
                "sender": text("senderName", 120),
                "description": Self.paragraphs(properties["description"]?.stringValue),
                "instruction": Self.paragraphs(properties["instruction"]?.stringValue),
            ]
            read.append((Self.rank(severity), date("onset") ?? date("effective") ?? .distantPast, alert))
        }
        alerts = read.enumerated().sorted { a, b in
            (a.element.rank, a.element.onset, a.offset) < (b.element.rank, b.element.onset, b.offset)
        }.map(\.element.alert)
    }

    /// CAP's severities, most severe first; anything else after them.
    static func rank(_ severity: String) -> Int {
        ["Extreme", "Severe", "Moderate", "Minor"].firstIndex(of: severity) ?? 4
    }

    /// NWS wraps long texts at ~70 columns with single newlines and separates paragraphs with
    /// blank lines: keep the paragraphs, join their lines, at most 8,000 characters.
    static func paragraphs(_ text: String?) -> JSONValue {
        guard let text else { return .null }
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        let joined = normalized.components(separatedBy: "\n\n").map { $0.oneLine(limit: 4000) }.filter { !$0.isEmpty }
        guard !joined.isEmpty else { return .null }
        var result = joined.joined(separator: "\n\n")
        if result.count > 8000 { result = String(result.prefix(8000)) + "…" }
        return .string(result)
    }
}
