import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import ConditionsPass

/// One direction's restriction, as reported.
struct Restriction: Sendable, Equatable {
    /// The direction's name as the data gives it (Eastbound, Northbound, ...).
    let direction: String
    /// The restriction text, whitespace normalized.
    let text: String

    /// The direction's status from its text alone.
    var status: PassStatus { PassStatus(restriction: text) }

    /// `current`: whether WSDOT vouches for the text now (see `PassReport.restrictionsCurrent`);
    /// only a text it does not vouch for is marked (`"current": false`). `status`: the
    /// direction's, which a closure in the road condition may have made closed.
    func json(current: Bool, status: PassStatus) -> JSONValue {
        var object = JSONObject([("direction", .string(direction)), ("text", .string(text)), ("status", .string(status.rawValue))])
        if !current { object["current"] = false }
        return .object(object)
    }
}

/// Everything reported about one pass: the result `data` of `pass:{name}`.
struct PassReport: Sendable, Equatable {
    let pass: MountainPass
    var conditions: String?
    var weather: String?
    var temperatureF: Double?
    var elevationFt: Int?
    /// Only directions that carry text; a direction without data is left out.
    var restrictions: [Restriction]
    var updated: Date?
    var url: URL
    /// The feed's `TravelAdvisoryActive`; pages do not say, so nil in HTML mode. False means
    /// WSDOT is not keeping the restriction texts current (its apps hide them then).
    var travelAdvisory: Bool?
    /// The mobile feed's cameras, forecast periods and alerts; nil where the publication has
    /// none of that kind of data (pages, the Traveler API) or the feed left the member out.
    var cameras: [PassCamera]?
    var forecast: [ForecastPeriod]?
    var alerts: [PassAlert]?
    /// The instant the report is read at (the context's now), for `reportAge`.
    var readAt: Date?
    /// Rows of the page with a label this module does not know (`data.extra`), in page order.
    var extra: [ExtraRow] = []

    /// One unknown labelled row of a page.
    struct ExtraRow: Sendable, Equatable {
        let label: String
        let value: String
    }

    /// Whole seconds between `updated` and `readAt`: off-season passes keep reports for months,
    /// and a consumer should not have to do date arithmetic to notice.
    var reportAge: Int? {
        guard let updated, let readAt else { return nil }
        let age = readAt.timeIntervalSince(updated).rounded()
        guard age.isFinite, abs(age) < 1e15 else { return nil }
        return Int(age)
    }

    /// Whether the restriction texts are WSDOT's current word: not when its travel advisory
    /// is off for the pass, when the texts may be left over from an earlier report.
    var restrictionsCurrent: Bool { travelAdvisory != false }

    /// The pass's status, each direction's, the fields a closure was read in and its words.
    struct Reading: Equatable {
        var status: PassStatus
        /// In the order of `restrictions`.
        var directions: [PassStatus]
        /// The data contract's names of the fields that say closed: "restrictions",
        /// "conditions"; empty unless closed.
        var closedBy: [String]
        /// The sentences that said closed, restrictions first, each once; empty unless closed.
        var closedByText: [String] = []
    }

    /// Every field read by one rule, safety first (`RoadClosure`, the WSDOT module's README):
    /// - a restriction text or the road condition saying the pass, road or highway is closed
    ///   makes it closed, in the directions it names (a restriction naming none: its own
    ///   direction; the road condition naming none: every direction), whatever
    ///   `TravelAdvisoryActive` says;
    /// - otherwise, with the travel advisory off, unknown: a leftover "No restrictions" is no
    ///   evidence the road is open;
    /// - otherwise each direction's restriction text decides.
    var reading: Reading {
        let names = restrictions.map(\.direction)
        // A restriction's closure covers the directions it names ("Pass closed to westbound
        // traffic", written in the eastbound row too), or its own row's when it names none.
        let restrictionClosures: [(closure: RoadClosure, row: String)] = restrictions.compactMap { restriction in
            RoadClosure(in: restriction.text, isRestriction: true).map { ($0, restriction.direction) }
        }
        let roadClosure = conditions.flatMap { RoadClosure(in: $0, isRestriction: false) }
        let directions = restrictions.map { restriction -> PassStatus in
            let closedByRestriction = restrictionClosures.contains { closure, row in
                closure.covers(restriction.direction, inRestrictionOf: row, of: names)
            }
            if closedByRestriction || roadClosure?.covers(restriction.direction, of: names) == true { return .closed }
            return restriction.status == .closed ? .restricted : restriction.status
        }
        var closedBy: [String] = []
        var words: [String] = []
        if !restrictionClosures.isEmpty { closedBy.append("restrictions") }
        if roadClosure != nil { closedBy.append("conditions") }
        for sentence in restrictionClosures.flatMap(\.closure.sentences) + (roadClosure?.sentences ?? []) where !words.contains(sentence) {
            words.append(sentence)
        }
        if !closedBy.isEmpty { return Reading(status: .closed, directions: directions, closedBy: closedBy, closedByText: words) }
        return Reading(status: restrictionsCurrent ? PassStatus(directions: directions) : .unknown, directions: directions, closedBy: [])
    }

    var status: PassStatus { reading.status }

    /// The data contract, keys in their documented order.
    var json: JSONValue {
        let reading = reading
        var object = JSONObject()
        object["id"] = .string(pass.slug)
        object["name"] = .string(pass.name)
        object["status"] = .string(reading.status.rawValue)
        if !reading.closedBy.isEmpty {
            object["closedBy"] = .array(reading.closedBy.map(JSONValue.string))
            object["closedByText"] = .array(reading.closedByText.map(JSONValue.string))
        }
        object["conditions"] = JSONValue(conditions)
        object["weather"] = JSONValue(weather)
        object["temperatureF"] = temperatureF.map(Self.number) ?? .null
        object["elevationFt"] = JSONValue(elevationFt)
        object["restrictions"] = .array(zip(restrictions, reading.directions).map { $0.json(current: restrictionsCurrent, status: $1) })
        object["updated"] = JSONValue(updated)
        object["reportAge"] = JSONValue(reportAge)
        object["url"] = .string(Redaction.redact(url))
        object["travelAdvisory"] = travelAdvisory.map(JSONValue.bool) ?? .null
        if let cameras { object["cameras"] = .array(cameras.map(\.json)) }
        if let forecast { object["forecast"] = .array(forecast.map(\.json)) }
        if let alerts { object["alerts"] = .array(alerts.map(\.json)) }
        if !extra.isEmpty {
            var rows = JSONObject()
            for row in extra { rows[row.label] = .string(row.value) }
            object["extra"] = .object(rows)
        }
        return .object(object)
    }

    /// Whole degrees print as integers (`28`, not `28.0`).
    private static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value.rounded() == value, abs(value) < 1e9 { return .int(Int(value)) }
        return .double(value)
    }
}

/// Text cleanup shared by both modes.
enum Text {
    /// `text` with every run of whitespace (non-breaking and zero-width spaces included) as one
    /// space, trimmed; nil when nothing is left. Data keeps other characters as WSDOT sent
    /// them (a control character too: text output escapes it, JSON keeps it), which is why
    /// this is not `String.oneLine`, the cleaner of text quoted in messages.
    static func normalized(_ text: String?) -> String? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{00A0}" || $0 == "\u{200B}" })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The first number in `text` ("28°F" → 28, "-4 °F" → -4, "3,022 ft." → 3022); nil when none.
    /// Scanned by hand, not with a Regex literal, which is compiled again on every call.
    static func firstNumber(in text: String?) -> Double? {
        guard let text else { return nil }
        let cleaned = Array(text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "\u{2212}", with: "-"))
        // A character Unicode calls numeric counts as a digit, as `\d` did; `Double` then rejects all but ASCII.
        func isDigit(_ index: Int) -> Bool {
            guard index < cleaned.count else { return false }
            return cleaned[index].isNumber
        }
        for start in cleaned.indices {
            var index = start
            if cleaned[index] == "-" || cleaned[index] == "+" { index += 1 }
            guard isDigit(index) else { continue }
            while isDigit(index) { index += 1 }
            if index < cleaned.count, cleaned[index] == ".", isDigit(index + 1) {
                index += 1
                while isDigit(index) { index += 1 }
            }
            return Double(String(cleaned[start..<index]))
        }
        return nil
    }
}
