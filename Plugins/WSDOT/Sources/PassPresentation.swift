import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

extension ResultKind {
    /// `pass:{name}` data (one `PassReport`) and `pass:all` data (`{"passes": [PassReport]}`):
    /// one kind for both, so a recording replayed under the `pass` scheme reads as the live answer.
    public static let pass: ResultKind = "pass"
}

/// How `pass` results read: the pass's name and status, WSDOT's alerts, a row per direction's
/// restriction (marked "not current" when WSDOT's travel advisory for the pass is off),
/// conditions, weather, the page's other rows (`extra`), the first two forecast periods, and
/// temperature · elevation · age of the report. `watch` compares the status, the restriction
/// texts and the alerts (for `pass:all`, every pass's status); the temperature, the forecast
/// and the "updated" time changing is not news.
struct PassPresentation: ResultPresentation {
    let kind: ResultKind = .pass
    /// Pass cards are placed on Washington's map by the pass's coordinates.
    var map: MapLayer? { WashingtonMap.layer }
    /// A pass's status changes at any hour, so its card shows the last 48 hours of them.
    let showsHistory = true

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
        var detail = restrictions.compactMap { $0["text"]?.stringValue }.joined(separator: " | ")
        // A new or lifted alert is news; the order WSDOT lists them in is not.
        let alerts = (data["alerts"]?.arrayValue ?? []).compactMap { $0["headline"]?.stringValue }.sorted()
        if !alerts.isEmpty { detail += " || alerts: " + alerts.joined(separator: " | ") }
        return ChangeKey(status: status, detail: detail)
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
        for alert in Self.alerts(of: pass) { rows.append(.init("Alert", alert, tone: .caution)) }
        if let source = Self.closedBy(pass) { rows.append(.init("Closed by", source, tone: .bad)) }
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            let text = restriction["text"]?.stringValue ?? "—"
            if Self.isCurrent(restriction) {
                rows.append(.init(restriction["direction"]?.stringValue ?? "—", text, tone: Self.tone(restriction["status"]?.stringValue ?? "unknown")))
            } else {
                rows.append(.init(restriction["direction"]?.stringValue ?? "—", "\(text) (not current)", tone: .neutral))
            }
        }
        if let conditions = pass["conditions"]?.stringValue { rows.append(.init("Conditions", conditions)) }
        if let weather = pass["weather"]?.stringValue { rows.append(.init("Weather", weather)) }
        if let temperature = pass["temperatureF"]?.doubleValue { rows.append(.init("Temperature", "\(JSONValue.double(temperature))°F")) }
        if let elevation = pass["elevationFt"]?.doubleValue, let feet = Int(exactly: elevation.rounded()) {
            rows.append(.init("Elevation", "\(GroupedNumber.text(feet)) ft"))
        }
        for (label, value) in pass["extra"]?.objectValue ?? JSONObject() {
            if let text = value.stringValue { rows.append(.init(label, text)) }
        }
        for period in Self.forecast(of: pass) { rows.append(.init(period.label, period.text)) }
        let updated = pass["updated"]?.dateValue
        let staleNote = updated.flatMap { Self.staleNote(pass, updated: $0, context: context) }
        let link = pass["url"]?.stringValue.flatMap { URL(string: $0) }.map { ResultCard.Link(url: $0, label: "WSDOT's page for \(name)") }
        let coordinate = pass["id"]?.stringValue.flatMap { PassCatalog.pass(named: $0) }?.coordinate
        let camera = (pass["cameras"]?.arrayValue ?? []).lazy.compactMap { camera -> ResultCard.Image? in
            guard let url = camera["imageURL"]?.stringValue.flatMap({ URL(string: $0) }), url.scheme?.lowercased() == "https" else { return nil }
            return ResultCard.Image(url: url, alt: camera["title"]?.stringValue ?? "Camera at \(name)")
        }.first
        var card = ResultCard(title: name, status: .init(status, tone: Self.tone(status)), image: camera, rows: rows, updated: updated,
                              staleNote: staleNote, link: link, coordinate: coordinate.map { .init(latitude: $0.latitude, longitude: $0.longitude) })
        card.mapLabel = Self.shortName(name)
        return card
    }

    /// `Snoqualmie` for "Snoqualmie Pass I-90": the words before "Pass" or the road's number,
    /// for the marker's label on the map.
    static func shortName(_ title: String) -> String {
        var words: [Substring] = []
        for word in title.split(separator: " ") {
            let isRoad = word.contains(where: \.isNumber) || ["US", "SR", "I", "Hwy"].contains(word)
            if word == "Pass" || isRoad { break }
            words.append(word)
        }
        return words.isEmpty ? title : words.joined(separator: " ")
    }

    /// Which fields said closed, in words, and the sentences that did: `the road condition:
    /// “SR 20 … is temporarily closed …”`; nil when none did (or the data predates `closedBy`;
    /// data predating `closedByText` gives the fields alone).
    static func closedBy(_ pass: JSONValue) -> String? {
        let names = ["restrictions": "the restriction texts", "conditions": "the road condition"]
        let fields = (pass["closedBy"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { names[$0] } }
        guard !fields.isEmpty else { return nil }
        let words = (pass["closedByText"]?.arrayValue ?? []).compactMap(\.stringValue).map { "“\($0)”" }
        return fields.joined(separator: " and ") + (words.isEmpty ? "" : ": " + words.joined(separator: " · "))
    }

    /// Restriction texts WSDOT does not vouch for (its travel advisory for the pass is off)
    /// say so; data without the member (older caches, fixtures) is taken as current.
    static func isCurrent(_ restriction: JSONValue) -> Bool {
        restriction["current"]?.boolValue != false
    }

    /// Each alert as one line: the headline, then what and where (`Maintenance, 090 Eastbound`).
    static func alerts(of pass: JSONValue) -> [String] {
        (pass["alerts"]?.arrayValue ?? []).compactMap { alert in
            guard let headline = alert["headline"]?.stringValue else { return nil }
            let road = [alert["road"]?.stringValue, alert["direction"]?.stringValue].compactMap { $0 }.joined(separator: " ")
            let about = [alert["category"]?.stringValue, road.isEmpty ? nil : road].compactMap { $0 }
            return about.isEmpty ? headline : "\(headline) (\(about.joined(separator: ", ")))"
        }
    }

    /// The first two forecast periods: tonight and tomorrow are what a trip is planned on.
    static func forecast(of pass: JSONValue) -> [(label: String, text: String)] {
        (pass["forecast"]?.arrayValue ?? []).prefix(2).compactMap { period in
            guard let text = period["text"]?.stringValue else { return nil }
            let name = period["period"]?.stringValue ?? ""
            return (name.isEmpty ? "Forecast" : name, text)
        }
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
        // Alerts first: a closure for blasting matters more than the temperature.
        lines += Self.alerts(of: pass).map { "  " + style.yellow("⚠ " + $0) }
        var rows: [(String, String)] = []
        if let source = Self.closedBy(pass) { rows.append(("Closed by", style.red(source))) }
        var stale = false
        for restriction in pass["restrictions"]?.arrayValue ?? [] {
            let text = restriction["text"]?.stringValue ?? "—"
            let current = Self.isCurrent(restriction)
            stale = stale || !current
            rows.append((restriction["direction"]?.stringValue ?? "—", current ? text : "\(text) " + style.dim("(not current)")))
        }
        if stale { rows.append(("", style.yellow("WSDOT is not keeping this pass's restrictions current; check before you go"))) }
        if let conditions = pass["conditions"]?.stringValue { rows.append(("Conditions", conditions)) }
        if let weather = pass["weather"]?.stringValue { rows.append(("Weather", weather)) }
        // Rows of the page this module has no field for, as the card shows them: nothing read is dropped.
        for (label, value) in pass["extra"]?.objectValue ?? JSONObject() {
            if let text = value.stringValue { rows.append((label, text)) }
        }
        for period in Self.forecast(of: pass) { rows.append((period.label, period.text)) }
        var facts: [String] = []
        if let temperature = pass["temperatureF"]?.doubleValue { facts.append("\(JSONValue.double(temperature))°F") }
        if let elevation = pass["elevationFt"]?.doubleValue { facts.append("\(JSONValue.double(elevation)) ft") }
        if let updated = pass["updated"]?.dateValue {
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
