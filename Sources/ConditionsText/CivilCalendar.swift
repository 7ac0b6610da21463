/// Proleptic Gregorian day arithmetic in integers (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), for the package's own date code: timestamps, zone rules, a module's
/// calendar days. Foundation's Calendar costs more than formatting a whole line.
package enum CivilCalendar {
    /// Days from 1970-01-01 to `year`-`month`-`day` (negative before it).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01.
    package static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivision(z, 146_097).quotient
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    package static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 (Sunday) … 6 for a day counted from 1970-01-01, a Thursday.
    package static func weekday(days: Int) -> Int {
        floorDivision(days + 4, 7).remainder
    }

    /// Division rounding toward negative infinity, and its non-negative remainder.
    package static func floorDivision(_ a: Int, _ b: Int) -> (quotient: Int, remainder: Int) {
        let quotient = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (quotient, a - quotient * b)
    }
}
