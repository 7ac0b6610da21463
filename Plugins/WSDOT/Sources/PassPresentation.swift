import ConditionsKit
import Foundation

extension ResultKind {
    /// `pass:{name}` data (one `PassReport`) and `pass:all` data (`{"passes": [PassReport]}`):
    /// one kind for both, so a recording replayed under the `pass` scheme reads as the live answer.
    public static let pass: ResultKind = "pass"
}

/// How `pass` results read: the pass's name and status, a row per direction's restriction,
/// conditions, weather, a travel advisory, the page's other rows (`extra`), and temperature ·
/// elevation · age of the report. `watch` compares the
/// status and the restriction texts (for `pass:all`, every pass's status); the temperature and
/// the "updated" time changing is not news.
struct PassPresentation: ResultPresentation {
    let kind: ResultKind = .pass

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        if let passes = data["passes"]?.arrayValue, passes.allSatisfy(Self.isPass) {
            return [context.style.bold(context.urn)] + passes.flatMap { renderPass($0, context: context) }
        }
        guard Self.isPass(data) else { return GenericPresentation().render(data, context: context) }
        return renderPass(data, context: context)
    }

    func changeKey(_ data: JSONValue) -> ChangeKey {
        if let passes = data["passes"]?.arrayValue {
            let statuses = passes.map { "\($0["id"]?.stringValue ?? "?")=\($0["status"]?.stringValue ?? "?")" }
            return ChangeKey(status: statuses.joined(separator: ", "))
        }
        guard let status = data["status"]?.stringValue, let restrictions = data["restrictions"]?.arrayValue else {
            return GenericPresentation().changeKey(data)
        }
        return ChangeKey(status: status, detail: restrictions.compactMap { $0["text"]?.stringValue }.joined(separator: " | "))
    }

    /// A pass's card: its name, status (word and tone), a row per direction's restriction,
    /// conditions, weather, temperature, elevation, the report's time (with a stale note when it
    /// is over a day old), WSDOT's page and the pass's position from the catalog. `pass:all`
    /// is a card holding one such card per pass.
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        if let passes = data["passes"]?.arrayValue, passes.allSatisfy(Self.isPass) {
            return ResultCard(title: "Mountain passes", parts: passes.map { passCard($0, context: context) })
        }
        guard Self.isPass(data) else { return GenericPresentation().card(data, context: context) }
        return passCard(data, context: context)
    }

    func passCard(_ pass: JSONValue, context: PresentationContext) -> ResultCard {
        let name = pass["name"]?.stringValue ?? pass["id"]?.stringValue ?? "pass"
        let status = pass["status"]?.stringValue ?? "unknown"
        var rows: [ResultCard.Row] = []
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            rows.append(.init(restriction["direction"]?.stringValue ?? "—", restriction["text"]?.stringValue ?? "—",
                              tone: Self.tone(restriction["status"]?.stringValue ?? "unknown")))
        }
        if let conditions = pass["conditions"]?.stringValue { rows.append(.init("Conditions", conditions)) }
        if let weather = pass["weather"]?.stringValue { rows.append(.init("Weather", weather)) }
        if let temperature = pass["temperatureF"]?.doubleValue { rows.append(.init("Temperature", "\(JSONValue.double(temperature))°F")) }
        if let elevation = pass["elevationFt"]?.doubleValue, let feet = Int(exactly: elevation.rounded()) {
            rows.append(.init("Elevation", "\(Self.grouped(feet)) ft"))
        }
        if pass["travelAdvisory"]?.boolValue == true { rows.append(.init("Travel advisory", "in effect", tone: .caution)) }
        for (label, value) in pass["extra"]?.objectValue ?? JSONObject() {
            if let text = value.stringValue { rows.append(.init(label, text)) }
        }
        let updated = pass["updated"]?.stringValue.flatMap { Timestamp.parse($0) }
        let staleNote = updated.flatMap { Self.staleNote(pass, updated: $0, context: context) }
        let link = pass["url"]?.stringValue.flatMap { URL(string: $0) }.map { ResultCard.Link(url: $0, label: "WSDOT's page for \(name)") }
        let coordinate = pass["id"]?.stringValue.flatMap { PassCatalog.pass(named: $0) }?.coordinate
        return ResultCard(title: name, status: .init(status, tone: Self.tone(status)), rows: rows, updated: updated, staleNote: staleNote,
                          link: link, coordinate: coordinate.map { .init(latitude: $0.latitude, longitude: $0.longitude) })
    }

    /// `3,022`: thousands grouped as WSDOT writes them.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    static func tone(_ status: String) -> ResultCard.Tone {
        switch PassStatus(rawValue: status) {
        case .open: .good
        case .restricted: .caution
        case .closed: .bad
        case .unknown, nil: .neutral
        }
    }

    /// Data from elsewhere (a fixture, the cache) is read as a pass only with the members the
    /// text is built from.
    static func isPass(_ data: JSONValue) -> Bool {
        data["status"]?.stringValue != nil && data["restrictions"]?.arrayValue != nil
    }

    func renderPass(_ pass: JSONValue, context: PresentationContext) -> [String] {
        let style = context.style
        let name = pass["name"]?.stringValue ?? pass["id"]?.stringValue ?? "pass"
        let status = pass["status"]?.stringValue ?? "unknown"
        var lines = ["\(style.bold(name))  \(Self.styledStatus(status, style: style))"]
        var rows: [(String, String)] = []
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            rows.append((restriction["direction"]?.stringValue ?? "—", restriction["text"]?.stringValue ?? "—"))
        }
        if let conditions = pass["conditions"]?.stringValue { rows.append(("Conditions", conditions)) }
        if let weather = pass["weather"]?.stringValue { rows.append(("Weather", weather)) }
        if pass["travelAdvisory"]?.boolValue == true { rows.append(("Travel advisory", style.yellow("in effect"))) }
        // Rows of the page this module has no field for, as the card shows them: nothing read is dropped.
        for (label, value) in pass["extra"]?.objectValue ?? JSONObject() {
            if let text = value.stringValue { rows.append((label, text)) }
        }
        var facts: [String] = []
        if let temperature = pass["temperatureF"]?.doubleValue { facts.append("\(JSONValue.double(temperature))°F") }
        if let elevation = pass["elevationFt"]?.doubleValue { facts.append("\(JSONValue.double(elevation)) ft") }
        if let updated = pass["updated"]?.stringValue.flatMap({ Timestamp.parse($0) }) {
            if let note = Self.staleNote(pass, updated: updated, context: context) {
                facts.append(style.yellow(note))
            } else {
                facts.append("updated \(context.localTime(updated, .dateTime))")
            }
        }
        if !facts.isEmpty { rows.append(("", facts.joined(separator: " · "))) }
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { label, value in
            "  " + (label.isEmpty ? String(repeating: " ", count: width) : style.dim(label.padding(toLength: width, withPad: " ", startingAt: 0))) + "  " + value
        }
        return lines
    }

    static func styledStatus(_ status: String, style: TextStyle) -> String {
        switch status {
        case "open": return style.green("OPEN")
        case "restricted": return style.yellow("RESTRICTED")
        case "closed": return style.red("CLOSED")
        default: return style.dim(status.uppercased())
        }
    }

    /// `report from Sun Apr 13 2025, 7 months old` for a report over a day old, else nil:
    /// off-season passes keep months-old reports, and showing them like fresh news misleads.
    static func staleNote(_ pass: JSONValue, updated: Date, context: PresentationContext) -> String? {
        guard let age = pass["reportAge"]?.doubleValue, age > 86_400 else { return nil }
        return "report from \(context.localTime(updated, .date)), \(staleness(age)) old"
    }

    /// "2 days", "3 weeks", "7 months", "2 years": how old a stale report is, roughly.
    static func staleness(_ seconds: Double) -> String {
        let days = Int(seconds / 86_400)
        func counted(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if days < 14 { return counted(days, "day") }
        if days < 61 { return counted(days / 7, "week") }
        if days < 365 { return counted(Int((Double(days) / 30.44).rounded(.down)), "month") }
        return counted(days / 365, "year")
    }
}
