import Foundation

/// ISO 8601 formatting and parsing shared by the host and every source, so all dates in
/// output look the same (`2026-11-21T14:05:00Z`).
public enum Timestamp {
    /// `date` as ISO 8601 in UTC with second precision, e.g. `2026-11-21T14:05:00Z`.
    public static func string(from date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
            .replacingOccurrences(of: "+0000", with: "Z")
    }

    /// Parses an ISO 8601 date-time (`2026-11-21T14:05:00Z`, `…T06:05-08:00`, the basic form
    /// `2026-11-21T1405Z`, fractional seconds allowed) or a calendar date (`2026-11-21`, read as midnight in `timeZone`).
    /// A date-time without an offset is read in `timeZone` too. Returns nil when the text is
    /// not one of those forms or names an impossible date.
    public static func parse(_ text: String, timeZone: TimeZone = .gmt) -> Date? {
        // Extended (18:00:00) and basic (180000) times are both accepted: a URN cannot hold a
        // raw ':' inside a segment, so `moon:2026-12-04T1800Z` is how a time is written there.
        let pattern = #/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/#
        // ASCII digits only: `\d` alone also matches other scripts' digits, which `Int` then rejects.
        guard let match = text.wholeMatch(of: pattern.asciiOnlyDigits()) else { return nil }
        var components = DateComponents()
        components.year = Int(match.1)
        components.month = Int(match.2)
        components.day = Int(match.3)
        components.hour = match.4.flatMap { Int($0) } ?? 0
        components.minute = match.5.flatMap { Int($0) } ?? 0
        components.second = match.6.flatMap { Int($0) } ?? 0
        guard let month = components.month, (1...12).contains(month),
              let day = components.day, (1...31).contains(day),
              let hour = components.hour, hour < 24,
              let minute = components.minute, minute < 60,
              let second = components.second, second < 60
        else { return nil }

        var zone = timeZone
        if let offset = match.8 {
            if offset == "Z" || offset == "z" {
                zone = .gmt
            } else {
                let digits = offset.dropFirst().filter(\.isNumber)
                guard let hours = Int(digits.prefix(2)), let minutes = digits.count > 2 ? Int(digits.suffix(2)) : 0, hours < 24, minutes < 60,
                      let fixed = TimeZone(secondsFromGMT: (offset.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60))
                else { return nil }
                zone = fixed
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day  // rejects 2026-02-30 rolling over
        else { return nil }
        let fraction = match.7.map { Double("0." + $0) ?? 0 } ?? 0
        return date.addingTimeInterval(fraction)
    }

    /// What `instant(_:now:timeZone:)` accepts, for `invalidArguments` messages.
    public static let instantForms = "now, an ISO 8601 date such as 2026-12-04 (local noon) or a date-time such as 2026-12-04T1800Z or 2026-12-04T18%3A00Z"

    /// Reads a URN argument naming an instant, the same way in every source: `now` is the
    /// report's clock; a date alone means local noon that day (the middle of the day whose
    /// events are reported); a date-time without an offset is local time in `timeZone`.
    public static func instant(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        if text.lowercased() == "now" { return now }
        guard let date = parse(text, timeZone: timeZone) else { return nil }
        guard text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}/#) != nil else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // Through the calendar, not +12 h, so noon stays noon on daylight-saving days.
        return calendar.date(bySettingHour: 12, minute: 0, second: 0, of: date) ?? date.addingTimeInterval(12 * 3600)
    }
}
