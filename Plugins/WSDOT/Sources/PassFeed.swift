import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import ConditionsPass

/// Reads WSDOT's two publications of every pass at once: the Traveler Information API
/// (`GetMountainPassConditionsAsJson`, a bare array) and the key-less mobile feed
/// (`MountainPassConditions.json`, the same entries under
/// `GetMountainPassConditionsResult.PassCondition`, with cameras, forecast and alerts added).
///
/// Entries are matched by `MountainPassId`, never by name (WSDOT writes "US97" and "US 97").
/// Only the entries asked for are decoded in full, so one malformed entry does not break
/// every pass; errors name the field path (`[3].DateUpdated: ...`).
struct PassFeed: Sendable {
    /// Each entry by its `MountainPassId`, with its index for error paths.
    private let entries: [Int: (index: Int, object: JSONObject)]
    /// What error paths start with: `WSDOT feed ` (then `[3]`), or the mobile feed's URL and member.
    private let pathPrefix: String
    /// The feed in messages: `WSDOT feed`, or the mobile feed and its URL.
    private let name: String
    /// Whether `DateUpdated` may be local time parts (the mobile feed) as well as a string.
    private let acceptsLocalParts: Bool
    /// The zone of local time parts.
    private let timeZone: TimeZone

    /// Parses a Traveler API body; `secret` (the access code) is scrubbed from any upstream
    /// message quoted in an error.
    init(data: Data, secret: String? = nil) throws(ConditionsError) {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw ConditionsError.badResponse("WSDOT feed is not JSON: \(error)")
        }
        guard let array = document.arrayValue else {
            // The service answers a bad or missing access code with an object carrying a message.
            if let message = document["Message"]?.stringValue ?? document["message"]?.stringValue {
                var shown = message
                if let secret, !secret.isEmpty { shown = shown.replacingOccurrences(of: secret, with: Redaction.mask) }
                throw ConditionsError.upstream("WSDOT feed: \(Text.normalized(shown) ?? "(empty message)")")
            }
            throw ConditionsError.badResponse("WSDOT feed: expected an array of passes, found \(document.typeName)")
        }
        try self.init(elements: array, name: "WSDOT feed", pathPrefix: "WSDOT feed ", acceptsLocalParts: false, timeZone: .gmt)
    }

    /// Parses a mobile feed body fetched from `url` (shown in every error, so a user can open
    /// it and see what WSDOT changed); local time parts are read in `timeZone`.
    init(mobileData data: Data, url: String, timeZone: TimeZone) throws(ConditionsError) {
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw ConditionsError.badResponse("\(url): not WSDOT's pass feed: \(Self.describe(data)) (\(error))")
        }
        guard let result = document["GetMountainPassConditionsResult"] else {
            let found = document.objectValue.map { object in
                object.count == 0 ? "an empty object" : "an object with " + object.keys.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            } ?? document.typeName
            throw ConditionsError.badResponse("\(url): not WSDOT's pass feed: expected an object with \"GetMountainPassConditionsResult\", found \(found)")
        }
        guard let array = result["PassCondition"]?.arrayValue else {
            let found = result["PassCondition"].map(\.typeName) ?? "nothing"
            throw ConditionsError.badResponse("\(url): not WSDOT's pass feed: GetMountainPassConditionsResult.PassCondition: expected an array of passes, found \(found)")
        }
        try self.init(elements: array, name: "WSDOT's mobile feed \(url)", pathPrefix: "\(url): PassCondition", acceptsLocalParts: true, timeZone: timeZone)
    }

    private init(elements: [JSONValue], name: String, pathPrefix: String, acceptsLocalParts: Bool, timeZone: TimeZone) throws(ConditionsError) {
        var entries: [Int: (index: Int, object: JSONObject)] = [:]
        for (index, element) in elements.enumerated() {
            let path = "\(pathPrefix)[\(index)]"
            guard let object = element.objectValue else {
                throw ConditionsError.badResponse("\(path): expected an object, found \(element.typeName)")
            }
            guard let idValue = object["MountainPassId"] else {
                throw ConditionsError.badResponse("\(path).MountainPassId: missing")
            }
            guard let id = idValue.intValue else {
                throw ConditionsError.badResponse("\(path).MountainPassId: expected a whole number, found \(idValue.typeName)")
            }
            if entries[id] == nil { entries[id] = (index, object) }
        }
        self.entries = entries
        self.name = name
        self.pathPrefix = pathPrefix
        self.acceptsLocalParts = acceptsLocalParts
        self.timeZone = timeZone
    }

    /// What a body that is not JSON looks like, for the error: a web page, an empty body, or
    /// the start of it (cut where it stopped being JSON, say).
    private static func describe(_ data: Data) -> String {
        let text = String(decoding: data.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return "the body is empty" }
        let lower = text.lowercased()
        if lower.hasPrefix("<!doctype html") || lower.hasPrefix("<html") || lower.hasPrefix("<") { return "the body is HTML, not JSON" }
        return "the body is not JSON"
    }

    /// The ids present, for messages about absent passes.
    var ids: [Int] { entries.keys.sorted() }

    /// Every pass in the feed, in id order: the catalog's pass for a known id, else one made
    /// from the entry (`PassCatalog.feedPass`) with the feed's name, elevation and directions.
    /// A made-up slug that a catalogued pass already uses gets the id appended.
    var passes: [MountainPass] {
        var passes: [MountainPass] = []
        for id in ids {
            if let known = PassCatalog.pass(id: id) {
                passes.append(known)
                continue
            }
            guard let object = entries[id]?.object else { continue }
            let name = object["MountainPassName"]?.stringValue ?? ""
            let elevation = object["ElevationInFeet"]?.doubleValue.flatMap { $0.isFinite && abs($0) < 1e6 ? Int($0.rounded()) : nil }
            func direction(_ key: String) -> String? {
                Text.normalized(object[key]?["TravelDirection"]?.stringValue)
            }
            let directions = direction("RestrictionOne").map { first in (first: first, second: direction("RestrictionTwo") ?? "") }
            var pass = PassCatalog.feedPass(id: id, name: name, elevationFt: elevation, directions: directions)
            if passes.contains(pass) || PassCatalog.all.contains(pass) {
                pass = MountainPass(slug: "\(pass.slug)-\(id)", id: id, name: pass.name, elevationFt: pass.elevationFt, directions: pass.directions, isCatalogued: false)
            }
            passes.append(pass)
        }
        return passes
    }

    /// The report for `pass`, whose public page is `url`; a `badResponse` error when the feed
    /// lacks the pass or its entry is malformed.
    func report(for pass: MountainPass, url: URL) throws(ConditionsError) -> PassReport {
        guard let (index, object) = entries[pass.id] else {
            throw ConditionsError.badResponse("\(name) has no entry with MountainPassId \(pass.id) (\(pass.slug))")
        }
        let reader = EntryReader(object: object, path: "\(pathPrefix)[\(index)]")
        let updated = try acceptsLocalParts ? reader.localTime("DateUpdated", timeZone: timeZone) : reader.wcfDate("DateUpdated")
        let conditions = try reader.string("RoadCondition", required: true)
        let weather = try reader.string("WeatherCondition", required: false)
        let temperature = try reader.number("TemperatureInFahrenheit")
        let elevation = try reader.number("ElevationInFeet")
        let advisory = try reader.bool("TravelAdvisoryActive")
        let one = try reader.restriction("RestrictionOne", defaultDirection: pass.directions.first)
        let two = try reader.restriction("RestrictionTwo", defaultDirection: pass.directions.second)

        return PassReport(
            pass: pass,
            conditions: Text.normalized(conditions),
            weather: Text.normalized(weather),
            temperatureF: temperature,
            elevationFt: elevation.flatMap { Int(exactly: $0.rounded()) } ?? pass.elevationFt,
            restrictions: [one, two].compactMap { $0 },
            updated: updated,
            url: url,
            travelAdvisory: advisory,
            cameras: PassExtras.cameras(object["Cameras"]),
            forecast: PassExtras.forecast(object["Forecast"]),
            alerts: PassExtras.alerts(object["Alerts"], timeZone: timeZone)
        )
    }
}

/// Typed access to one feed entry's members, with errors naming the member's path.
private struct EntryReader {
    let object: JSONObject
    let path: String

    func error(_ key: String, _ problem: String) -> ConditionsError {
        ConditionsError.badResponse("\(path).\(key): \(problem)")
    }

    /// A string or null; a `required` member must be present (null allowed), so a renamed
    /// field is an error instead of a silently empty report.
    func string(_ key: String, required: Bool) throws(ConditionsError) -> String? {
        guard let value = object[key] else {
            if required { throw error(key, "missing") }
            return nil
        }
        if value.isNull { return nil }
        guard let string = value.stringValue else { throw error(key, "expected a string or null, found \(value.typeName)") }
        return string
    }

    /// A WCF date string (`/Date(1765784463873-0800)/`) or null; required.
    func wcfDate(_ key: String) throws(ConditionsError) -> Date? {
        guard let text = try string(key, required: true) else { return nil }
        guard let date = FeedDate.wcf(text) else {
            throw error(key, "expected a date like \"/Date(1765784463873-0800)/\", found \"\(text)\"")
        }
        return date
    }

    /// Local time parts in `timeZone` (`[2025, 11, 3, 11, 30, 43, 853, 0, 0]`), a WCF date
    /// string, ISO 8601 text or null; required.
    func localTime(_ key: String, timeZone: TimeZone) throws(ConditionsError) -> Date? {
        guard let value = object[key] else { throw error(key, "missing") }
        if value.isNull { return nil }
        guard let date = FeedDate.instant(value, timeZone: timeZone) else {
            let shown = value.stringValue.map { "\"\($0.prefix(80))\"" } ?? value.serialized().prefix(80).description
            throw error(key, "expected local time parts like [2025, 11, 3, 11, 30, 43, 853, 0, 0] or a date like \"/Date(1765784463873-0800)/\", found \(shown)")
        }
        return date
    }

    func number(_ key: String) throws(ConditionsError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw error(key, "expected a number or null, found \(value.typeName)") }
        return number
    }

    func bool(_ key: String) throws(ConditionsError) -> Bool? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let bool = value.boolValue else { throw error(key, "expected true, false or null, found \(value.typeName)") }
        return bool
    }

    /// `{TravelDirection, RestrictionText}` or null; nil when there is no text.
    func restriction(_ key: String, defaultDirection: String) throws(ConditionsError) -> Restriction? {
        guard let value = object[key] else { throw error(key, "missing") }
        if value.isNull { return nil }
        guard let nested = value.objectValue else { throw error(key, "expected an object or null, found \(value.typeName)") }
        let inner = EntryReader(object: nested, path: "\(path).\(key)")
        guard let text = Text.normalized(try inner.string("RestrictionText", required: false)) else { return nil }
        let direction = Text.normalized(try inner.string("TravelDirection", required: false)) ?? defaultDirection
        return Restriction(direction: direction, text: text)
    }
}
