import ConditionsText
import ConditionsJSON
import ConditionsKit

/// A day on the calendar, with no time or zone: what SnowFallData reports by (Pacific dates).
struct SnowfallDate: Sendable, Hashable, Comparable {
    let year: Int
    let month: Int
    let day: Int
    /// Days since 1970-01-01, for windows of days.
    let ordinal: Int

    /// The date, or nil when there is no such day (February 30, month 13).
    init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        ordinal = CivilCalendar.days(year: year, month: month, day: day)
    }

    /// The date `ordinal` days after 1970-01-01.
    init(ordinal: Int) {
        (year, month, day) = CivilCalendar.date(days: ordinal)
        self.ordinal = ordinal
    }

    /// `2024-03-31`, or nil for anything else (data from a fixture or cache is not trusted).
    init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `2024-03-31`.
    var iso: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// `Mar 31`.
    var shortText: String { "\(Self.monthNames[month - 1]) \(day)" }

    /// `Sun Mar 31 2024`, as the host writes dates.
    var longText: String {
        let weekday = Self.weekdayNames[CivilCalendar.weekday(days: ordinal)]
        return "\(weekday) \(shortText) \(year)"
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func < (lhs: SnowfallDate, rhs: SnowfallDate) -> Bool { lhs.ordinal < rhs.ordinal }
}
