import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

extension ResultKind {
    /// `pass:{name}` data (one pass) and `pass:all` data (`{"passes": [...]}`): one kind for
    /// both and for every state's passes, so a recording replayed under the `pass` scheme reads
    /// as the live answer and Washington's and California's passes read alike.
    public static let pass: ResultKind = "pass"
}

/// How `pass` results read, for every module that answers the kind (WSDOT, Caltrans): the
/// pass's name and status, alerts, why it is closed, a row per direction's restriction (marked
/// "not current" when the publisher does not vouch for it; a chain-control level's wording
/// when it has one), its checkpoints, conditions, weather, the page's other rows (`extra`),
/// the first two forecast periods, and temperature · elevation · age of the report. `watch`
/// compares the status, the restriction texts and the alerts (for `pass:all`, every pass's
/// status); the temperature, the forecast and the "updated" time changing is not news.
///
/// The data contract (README of the WSDOT and Caltrans modules): `id`, `name`, `status`
/// (`PassStatus`), `closedBy` and `closedByText` when closed, `conditions`, `weather`,
/// `temperatureF`, `elevationFt`, `restrictions` (`direction`, `text`, `status`, `current`
/// false when not vouched for, `level` a chain-control level `R-0`…`R-3`), `updated`,
/// `reportAge`, `url`, `travelAdvisory`, and where the publisher has them `cameras`,
/// `forecast`, `alerts`, `extra`; and, added for publishers other than the first: `source`
/// (whose report, "Caltrans"), `latitude` and `longitude` (the summit), `staleAfter` (seconds
/// after which the report is old; a day when absent), `checkpoints` (`name`, `direction`,
/// `level`, `status`, `text`, `since`, `inService`), `unknownBecause` (why the status is
/// `unknown`) and `verified` (whether a real file confirmed the pass's checkpoints).
public struct PassPresentation: ResultPresentation {
    public let kind: ResultKind = .pass
    /// The map the module that lists this presentation adds: each pass is drawn on the layer
    /// whose frame holds it.
    public let map: MapLayer?
    /// A pass's status changes at any hour, so its card shows the last 48 hours of them.
    public let showsHistory = true
    /// Whose report data without `source` is ("WSDOT").
    let publisher: String
    /// Summits by pass id, for data that does not carry its own `latitude` and `longitude`.
    let places: [String: GeoPoint]

    /// The pass kind as `publisher` reports it, its passes on `map`, found by `places` when
    /// the data does not say where they are.
    public init(publisher: String, map: MapLayer?, places: [String: GeoPoint] = [:]) {
        self.publisher = publisher
        self.map = map
        self.places = places
    }

    public func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        if let passes = data["passes"]?.arrayValue, passes.allSatisfy(Self.isPass) {
            return [context.style.bold(context.urn)] + passes.flatMap { renderPass($0, context: context) }
        }
        guard Self.isPass(data) else { return GenericPresentation().render(data, context: context) }
        return renderPass(data, context: context)
    }

    public func changeKey(_ data: JSONValue) -> ChangeKey {
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

    /// A pass's card: its name, status (word and tone), a row per direction's restriction, its
    /// checkpoints, conditions, weather, temperature, elevation, the report's time (with a stale
    /// note when it is older than its `staleAfter`), the publisher's page and the pass's summit
    /// (the data's, else `places`'). `pass:all` is a card holding one such card per pass.
    public func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
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
        if let reason = pass["unknownBecause"]?.stringValue { rows.append(.init("Unknown because", reason, tone: .neutral)) }
        for checkpoint in Self.checkpoints(of: pass, context: context) { rows.append(.init("Checkpoint", checkpoint)) }
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
        let source = pass["source"]?.stringValue ?? publisher
        let link = pass["url"]?.stringValue.flatMap { URL(string: $0) }.map { ResultCard.Link(url: $0, label: "\(source)'s page for \(name)") }
        let coordinate = Self.summit(of: pass) ?? pass["id"]?.stringValue.flatMap { places[$0] }
        let camera = (pass["cameras"]?.arrayValue ?? []).lazy.compactMap { camera -> ResultCard.Image? in
            guard let url = camera["imageURL"]?.stringValue.flatMap({ URL(string: $0) }), url.scheme?.lowercased() == "https" else { return nil }
            return ResultCard.Image(url: url, alt: camera["title"]?.stringValue ?? "Camera at \(name)")
        }.first
        var card = ResultCard(title: name, status: .init(status, tone: Self.tone(status)), image: camera, rows: rows, updated: updated,
                              staleNote: staleNote, link: link, coordinate: coordinate.map { .init(latitude: $0.latitude, longitude: $0.longitude) })
        card.mapLabel = Self.shortName(name)
        return card
    }

    /// The summit the data gives (`latitude`, `longitude`), if any.
    static func summit(of pass: JSONValue) -> GeoPoint? {
        guard let latitude = pass["latitude"]?.doubleValue, let longitude = pass["longitude"]?.doubleValue,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Each checkpoint as one line: `RAYMOND MEADOWS - EBBETTS PASS, westbound: R-0 since Tue May
    /// 5 13:01 PDT` (and "out of service" when it says so).
    static func checkpoints(of pass: JSONValue, context: PresentationContext) -> [String] {
        (pass["checkpoints"]?.arrayValue ?? []).compactMap { checkpoint in
            guard let name = checkpoint["name"]?.stringValue else { return nil }
            var line = name
            if let direction = checkpoint["direction"]?.stringValue { line += ", \(direction.lowercased())" }
            line += ": " + (checkpoint["level"]?.stringValue ?? checkpoint["status"]?.stringValue ?? "not reported")
            if let since = checkpoint["since"]?.dateValue { line += " since \(context.localTime(since, .dateTime))" }
            if checkpoint["inService"]?.boolValue == false { line += " (out of service)" }
            return line
        }
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
        let names = ["restrictions": "the restriction texts", "conditions": "the road condition",
                     "checkpoints": "a checkpoint's status", "laneClosures": "a full closure of all lanes"]
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

    /// The tone a card shows `status` in: open good, restricted caution, closed bad.
    public static func tone(_ status: String) -> ResultCard.Tone {
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
        if stale { rows.append(("", style.yellow("\(pass["source"]?.stringValue ?? publisher) is not keeping this pass's restrictions current; check before you go"))) }
        if let reason = pass["unknownBecause"]?.stringValue { rows.append(("Unknown because", style.yellow(reason))) }
        for checkpoint in Self.checkpoints(of: pass, context: context) { rows.append(("Checkpoint", checkpoint)) }
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

    /// `report from Sun Apr 13 2025, 7 months old` for a report older than its `staleAfter`
    /// (a day when the data does not say; Caltrans's files, rewritten every minute, say an
    /// hour), else nil: off-season passes keep months-old reports, a portal keeps serving a
    /// file it stopped writing, and showing either like fresh news misleads.
    static func staleNote(_ pass: JSONValue, updated: Date, context: PresentationContext) -> String? {
        let limit = pass["staleAfter"]?.doubleValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 86_400
        guard let age = pass["reportAge"]?.doubleValue, age > limit else { return nil }
        let when = age < 86_400 ? context.localTime(updated, .dateTime) : context.localTime(updated, .date)
        return "report from \(when), \(staleness(age)) old"
    }

    /// "3 hours", "2 days", "3 weeks", "7 months", "2 years": how old a stale report is, roughly.
    static func staleness(_ seconds: Double) -> String {
        let days = Int(seconds / 86_400)
        func counted(_ n: Int, _ unit: String) -> String { "\(n) \(unit)\(n == 1 ? "" : "s")" }
        if days < 1 { return seconds < 7_200 ? counted(max(1, Int(seconds / 60)), "minute") : counted(Int(seconds / 3_600), "hour") }
        if days < 14 { return counted(days, "day") }
        if days < 61 { return counted(days / 7, "week") }
        if days < 365 { return counted(Int((Double(days) / 30.44).rounded(.down)), "month") }
        return counted(days / 365, "year")
    }
}
