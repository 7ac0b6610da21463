import ConditionsKit
import Foundation

/// Reads WSDOT's Traveler Information feed (`GetMountainPassConditionsAsJson`): one array
/// holding every monitored pass.
///
/// Entries are matched by `MountainPassId`, never by name (WSDOT writes "US97" and "US 97").
/// Only the entries asked for are decoded in full, so one malformed entry does not break
/// every pass; errors name the field path (`[3].DateUpdated: ...`).
struct PassFeed: Sendable {
    /// Each entry by its `MountainPassId`, with its index for error paths.
    private let entries: [Int: (index: Int, object: JSONObject)]

    /// Parses the body; `secret` (the access code) is scrubbed from any upstream message quoted in an error.
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
        var entries: [Int: (index: Int, object: JSONObject)] = [:]
        for (index, element) in array.enumerated() {
            guard let object = element.objectValue else {
                throw ConditionsError.badResponse("WSDOT feed [\(index)]: expected an object, found \(element.typeName)")
            }
            guard let idValue = object["MountainPassId"] else {
                throw ConditionsError.badResponse("WSDOT feed [\(index)].MountainPassId: missing")
            }
            guard let id = idValue.intValue else {
                throw ConditionsError.badResponse("WSDOT feed [\(index)].MountainPassId: expected a whole number, found \(idValue.typeName)")
            }
            if entries[id] == nil { entries[id] = (index, object) }
        }
        self.entries = entries
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
            throw ConditionsError.badResponse("WSDOT feed has no entry with MountainPassId \(pass.id) (\(pass.slug))")
        }
        let reader = EntryReader(object: object, path: "WSDOT feed [\(index)]")
        let updatedText = try reader.string("DateUpdated", required: true)
        var updated: Date?
        if let updatedText {
            guard let date = Self.date(fromWCF: updatedText) else {
                throw reader.error("DateUpdated", "expected a date like \"/Date(1765784463873-0800)/\", found \"\(updatedText)\"")
            }
            updated = date
        }
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
            travelAdvisory: advisory
        )
    }

    /// The instant of a WCF JSON date, `/Date(1765784463873-0800)/`: milliseconds since the
    /// Unix epoch in UTC, then an optional offset naming the publisher's zone, which does not
    /// shift the instant (so it is checked for form and otherwise ignored).
    /// Read by hand, not with a Regex literal, which is compiled again on every call (15 per feed).
    static func date(fromWCF text: String) -> Date? {
        var body = Substring(text)
        while let first = body.first, first.isWhitespace { body = body.dropFirst() }
        while let last = body.last, last.isWhitespace { body = body.dropLast() }
        if body.hasPrefix("\\") { body = body.dropFirst() }
        guard body.hasPrefix("/Date("), body.hasSuffix("/") else { return nil }
        body = body.dropFirst(6).dropLast()
        if body.hasSuffix("\\") { body = body.dropLast() }
        guard body.hasSuffix(")") else { return nil }
        let bytes = Array(body.dropLast().utf8)
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard (1...15).contains(index - digitsStart), let milliseconds = Int64(String(decoding: bytes[0..<index], as: UTF8.self)) else { return nil }
        if index < bytes.count {
            let offset = bytes[index...]
            guard offset.count == 5, offset.first == UInt8(ascii: "+") || offset.first == UInt8(ascii: "-"), offset.dropFirst().allSatisfy(isDigit) else { return nil }
            let digits = offset.dropFirst().map { Int($0 - UInt8(ascii: "0")) }
            guard digits[0] * 10 + digits[1] <= 14, digits[2] * 10 + digits[3] < 60 else { return nil }
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
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
