import ConditionsKit
import Foundation

/// The period a history query covers, as the CLI's `--since`/`--until`, the HTTP `since`/`until`
/// parameters and the MCP tool's arguments give it: a duration back from now (`7d`, `36h`) or
/// an ISO 8601 date or date-time (`2026-11-01`, `2026-11-21T14:00:00Z`).
package struct HistoryWindow: Sendable, Equatable {
    /// The start.
    package let from: Date
    /// The end.
    package let to: Date

    /// When neither is given: the last 7 days.
    package static let defaultSince = "7d"

    /// The window of `since` (default 7 days back) to `until` (default `now`); a date without
    /// a time is midnight in `timeZone`. Throws one line naming the parameter.
    package init(since: String?, until: String?, now: Date, timeZone: TimeZone, names: (since: String, until: String) = ("since", "until")) throws(Problem) {
        from = try Self.instant(since ?? Self.defaultSince, now: now, timeZone: timeZone, name: names.since)
        to = try until.map { text throws(Problem) in try Self.instant(text, now: now, timeZone: timeZone, name: names.until) } ?? now
        guard from <= to else {
            throw Problem(message: "\(names.since) (\(Timestamp.string(from: from))) is after \(names.until) (\(Timestamp.string(from: to)))")
        }
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

    static func instant(_ text: String, now: Date, timeZone: TimeZone, name: String) throws(Problem) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = Timestamp.parse(trimmed, timeZone: timeZone), Timestamp.supportedRange.contains(date) { return date }
        if let seconds = DurationText.seconds(trimmed) {
            guard seconds <= 100 * 365 * 86400 else { throw Problem(message: "\(name): \"\(text)\" is more than 100 years back") }
            return now.addingTimeInterval(-seconds)
        }
        throw Problem(message: "\(name): \"\(text)\" is neither a duration back from now (90m, 36h, 7d) nor an ISO 8601 date or date-time (2026-11-01, 2026-11-21T14:00:00Z)")
    }
}
