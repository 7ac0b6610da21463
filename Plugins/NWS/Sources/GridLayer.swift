import ConditionsJSON
import ConditionsText
import Foundation

/// One layer of a `/gridpoints` body (`skyCover`, `visibility`, …): `{uom, values: [{validTime,
/// value}]}`, run-length encoded. NWS merges equal consecutive hours into one interval,
/// `validTime` being `<start>/<ISO 8601 duration>` (`2022-02-04T18:00:00+00:00/PT3H`,
/// `…/P1DT6H`), so the layer is read into intervals and spread back over hours.
///
/// An entry that cannot be read (a validTime of another form, a value that is not a number or
/// null) is skipped and said in `notes`: one bad entry costs its hours, not the layer.
struct GridLayer: Sendable {
    /// `[start, end)` in seconds since 1970, and its value (nil: NWS has none for those hours).
    struct Interval: Sendable, Equatable {
        let start: Int
        let end: Int
        let value: Double?
    }

    /// The intervals in NWS's order.
    let intervals: [Interval]
    /// What was skipped, one line each, naming the entry.
    let notes: [String]

    /// Values beyond this are no measurement (and would not fit an `Int` once scaled).
    static let largest = 1e9

    /// Reads `layer`, found at `path` (`properties.skyCover`); each value is multiplied by `scale`
    /// (1000 for a layer in km read in m). Nil when `layer` has no `values` array.
    init?(_ layer: JSONValue?, path: String, scale: Double = 1) {
        guard let values = layer?["values"]?.arrayValue else { return nil }
        var intervals: [Interval] = []
        var notes: [String] = []
        intervals.reserveCapacity(values.count)
        for (index, entry) in values.enumerated() {
            let at = "\(path).values[\(index)]"
            guard let validTime = entry["validTime"]?.stringValue else {
                notes.append("\(at): no validTime; skipped")
                continue
            }
            guard let (start, end) = Self.interval(validTime) else {
                notes.append("\(at): validTime \"\(validTime.oneLine(limit: 60))\" is not <start>/<ISO 8601 duration>; skipped")
                continue
            }
            let value: Double?
            switch entry["value"] {
            case .null?: value = nil
            case let number? where number.doubleValue.map({ $0.isFinite && abs($0) <= Self.largest }) == true:
                value = number.doubleValue.map { $0 * scale }
            default:
                notes.append("\(at): value is \(entry["value"]?.typeName ?? "missing"), not a number or null; skipped")
                continue
            }
            intervals.append(Interval(start: start, end: end, value: value))
        }
        self.intervals = intervals
        self.notes = notes
    }

    /// `<start>/<duration>` as seconds since 1970, `[start, end)`; nil when not that form.
    static func interval(_ validTime: String) -> (Int, Int)? {
        let parts = validTime.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = Timestamp.parse(String(parts[0])), let length = GridDuration.seconds(parts[1]) else { return nil }
        let start = Int(date.timeIntervalSince1970.rounded(.down))
        return (start, start + length)
    }

    /// The value of each of `count` hours from `start` (seconds since 1970): the interval an
    /// hour begins in; nil where none does or NWS gave null (never 0: no value is not none).
    /// A later interval overlapping an earlier one wins.
    func hourly(from start: Int, count: Int) -> [Double?] {
        var hours = [Double?](repeating: nil, count: max(0, count))
        let end = start + hours.count * 3600
        for interval in intervals where interval.end > start && interval.start < end {
            // The first hour starting at or after the interval's start, up to its end.
            let first = max(0, Self.ceilingDivide(interval.start - start, 3600))
            let last = min(hours.count, Self.ceilingDivide(interval.end - start, 3600))
            guard first < last else { continue }
            for hour in first..<last { hours[hour] = interval.value }
        }
        return hours
    }

    private static func ceilingDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? (a + b - 1) / b : -((-a) / b)
    }
}
