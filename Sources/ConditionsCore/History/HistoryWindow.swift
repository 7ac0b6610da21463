import ConditionsText
import ConditionsKit
import Foundation

/// The period a history query covers, as the CLI's `--since`/`--until`, the HTTP `since`/`until`
/// parameters and the MCP tool's arguments give it: a whole duration back from now (`90m`,
/// `36h`, `7d`, `3600`) or an ISO 8601 date or date-time (`2026-11-01`, `2026-11-21T14:00`,
/// `2026-11-21T14:00:00Z`, `2026-11-21T06:00:00-08:00`).
///
/// Exactly the strings `pattern` matches are accepted, so the OpenAPI document can say which
/// (it carries the same pattern) and a client checking against it never disagrees with the
/// server. A day past its month's end rolls over (`2026-02-30` is 2 March), as a date-time
/// without an offset is read in the given zone.
package struct HistoryWindow: Sendable, Equatable {
    /// The start.
    package let from: Date
    /// The end.
    package let to: Date

    /// When `since` is not given: the last 7 days.
    package static let defaultSince = "7d"

    /// What `since` and `until` accept, anchored; the same as in openapi.json (`OpenAPITests`
    /// compares them).
    package static let pattern = #"^([0-9]{1,5}[smhd]?|[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?)$"#

    /// The window of `since` (default 7 days back) to `until` (default `now`); a date without
    /// a time is midnight in `timeZone`. With `inEitherOrder`, bounds given backwards are
    /// swapped (HTTP and MCP, whose clients are programs); otherwise that is a problem too.
    /// Throws one line naming the parameter.
    package init(since: String?, until: String?, now: Date, timeZone: TimeZone,
                 names: (since: String, until: String) = ("since", "until"), inEitherOrder: Bool = false) throws(Problem) {
        var from = try Self.instant(since ?? Self.defaultSince, now: now, timeZone: timeZone, name: names.since)
        var to = try until.map { text throws(Problem) in try Self.instant(text, now: now, timeZone: timeZone, name: names.until) } ?? now
        if from > to {
            guard inEitherOrder else {
                throw Problem(message: "\(names.since) (\(Timestamp.string(from: from))) is after \(names.until) (\(Timestamp.string(from: to)))")
            }
            swap(&from, &to)
        }
        // Dates print with four-digit years only inside the supported range; nothing was
        // recorded outside it anyway.
        let range = Timestamp.supportedRange
        self.from = min(max(from, range.lowerBound), range.upperBound)
        self.to = min(max(to, range.lowerBound), range.upperBound)
    }

    /// A window from `from` to `to`.
    package init(from: Date, to: Date) {
        self.from = from
        self.to = to
    }

    /// A parameter that is neither a duration nor a date.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        /// One line naming the parameter and what it takes.
        package let message: String
        package var description: String { message }
    }

    private static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]

    static func instant(_ text: String, now: Date, timeZone: TimeZone, name: String) throws(Problem) -> Date {
        let bytes = Array(text.utf8)
        guard let match = try? Regex(pattern).wholeMatch(in: text), match.output.count > 0 else {
            throw Problem(message: "\(name): \"\(text)\" is neither a duration back from now (90m, 36h, 7d) nor an ISO 8601 date or date-time (2026-11-01, 2026-11-21T14:00:00Z)")
        }
        // A duration: digits and an optional unit.
        if bytes.count <= 6, !text.contains("-") {
            var digits = Substring(text)
            var scale = 1.0
            if let last = digits.last, let unit = units[last] { scale = unit; digits = digits.dropLast() }
            return now.addingTimeInterval(-(Double(digits) ?? 0) * scale)
        }
        return date(bytes, timeZone: timeZone)
    }

    /// A date or date-time the pattern matched (so every field is present where read, in range).
    private static func date(_ bytes: [UInt8], timeZone: TimeZone) -> Date {
        func number(_ start: Int, _ count: Int) -> Int { bytes[start..<start + count].reduce(0) { $0 * 10 + Int($1 - 48) } }
        var components = DateComponents(year: number(0, 4), month: number(5, 2), day: number(8, 2), hour: 0, minute: 0, second: 0)
        var zone = timeZone
        if bytes.count > 10 {
            components.hour = number(11, 2)
            components.minute = number(14, 2)
            var index = 16
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") { components.second = number(17, 2); index = 19 }
            if index < bytes.count {
                if bytes[index] == UInt8(ascii: "Z") {
                    zone = .gmt
                } else {
                    let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                    zone = TimeZone(secondsFromGMT: sign * (number(index + 1, 2) * 3600 + number(index + 4, 2) * 60)) ?? .gmt
                }
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // Lenient, as Calendar is by default: 30 February is 2 March, a time in a DST gap moves on.
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }
}
