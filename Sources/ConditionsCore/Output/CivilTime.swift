import ConditionsText
import ConditionsKit

/// A proleptic Gregorian date and time of day, from seconds since 1970-01-01T00:00 on the same
/// clock (local seconds give local fields), and the day arithmetic the zone rules need.
/// Integer arithmetic only: Calendar would cost more than the whole formatting of a line.
struct CivilTime: Equatable {
    let year, month, day, hour, minute: Int
    /// 0 is Sunday.
    let weekday: Int

    init(secondsSinceEpoch seconds: Int64) {
        let (days, second) = CivilCalendar.floorDivision(Int(seconds), 86_400)
        hour = second / 3600
        minute = second % 3600 / 60
        weekday = CivilCalendar.weekday(days: days)
        (year, month, day) = CivilCalendar.date(days: days)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day`.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        Int64(CivilCalendar.days(year: year, month: month, day: day))
    }

    /// 0 (Sunday) … 6 for a day counted from 1970-01-01, a Thursday.
    static func weekday(ofDay days: Int64) -> Int {
        CivilCalendar.weekday(days: Int(days))
    }

    static func daysInMonth(_ month: Int, of year: Int) -> Int {
        CivilCalendar.daysIn(month: month, year: year)
    }
}
