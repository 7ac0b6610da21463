import Foundation

/// A day on the calendar, with no time or zone (proleptic Gregorian): the day a report is
/// for, a station's end date, a season's day of snowfall.
///
/// ```swift
/// let day = CivilDate(iso: "2024-03-31")!   // day.shortText == "Mar 31", day.longText == "Sun Mar 31 2024"
/// CivilDate(instant, offsetSeconds: -8 * 3600)  // the day an instant falls on at UTC−8
/// ```
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    /// Days since 1970-01-01, for windows of days.
    public let ordinal: Int

    /// The date, or nil when there is no such day (February 30, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        ordinal = CivilCalendar.days(year: year, month: month, day: day)
    }

    /// The date `ordinal` days after 1970-01-01.
    public init(ordinal: Int) {
        (year, month, day) = CivilCalendar.date(days: ordinal)
        self.ordinal = ordinal
    }

    /// The day `instant` falls on at a fixed offset from UTC (seconds east).
    public init(_ instant: Date, offsetSeconds: Int) {
        let seconds = (instant.timeIntervalSince1970 + Double(offsetSeconds)).rounded(.down)
        self.init(ordinal: Int((seconds / 86_400).rounded(.down)))
    }

    /// `2024-03-31`, or nil for anything else (data from a fixture or cache is not trusted).
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(ordinal: ordinal + days) }

    /// `2024-03-31`.
    public var iso: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// `Mar 31`.
    public var shortText: String { "\(Self.monthNames[month - 1]) \(day)" }

    /// `Sun Mar 31 2024`, as the host writes dates.
    public var longText: String { "\(Self.weekdayNames[CivilCalendar.weekday(days: ordinal)]) \(shortText) \(year)" }

    /// `2024-03-31`.
    public var description: String { iso }

    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.ordinal < rhs.ordinal }
}
