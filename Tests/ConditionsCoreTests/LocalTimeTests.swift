import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// Local times in text output: the clock and abbreviation from the system's tz database in the
/// location's zone (Foundation's formatting where it has no file), the year only when it is not
/// the current one.
@Suite struct LocalTimeTests {
    let pacific = LocalTimeFormats(timeZone: TimeZone(identifier: "America/Los_Angeles")!)

    /// `day` and `string(withDate: false)` together: every field, the year always.
    func full(_ formats: LocalTimeFormats, _ date: Date) -> String {
        formats.day(date) + " " + formats.string(date, withDate: false)
    }

    func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test func zoneNamesAndDaylightSaving() {
        let winter = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18T11:06:40Z
        let summer = Date(timeIntervalSince1970: 1_780_000_000) // 2026-05-28T20:26:40Z
        #expect(pacific.string(winter, withDate: false) == "03:06 PST")
        #expect(pacific.string(summer, withDate: false) == "13:26 PDT")
    }

    @Test func theYearAppearsOnlyWhenItIsNotThisYear() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let thisYear = calendar.component(.year, from: Date())
        let sameYear = try #require(calendar.date(from: DateComponents(year: thisYear, month: 3, day: 1, hour: 6, minute: 5)))
        let otherYear = try #require(calendar.date(from: DateComponents(year: 2031, month: 3, day: 1, hour: 6, minute: 5)))
        #expect(!pacific.string(sameYear, withDate: true).contains(String(thisYear)))
        #expect(pacific.string(sameYear, withDate: true).hasSuffix("Mar 1 06:05 PST"))
        #expect(thisYear == 2031 || pacific.string(otherYear, withDate: true) == "Sat Mar 1 2031 06:05 PST")
    }

    /// ICU (Foundation's `zzz`) says "GMT-7" and "GMT-8" before about 1970.
    @Test func historicalDatesHaveTheirDaylightSavingName() throws {
        #expect(pacific.string(try instant("1950-07-01T19:00:00Z"), withDate: true) == "Sat Jul 1 1950 12:00 PDT")
        #expect(pacific.string(try instant("1950-01-01T20:00:00Z"), withDate: true) == "Sun Jan 1 1950 12:00 PST")
        #expect(pacific.string(try instant("1945-08-14T22:59:00Z"), withDate: false) == "15:59 PWT")
        #expect(pacific.string(try instant("1945-08-14T23:00:00Z"), withDate: false) == "16:00 PPT")
        #expect(pacific.day(try instant("1950-07-01T06:59:59Z")) == "Fri Jun 30 1950")
        // Before standard time: local mean time, −7:52:58.
        #expect(full(pacific, try instant("1850-01-01T12:00:00Z")) == "Tue Jan 1 1850 04:07 LMT")
    }

    /// After the file's last transition (2037 in Debian's files; 2007 in "slim" ones) the
    /// footer's rule applies.
    @Test func datesBeyondTheLastTransitionFollowTheRule() throws {
        #expect(full(pacific, try instant("2100-07-01T19:00:00Z")) == "Thu Jul 1 2100 12:00 PDT")
        #expect(full(pacific, try instant("2100-03-14T09:59:59Z")) == "Sun Mar 14 2100 01:59 PST")
        #expect(full(pacific, try instant("2100-03-14T10:00:00Z")) == "Sun Mar 14 2100 03:00 PDT")
        #expect(full(pacific, try instant("2100-11-07T08:59:59Z")) == "Sun Nov 7 2100 01:59 PDT")
        #expect(full(pacific, try instant("2100-11-07T09:00:00Z")) == "Sun Nov 7 2100 01:00 PST")
    }

    @Test func zonesOutsideNorthAmericaHaveTheDatabaseNames() throws {
        let berlin = LocalTimeFormats(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(berlin.string(Date(timeIntervalSince1970: 1_795_000_000), withDate: false) == "12:06 CET")
        #expect(berlin.string(Date(timeIntervalSince1970: 1_780_000_000), withDate: false) == "22:26 CEST")
        // A zone whose database name is its offset.
        let saoPaulo = LocalTimeFormats(timeZone: TimeZone(identifier: "America/Sao_Paulo")!)
        #expect(saoPaulo.string(try instant("2026-07-01T12:00:00Z"), withDate: false) == "09:00 -03")
        #expect(saoPaulo.string(try instant("1990-01-01T12:00:00Z"), withDate: false) == "10:00 -02")
        let kolkata = LocalTimeFormats(timeZone: TimeZone(identifier: "Asia/Kolkata")!)
        #expect(full(kolkata, try instant("2100-07-01T12:00:00Z")) == "Thu Jul 1 2100 17:30 IST")
        let sydney = LocalTimeFormats(timeZone: TimeZone(identifier: "Australia/Sydney")!)
        #expect(full(sydney, try instant("2100-01-01T12:00:00Z")) == "Fri Jan 1 2100 23:00 AEDT")
        #expect(full(sydney, try instant("2100-07-01T12:00:00Z")) == "Thu Jul 1 2100 22:00 AEST")
    }

    /// A zone with no file in the database (one made from an offset) formats through Foundation.
    @Test func aZoneWithoutAFileFormatsAsFoundationDoes() throws {
        let zone = try #require(TimeZone(secondsFromGMT: 3600))
        let formats = LocalTimeFormats(timeZone: zone)
        let date = try instant("2026-07-01T12:00:00Z")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm zzz"
        #expect(formats.string(date, withDate: false) == formatter.string(from: date))
        #expect(formats.string(date, withDate: false).hasPrefix("13:00 "))
        formatter.dateFormat = "EEE MMM d yyyy"
        #expect(formats.day(date) == formatter.string(from: date))
    }

    /// The clock, weekday, day and month by arithmetic agree with Foundation's for every tenth
    /// day and every daylight-saving change of 1971–2040, the whole line where ICU's English
    /// names are the database's (North America since 1970).
    @Test(arguments: ["America/Los_Angeles", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Chatham"])
    func theClockAgreesWithFoundation(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let formats = LocalTimeFormats(timeZone: zone)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        let northAmerican = identifier.hasPrefix("America/") && identifier != "America/Sao_Paulo"
        formatter.dateFormat = northAmerican ? "EEE MMM d yyyy HH:mm zzz" : "EEE MMM d yyyy HH:mm"
        var instants: [Date] = []
        var date = try instant("1971-01-01T00:00:00Z")
        let end = try instant("2040-12-31T00:00:00Z")
        while date < end {
            instants.append(date)
            // Each side of every change of offset within the next ten days.
            if let change = zone.nextDaylightSavingTimeTransition(after: date), change < date + 864_000 {
                instants += [change - 60, change, change + 3599]
            }
            date += 864_000 + 3_607 // ten days and an hour and a bit, to move through the clock
        }
        var disagreements: [String] = []
        for instant in instants {
            let ours = full(formats, instant)
            let expected = formatter.string(from: instant)
            if !(northAmerican ? ours == expected : ours.hasPrefix(expected + " ")) { disagreements.append("\(instant): \(ours) ≠ \(expected)") }
        }
        #expect(instants.count > 2500)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }
}
