import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// One station's snowpack as result data: depth and SWE now, their change over 24 hours,
/// 72 hours and 7 days, air temperature, the reading's time, a day-by-day depth for 14 days,
/// and notes on what was skipped or could not be worked out.
struct SnowpackReport: Sendable {
    /// Days of daily depth (the text's sparkline, the card's chart); the data request asks
    /// this many days before today as well as today.
    static let days = 14
    /// A latest reading older than this (hours, by the report's `now`) is stale.
    static let staleHours = 6.0

    /// The change windows, in hours, with their data keys and labels.
    static let windows: [(key: String, hours: Int, label: String)] = [("24h", 24, "24 h"), ("72h", 72, "72 h"), ("7d", 168, "7 days")]

    enum Status: String {
        case current
        case stale
        case noData = "no data"
    }

    let json: JSONValue

    /// `place` is the place's data (with its distance) or null for a station asked by triplet.
    init(station: Station, readings all: StationReadings, place: JSONValue, now: Date) {
        var notes: [String] = []
        // Values after `now` (a report pinned to an earlier instant) are not yet read.
        let (readings, later) = all.until(now)
        if later > 0 { notes.append("left out \(Self.count(later, "value")) after the report's time") }
        // What was skipped: said, never read as zero.
        for element in Element.allCases {
            if let ordinal = readings.ordinals[element] {
                notes.append("\(element.rawValue) has more than one sensor: ordinal \(ordinal) read")
            }
            guard let skipped = readings.skipped[element] else { continue }
            if skipped.suspectCount > 0 {
                let flags = skipped.suspect.keys.sorted().joined(separator: ", ")
                notes.append("skipped \(Self.count(skipped.suspectCount, "suspect \(element.rawValue) value")) (qcFlag \(flags))")
            }
            if skipped.missing > 0 { notes.append("skipped \(Self.count(skipped.missing, "missing \(element.rawValue) value"))") }
            if skipped.unreadable > 0 { notes.append("skipped \(Self.count(skipped.unreadable, "\(element.rawValue) value")) with an unreadable date") }
        }

        let depth = readings.latest(.depth)
        let swe = readings.latest(.swe)
        let temperature = readings.latest(.airTemperature)
        let readingTime = [depth?.time, swe?.time].compactMap { $0 }.max() ?? temperature?.time
        var object = JSONObject()
        object["station"] = station.resultJSON
        object["place"] = place
        guard let readingTime else {
            object["status"] = .string(Status.noData.rawValue)
            object["reading"] = .null
            object["depthIn"] = .null
            object["sweIn"] = .null
            object["airTempF"] = .null
            object["changes"] = .null
            object["daily"] = .array([])
            notes.append("no values reported in the last \(Self.days) days")
            object["notes"] = .array(notes.map(JSONValue.string))
            json = .object(object)
            return
        }
        let ageHours = now.timeIntervalSince(readingTime) / 3600
        let stale = ageHours > Self.staleHours
        object["status"] = .string((stale ? Status.stale : Status.current).rawValue)
        object["reading"] = ["time": .string(Timestamp.string(from: readingTime)), "pst": .string(PacificStandardTime.isoString(readingTime)),
                             "ageHours": .double((ageHours * 10).rounded() / 10), "staleAfterHours": .double(Self.staleHours)]
        for (element, reading) in [(Element.depth, depth), (.swe, swe), (.airTemperature, temperature)] {
            if let reading, reading.time < readingTime {
                notes.append("latest \(element.rawValue) value is from \(PacificStandardTime.wallTime(reading.time)) PST")
            }
        }
        object["depthIn"] = JSONValue(depth?.value)
        object["sweIn"] = JSONValue(swe?.value)
        object["airTempF"] = JSONValue(temperature?.value)

        var changes = JSONObject()
        for window in Self.windows {
            var change = JSONObject()
            change["hours"] = .int(window.hours)
            // Elements whose window start has no value, by that hour (one note per hour).
            var unavailable: [(time: Date, elements: [String])] = []
            for (element, key, latest) in [(Element.depth, "depthIn", depth), (.swe, "sweIn", swe)] {
                guard let latest else {
                    change[key] = .null
                    continue
                }
                let then = latest.time.addingTimeInterval(-Double(window.hours) * 3600)
                if let earlier = readings.value(element, at: then) {
                    change[key] = JSONValue(((latest.value - earlier) * 100).rounded() / 100)
                } else {
                    change[key] = .null
                    if let index = unavailable.firstIndex(where: { $0.time == then }) {
                        unavailable[index].elements.append(element.rawValue)
                    } else {
                        unavailable.append((then, [element.rawValue]))
                    }
                }
            }
            for (time, elements) in unavailable {
                notes.append("\(window.label) change of \(elements.joined(separator: " and ")) unavailable: no valid value at \(PacificStandardTime.wallTime(time)) PST")
            }
            changes[window.key] = .object(change)
        }
        object["changes"] = .object(changes)

        // Each day's depth: the day's last valid SNWD value, for the 14 PST days ending on the reading's.
        let lastDay = PacificStandardTime.day(readingTime)
        var byDay: [CivilDate: Double] = [:]
        for reading in readings.readings[.depth] ?? [] { byDay[PacificStandardTime.day(reading.time)] = reading.value }
        object["daily"] = .array((0..<Self.days).map { offset in
            let day = lastDay.adding(days: offset - Self.days + 1)
            return ["date": .string(day.iso), "depthIn": JSONValue(byDay[day])]
        })
        object["notes"] = .array(notes.map(JSONValue.string))
        json = .object(object)
    }

    /// `1 suspect SNWD value`, `3 suspect SNWD values`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
