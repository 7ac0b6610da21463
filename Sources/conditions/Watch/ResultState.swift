import ConditionsKit

/// What `watch` compares between polls: a short status a person would care about, not every
/// byte (a pass's "updated" time changing is not news; its status changing is).
struct ResultState: Equatable, Sendable {
    /// One word or phrase: `restricted`, `waxing gibbous`, `error: timeout`, …
    let status: String
    /// Details that also count as a change when they differ (restriction texts, phase dates).
    let detail: String

    init(_ record: ResultRecord) {
        switch record.outcome {
        case .failure(let kind, _, _):
            status = "error: \(kind)"
            detail = ""
        case .success(_, _, _, let data, _):
            (status, detail) = Self.summarize(data)
        }
    }

    static func summarize(_ data: JSONValue) -> (String, String) {
        if let status = data["status"]?.stringValue, let restrictions = data["restrictions"]?.arrayValue {
            return (status, restrictions.compactMap { $0["text"]?.stringValue }.joined(separator: " | "))
        }
        if let passes = data["passes"]?.arrayValue {
            let statuses = passes.map { "\($0["id"]?.stringValue ?? "?")=\($0["status"]?.stringValue ?? "?")" }
            return (statuses.joined(separator: ", "), "")
        }
        if let phase = data["phase"]?.stringValue, data["illumination"] != nil {
            return (phase, "")
        }
        if let phases = data["phases"]?.arrayValue, let first = phases.first {
            return ("next: \(first["name"]?.stringValue ?? "?")", phases.compactMap { $0["date"]?.stringValue }.joined(separator: ","))
        }
        if let status = data["status"]?.stringValue { return (status, data.serialized()) }
        return ("changed", data.serialized())
    }
}
