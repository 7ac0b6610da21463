@testable import Astronomy
import ConditionsText
import Foundation
import Testing

/// `LocalDay` against Foundation's Gregorian `Calendar`, the oracle it replaces in `moon:now`.
@Suite struct LocalDayTests {
    /// Zones whose clocks move at local midnight (skipping it, or passing it twice), a zone
    /// east of UTC, one west, one that moves at 02:00, and UTC.
    static let zones = ["America/Havana", "America/Santiago", "Asia/Beirut", "America/Asuncion", "Asia/Tehran",
                        "Australia/Sydney", "America/Los_Angeles", "Pacific/Kiritimati", "UTC"]

    @Test(arguments: zones) func everyDayBeginsWhereTheCalendarSaysItDoes(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let local = LocalDay(zone: zone)
        let first = try #require(CivilDate(year: 2018, month: 1, day: 1))
        let last = try #require(CivilDate(year: 2026, month: 12, day: 31))
        var moved = 0
        for ordinal in first.ordinal...last.ordinal {
            let day = CivilDate(ordinal: ordinal)
            let noon = try #require(calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)))
            let expected = calendar.startOfDay(for: noon)
            let start = local.start(of: day)
            #expect(start == expected, "\(identifier) \(day.iso): \(start) against \(expected)")
            #expect(local.day(of: start) == day && local.day(of: start.addingTimeInterval(-1)) == day.adding(days: -1),
                    "\(identifier) \(day.iso)")
            #expect(local.day(of: noon) == day)
            if zone.secondsFromGMT(for: expected) != zone.secondsFromGMT(for: expected.addingTimeInterval(-1)) { moved += 1 }
        }
        // The zones chosen for it do move their clocks at midnight within the years compared.
        if ["America/Havana", "America/Santiago", "Asia/Beirut", "America/Asuncion", "Asia/Tehran"].contains(identifier) {
            #expect(moved > 0, "\(identifier): no day began at a change of offset")
        }
    }

    @Test func noZoneIsUTC() throws {
        let local = LocalDay(zone: nil)
        let day = try #require(CivilDate(year: 2026, month: 11, day: 29))
        #expect(local.start(of: day) == Date(timeIntervalSince1970: Double(day.ordinal) * 86_400))
    }
}
