/// A proleptic Gregorian date and time of day, from seconds since 1970-01-01T00:00 on the same
/// clock (local seconds give local fields), and the day arithmetic the zone rules need.
/// Integer arithmetic only: Calendar would cost more than the whole formatting of a line.
struct CivilTime: Equatable {
    let year, month, day, hour, minute: Int
    /// 0 is Sunday.
    let weekday: Int

    init(secondsSinceEpoch seconds: Int64) {
        let (days, second) = Self.floorDivide(seconds, 86_400)
        hour = Int(second / 3600)
        minute = Int(second % 3600 / 60)
        weekday = Self.weekday(ofDay: days)
        // Howard Hinnant's civil_from_days: eras of 400 years counted from 0000-03-01.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 0 (Sunday) … 6 for a day counted from 1970-01-01, a Thursday.
    static func weekday(ofDay days: Int64) -> Int {
        Int((days % 7 + 11) % 7)
    }

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }
}
