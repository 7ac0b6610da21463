import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// A `/gridpoints/{wfo}/{x},{y}` body read into `sky:{place}` hours: sky cover, chance of
/// precipitation, relative humidity (percent, 0–100) and visibility (metres) for each hour of
/// the 48 from the current one, in UTC. A grid starts hours in the past; those are left out.
///
/// `skyCover` is the point of the result: without it, or without one value of it in the 48
/// hours (a grid long expired), the body fails (`badResponse`). Another layer missing leaves
/// its member null in every hour, and an entry that cannot be read is skipped; both are said
/// in `notes`.
struct NWSSky: Sendable {
    /// Hours in a result.
    static let hours = 48
    /// Notes kept at most (a body of nothing but bad entries says how many more).
    static let maximumNotes = 8

    /// The layers read: each one's name in the body and in the result's hours.
    static let layers: [(name: String, key: String)] = [
        ("skyCover", "skyCover"), ("probabilityOfPrecipitation", "precipChance"),
        ("relativeHumidity", "humidity"), ("visibility", "visibilityM"),
    ]

    /// `properties.updateTime`: when the forecaster last changed the grid.
    let updated: Date?
    /// `{time, skyCover, precipChance, humidity, visibilityM}` per hour.
    let hours: [JSONValue]
    /// What was left out and why.
    let notes: [String]

    /// Reads `body`, fetched from `url`, for the 48 hours from the one `now` is in.
    init(body: Data, url: URL, now: Date) throws(ConditionsError) {
        let shown = Redaction.redact(url)
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw ConditionsError.badResponse("\(shown): not JSON (\(ConditionsError.report(error).message))")
        }
        guard let properties = root["properties"], properties.objectValue != nil else {
            throw ConditionsError.badResponse("\(shown): no \"properties\" object")
        }
        updated = properties["updateTime"]?.dateValue
        let start = Self.hourStart(now)
        var notes: [String] = []
        var columns: [[Double?]] = []
        for (name, key) in Self.layers {
            let path = "properties.\(name)"
            let layer = properties[name]
            guard let scale = Self.scale(layer?["uom"]?.stringValue, key: key) else {
                notes.append("\(path): unit \"\((layer?["uom"]?.stringValue ?? "").oneLine(limit: 40))\" is not one this reads; \(key) is null")
                columns.append(Array(repeating: nil, count: Self.hours))
                continue
            }
            guard let read = GridLayer(layer, path: path, scale: scale) else {
                if name == "skyCover" { throw ConditionsError.badResponse("\(shown): \(path) is missing or has no values array") }
                notes.append("\(path) is missing; \(key) is null")
                columns.append(Array(repeating: nil, count: Self.hours))
                continue
            }
            notes += read.notes
            columns.append(read.hourly(from: start, count: Self.hours))
        }
        guard columns[0].contains(where: { $0 != nil }) else {
            let from = Timestamp.string(from: Date(timeIntervalSince1970: Double(start)))
            throw ConditionsError.badResponse("\(shown): properties.skyCover has no value in the \(Self.hours) hours from \(from)"
                + (updated.map { " (the grid was updated \(Timestamp.string(from: $0)))" } ?? ""))
        }
        hours = (0..<Self.hours).map { hour in
            var entry = JSONObject([("time", JSONValue(Date(timeIntervalSince1970: Double(start + hour * 3600))))])
            for (column, (_, key)) in zip(columns, Self.layers) {
                entry[key] = Self.whole(column[hour], key: key)
            }
            return .object(entry)
        }
        if notes.count > Self.maximumNotes {
            let more = notes.count - Self.maximumNotes + 1
            notes = Array(notes.prefix(Self.maximumNotes - 1)) + ["and \(more) more entries skipped"]
        }
        self.notes = notes
    }

    /// The start of the UTC hour `date` is in, in seconds since 1970.
    static func hourStart(_ date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 3600).rounded(.down)) * 3600
    }

    /// The factor from a layer's unit to the result's (percent, metres); nil for a unit that
    /// cannot be the layer's. No unit at all is taken as the documented one.
    static func scale(_ uom: String?, key: String) -> Double? {
        let unit = uom?.split(separator: ":").last.map(String.init)
        if key == "visibilityM" {
            switch unit {
            case nil, "m": return 1
            case "km": return 1000
            case "ft": return 0.3048
            case "mi"?, "[mi_i]"?: return 1609.344
            default: return nil
            }
        }
        return unit == nil || unit == "percent" ? 1 : nil
    }

    /// A value as result data: percentages whole and within 0…100, metres whole and not negative.
    static func whole(_ value: Double?, key: String) -> JSONValue {
        guard let value else { return .null }
        let bounded = key == "visibilityM" ? max(0, value) : min(100, max(0, value))
        return .int(Int(bounded.rounded()))
    }
}
