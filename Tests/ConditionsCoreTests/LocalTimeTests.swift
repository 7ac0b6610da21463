import Foundation
import Testing
@testable import ConditionsCore

/// Local times in text output: Foundation's formatting in the location's zone, the year only
/// when it is not the current one.
@Suite struct LocalTimeTests {
    let pacific = LocalTimeFormats(timeZone: TimeZone(identifier: "America/Los_Angeles")!)

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

    @Test func zonesWithoutAnEnglishShortNameUseTheOffset() {
        let berlin = LocalTimeFormats(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(berlin.string(Date(timeIntervalSince1970: 1_795_000_000), withDate: false) == "12:06 GMT+1")
    }
}
