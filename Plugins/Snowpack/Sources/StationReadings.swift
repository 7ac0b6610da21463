import ConditionsJSON
import ConditionsKit
import Foundation

/// The elements asked of `/data`: snow depth and snow water equivalent (inches) and air
/// temperature (°F), hourly.
enum Element: String, Sendable, CaseIterable {
    case depth = "SNWD"
    case swe = "WTEQ"
    case airTemperature = "TOBS"
}

/// One station's hourly values from `/data`, element by element, with what was left out.
struct StationReadings: Sendable {
    /// One kept value: an hour and its reading.
    struct Reading: Sendable, Equatable {
        let time: Date
        let value: Double
    }

    /// What was skipped of one element.
    struct Skipped: Sendable, Equatable {
        /// Values flagged by quality control other than V (valid) and E (edited), by flag.
        var suspect: [String: Int] = [:]
        /// Hours listed without a value (null or absent).
        var missing = 0
        /// Hours whose date could not be read.
        var unreadable = 0

        var suspectCount: Int { suspect.values.reduce(0, +) }
    }

    /// Kept values by element, oldest first, one per hour (the first of a repeated hour).
    let readings: [Element: [Reading]]
    /// What was skipped, by element.
    let skipped: [Element: Skipped]
    /// Elements given by more than one sensor: the ordinal read.
    let ordinals: [Element: Int]

    /// quality-control flags that leave a value usable: V (valid), E (edited).
    static let acceptedFlags: Set<String> = ["V", "E"]

    /// The entry for `triplet` in a `/data` body. An empty array, or none for the station, is
    /// `notFound` naming the triplet; anything but an array of objects is `badResponse`.
    init(document: JSONValue, triplet: StationTriplet, source: String) throws(ConditionsError) {
        guard let entries = document.arrayValue else {
            throw ConditionsError.badResponse("\(source): the data is \(document.typeName), not an array of stations")
        }
        guard !entries.isEmpty else {
            throw ConditionsError.notFound("NRCS AWDB has no data for the station \(triplet.text) (it answered an empty list)")
        }
        let entry = entries.first { ($0["stationTriplet"]?.stringValue).flatMap(StationTriplet.init) == triplet }
        guard let entry else {
            throw ConditionsError.notFound("NRCS AWDB's answer holds no data for the station \(triplet.text)")
        }
        let series: [JSONValue]
        switch entry["data"] {
        case nil, .null?: series = []
        case .array(let items)?: series = items
        case let other?: throw ConditionsError.badResponse("\(source): the data of \(triplet.text) is \(other.typeName), not an array")
        }
        // Per element, the sensor of the lowest ordinal (then the shallowest height, then the first).
        var chosen: [Element: (ordinal: Int, height: Double, values: [JSONValue])] = [:]
        var sensors: [Element: Int] = [:]
        for item in series {
            guard let element = item["stationElement"]?["elementCode"]?.stringValue.flatMap({ Element(rawValue: $0.uppercased()) }) else { continue }
            let ordinal = item["stationElement"]?["ordinal"]?.intValue ?? 1
            let height = item["stationElement"]?["heightDepth"]?.doubleValue ?? 0
            let values = item["values"]?.arrayValue ?? []
            sensors[element, default: 0] += 1
            if let current = chosen[element], (current.ordinal, current.height) <= (ordinal, height) { continue }
            chosen[element] = (ordinal, height, values)
        }
        var readings: [Element: [Reading]] = [:]
        var skipped: [Element: Skipped] = [:]
        var ordinals: [Element: Int] = [:]
        for (element, sensor) in chosen {
            if sensors[element, default: 0] > 1 { ordinals[element] = sensor.ordinal }
            var kept: [Date: Double] = [:]
            var skip = Skipped()
            for value in sensor.values {
                guard let time = value["date"]?.stringValue.flatMap(PacificStandardTime.instant) else {
                    skip.unreadable += 1
                    continue
                }
                guard let number = value["value"]?.doubleValue, number.isFinite else {
                    skip.missing += 1
                    continue
                }
                if let flag = value["qcFlag"]?.stringValue?.uppercased(), !flag.isEmpty, !Self.acceptedFlags.contains(flag) {
                    skip.suspect[String(flag.prefix(8)), default: 0] += 1
                    continue
                }
                if kept[time] == nil { kept[time] = number }
            }
            readings[element] = kept.map { Reading(time: $0.key, value: $0.value) }.sorted { $0.time < $1.time }
            if skip != Skipped() { skipped[element] = skip }
        }
        self.readings = readings
        self.skipped = skipped
        self.ordinals = ordinals
    }

    /// These readings without the values after `instant` (a report pinned to an earlier
    /// `now` than the data reaches), and how many were left out.
    func until(_ instant: Date) -> (readings: StationReadings, later: Int) {
        var later = 0
        var kept: [Element: [Reading]] = [:]
        for (element, list) in readings {
            let cut = list.firstIndex { $0.time > instant } ?? list.count
            later += list.count - cut
            kept[element] = Array(list[..<cut])
        }
        return (StationReadings(readings: kept, skipped: skipped, ordinals: ordinals), later)
    }

    private init(readings: [Element: [Reading]], skipped: [Element: Skipped], ordinals: [Element: Int]) {
        self.readings = readings
        self.skipped = skipped
        self.ordinals = ordinals
    }

    /// The latest kept value of `element`.
    func latest(_ element: Element) -> Reading? { readings[element]?.last }

    /// The kept value of `element` at exactly `time`.
    func value(_ element: Element, at time: Date) -> Double? {
        guard let list = readings[element] else { return nil }
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low < list.count && list[low].time == time ? list[low].value : nil
    }

    /// Whether nothing at all was kept.
    var isEmpty: Bool { readings.values.allSatisfy(\.isEmpty) }
}
