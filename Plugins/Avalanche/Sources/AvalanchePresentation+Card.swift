import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// The dashboard's card of an `avalanche` result.
///
/// A zone: its name and center, the day's rating as the status (a warning in effect instead,
/// in the bad tone), the danger by band today and tomorrow as a `DangerChart` drawing in the North
/// American scale's colours with each level written out, then rows: the warning first, the
/// travel advice, each problem (likelihood, size, elevations, aspects), the bottom line, the
/// forecaster and the expiry. Off-season, "no rating" and "no forecast" are neutral statuses;
/// an expired forecast is marked (`staleNote`). The link is the center's page; the coordinate
/// the place the URN named, when it named one.
///
/// `avalanche:all`: the center's highest rating today as the status, and a part per zone with
/// its status, bands, warning and link.
extension AvalanchePresentation {
    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        if let zones = data["zones"]?.arrayValue { return Self.allCard(data, zones: zones, context: context) }
        guard data["zone"]?["name"]?.stringValue != nil, data["status"]?.stringValue != nil else {
            return GenericPresentation().card(data, context: context)
        }
        return Self.zoneCard(data, context: context, compact: false)
    }

    /// One zone's card; `compact` (a part of `avalanche:all`) leaves out the advice, the
    /// problems, the bottom line and the byline.
    static func zoneCard(_ data: JSONValue, context: PresentationContext, compact: Bool) -> ResultCard {
        let zone = data["zone"]?["name"]?.stringValue ?? "Zone"
        let status = data["status"]?.stringValue ?? ZoneStatus.noRating.rawValue
        let center = data["center"]?.stringValue
        let warning = hasWarning(data)
        let day = data["day"]?.stringValue == ForecastDay.tomorrow.rawValue ? ForecastDay.tomorrow : .today

        var subtitle: String?
        if !compact {
            var words = [center.map { "\($0) avalanche forecast" } ?? "Avalanche forecast"]
            if let place = data["place"]?["name"]?.stringValue, place != zone { words.append("for \(place)") }
            if day == .tomorrow { words.append("(tomorrow)") }
            subtitle = words.joined(separator: " ")
        }
        var card = ResultCard(title: zone, subtitle: subtitle)
        card.status = warning ? ResultCard.Status("avalanche warning", tone: .bad) : Self.status(status, rating: data["rating"])

        if warning { card.rows.append(.init("Warning", warningText(data["warning"]), tone: .bad)) }
        if status == ZoneStatus.forecast.rawValue || status == ZoneStatus.noRating.rawValue {
            card.figure = dangerChart(data["danger"])?.drawing
            // With a warning as the status, the day's rating still leads the facts.
            if warning, let rating = ratingText(data["rating"]) { card.rows.append(.init("Danger \(day.rawValue)", rating)) }
            if !compact {
                if let advice = data["rating"]?["advice"]?.stringValue { card.rows.append(.init("Travel advice", advice)) }
                for problem in data["problems"]?.arrayValue ?? [] {
                    card.rows.append(.init(problem["name"]?.stringValue ?? "Problem", problemDetails(problem)))
                }
                if let bottomLine = prose(data["bottomLine"]) { card.rows.append(.init("Bottom line", bottomLine)) }
            }
        }
        if !compact {
            if let summary = prose(data["summary"]) { card.rows.append(.init("Summary", summary)) }
            if let forecaster = data["forecaster"]?.stringValue { card.rows.append(.init("Forecaster", forecaster)) }
        }
        card.updated = data["published"]?.dateValue
        if status != ZoneStatus.offSeason.rawValue, let expires = data["expires"]?.dateValue {
            let when = context.localTime(expires, .dateTime)
            if data["expired"]?.boolValue == true {
                card.staleNote = "forecast expired \(when)"
            } else if !compact {
                card.rows.append(.init("Expires", when))
            }
        }
        if let text = data["url"]?.stringValue, let url = URL(string: text) {
            card.link = .init(url: url, label: center.map { "\($0)'s forecast for \(zone)" } ?? "The forecast for \(zone)")
        }
        if let latitude = data["place"]?["latitude"]?.doubleValue, let longitude = data["place"]?["longitude"]?.doubleValue,
           latitude.isFinite, longitude.isFinite {
            card.coordinate = .init(latitude: latitude, longitude: longitude)
        }
        return card
    }

    /// `avalanche:all`: the center's highest rating today (or a warning) and a part per zone.
    static func allCard(_ data: JSONValue, zones: [JSONValue], context: PresentationContext) -> ResultCard {
        let center = data["center"]?.stringValue
        let parts = zones.map { zone -> ResultCard in
            guard zone["zone"]?["name"]?.stringValue != nil else { return ResultCard(title: "Zone", status: .init("unreadable", tone: .neutral)) }
            return zoneCard(zone, context: context, compact: true)
        }
        let warnings = zones.filter(hasWarning).count
        let highest = zones.filter { $0["status"]?.stringValue == ZoneStatus.forecast.rawValue }
            .compactMap { $0["rating"]?["level"]?.intValue }.filter { DangerScale.isRated($0) }.max()
        let status: ResultCard.Status
        if warnings > 0 {
            status = .init(warnings == 1 ? "1 avalanche warning" : "\(warnings) avalanche warnings", tone: .bad)
        } else if let highest {
            status = Self.status(ZoneStatus.forecast.rawValue, rating: DangerScale.json(highest))
        } else if !zones.isEmpty, zones.allSatisfy({ $0["status"]?.stringValue == ZoneStatus.offSeason.rawValue }) {
            status = .init(ZoneStatus.offSeason.rawValue, tone: .neutral)
        } else {
            status = .init(ZoneStatus.noRating.rawValue, tone: .neutral)
        }
        let title = center.map { "\($0) avalanche forecasts" } ?? "Avalanche forecasts"
        let subtitle = "\(zones.count) zone\(zones.count == 1 ? "" : "s") today"
        return ResultCard(title: title, subtitle: subtitle, status: status, parts: parts)
    }

    /// The status of a zone without a warning: its rating as `3 Considerable` (Low good,
    /// Moderate and Considerable caution, High and Extreme bad), else its status, neutral.
    static func status(_ status: String, rating: JSONValue?) -> ResultCard.Status {
        guard status == ZoneStatus.forecast.rawValue, let level = rating?["level"]?.intValue, DangerScale.isRated(level) else {
            return .init(status, tone: .neutral)
        }
        let tone: ResultCard.Tone = level >= 4 ? .bad : level >= 2 ? .caution : .good
        return .init("\(level) \(DangerScale.levels[level - 1].name)", tone: tone)
    }

    /// `3 Considerable`, `No rating`; nil without a rating.
    static func ratingText(_ rating: JSONValue?) -> String? {
        guard let rating, rating.objectValue != nil else { return nil }
        guard let level = rating["level"]?.intValue, DangerScale.isRated(level) else { return DangerScale.noRating }
        return "\(level) \(DangerScale.levels[level - 1].name)"
    }

    /// The danger by band today and tomorrow, in the scale's colours; nil when neither day has bands.
    static func dangerChart(_ danger: JSONValue?) -> DangerChart? {
        let groups = [("Today", ForecastDay.today), ("Tomorrow", ForecastDay.tomorrow)].compactMap { caption, day -> DangerChart.Group? in
            guard let bands = danger?[day.rawValue], bands.objectValue != nil else { return nil }
            return DangerChart.Group(caption: caption, bands: [("above", "Above treeline"), ("near", "Near treeline"), ("below", "Below treeline")].map { key, label in
                guard let level = bands[key]?["level"]?.intValue, DangerScale.isRated(level) else {
                    return DangerChart.Band(label: label, value: DangerScale.noRating, fill: DangerScale.noRatingFill)
                }
                return DangerChart.Band(label: label, value: "\(level) \(DangerScale.levels[level - 1].name)", fill: DangerScale.fills[level - 1])
            })
        }
        return groups.isEmpty ? nil : DangerChart(title: "Avalanche danger by elevation", groups: groups)
    }

    /// Whether a warning is in effect: `warning` present and not null.
    static func hasWarning(_ zone: JSONValue) -> Bool {
        zone["warning"].map { !$0.isNull } ?? false
    }

    /// The warning's words when it is text, else that one is in effect (its shape when one is
    /// has not been captured).
    static func warningText(_ warning: JSONValue?) -> String {
        let text = warning?.stringValue ?? warning?["title"]?.stringValue ?? warning?["bottom_line"]?.stringValue
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return "Avalanche warning in effect" }
        return text
    }

    /// Blank-line-separated paragraphs as one text; nil when empty.
    static func prose(_ text: JSONValue?) -> String? {
        let paragraphs = (text?.stringValue ?? "").components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return paragraphs.isEmpty ? nil : paragraphs.joined(separator: " ")
    }
}
