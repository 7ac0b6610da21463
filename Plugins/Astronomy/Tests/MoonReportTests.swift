@testable import Astronomy
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing

/// Illumination, age, cycle and names.
@Suite struct MoonStateTests {
    /// The Aeris reference response (Plugins/Aeris/Tests/Resources/sunmoon.json) for Miami at
    /// 2015-04-13T18:00:13-04:00: illum 31, "waning crescent", moonrise 03:00 and moonset
    /// 14:32 local (07:00Z and 18:32Z).
    @Test func aerisSunMoonReference() throws {
        let report = MoonReport(at: try instant("2015-04-13T22:00:13Z"), place: Places.miami)
        #expect(abs(report.illumination - 31) <= 0.5)
        #expect(report.phase == "waning crescent")
        #expect(seconds(try #require(report.rise), try instant("2015-04-13T07:00:00Z")) <= 180)
        #expect(seconds(try #require(report.set), try instant("2015-04-13T18:32:00Z")) <= 180)
    }

    /// Illuminated percentage against Astronomy Engine 2.1.19 (an independent VSOP87/ELP
    /// implementation), across the range, including a leap day and both ends.
    @Test(arguments: [
        ("2015-04-13T22:00:13Z", 30.629), ("1900-06-15T00:00:00Z", 95.833), ("1955-10-01T06:00:00Z", 99.427),
        ("2024-02-29T20:00:00Z", 76.774), ("2100-06-15T00:00:00Z", 45.581),
        ("2015-04-18T18:57:00Z", 0.021), ("2015-04-04T12:06:00Z", 99.999),
    ])
    func illumination(at text: String, percent: Double) throws {
        let fraction = MoonIllumination.fraction(julianEphemerisDay: TimeScale.julianEphemerisDay(try instant(text)))
        #expect(abs(fraction * 100 - percent) <= 0.5, "\(text)")
    }

    /// Age and cycle from the USNO instants bracketing the Aeris reference: new moons
    /// 2015-03-20 09:36 and 2015-04-18 18:57 UT. (Aeris reports age 24.02 and phase 0.8134 here:
    /// it derives both from the elongation, not from the time since new moon.)
    @Test func ageAndCycleFromPublishedNewMoons() throws {
        let date = try instant("2015-04-13T22:00:13Z")
        let previous = try instant("2015-03-20T09:36:00Z"), next = try instant("2015-04-18T18:57:00Z")
        let age = date.timeIntervalSince(previous) / 86400
        let report = MoonReport(at: date, place: Places.miami)
        #expect(abs(report.age - age) <= 0.05)
        #expect(abs(report.cycle - age / (next.timeIntervalSince(previous) / 86400)) <= 0.002)
    }

    @Test func principalNamesHoldForTheLocalDayOfTheInstant() throws {
        // First quarter 2015-04-25 23:55 UT = 16:55 in Seattle: the whole local day is named for it.
        for time in ["2015-04-25T07:30:00Z", "2015-04-25T23:55:00Z", "2015-04-26T06:59:00Z"] {
            #expect(MoonReport(at: try instant(time), place: Places.seattle).phase == "first quarter", "\(time)")
        }
        #expect(MoonReport(at: try instant("2015-04-26T07:01:00Z"), place: Places.seattle).phase == "waxing gibbous")
        #expect(MoonReport(at: try instant("2015-04-25T06:59:00Z"), place: Places.seattle).phase == "waxing crescent")
        // The same instant is already the next day in Sydney.
        #expect(MoonReport(at: try instant("2015-04-25T07:30:00Z"), place: Places.sydney).phase == "waxing crescent")
    }

    @Test func everyNameOccursInOrderOverALunation() throws {
        var names: [String] = []
        var date = try instant("2026-01-01T12:00:00Z")
        while names.count < 8 || names.last == names.first {
            let name = MoonReport(at: date, place: Places.greenwich).phase
            if names.last != name { names.append(name) }
            date.addTimeInterval(86400)
        }
        let expected = ["waxing crescent", "first quarter", "waxing gibbous", "full moon", "waning gibbous",
                        "last quarter", "waning crescent", "new moon"]
        let start = try #require(expected.firstIndex(of: names[0]))
        #expect(Array(names.prefix(8)) == Array(expected[start...] + expected[..<start]))
    }

    @Test func ageRestartsAtNewMoon() throws {
        let newMoon = try instant("2015-04-18T18:56:50Z")
        let before = MoonReport(at: newMoon.addingTimeInterval(-3600), place: Places.greenwich)
        let after = MoonReport(at: newMoon.addingTimeInterval(3600), place: Places.greenwich)
        #expect(before.age > 29 && before.cycle > 0.99)
        #expect(after.age < 0.05 && after.cycle < 0.002)
    }
}

/// Moonrise and moonset on local days.
@Suite struct RiseSetTests {
    /// Rise and set for the local day of `date` at `place`.
    func events(_ date: String, _ place: Place) throws -> (rise: Date?, set: Date?) {
        let report = MoonReport(at: try instant(date), place: place)
        return (report.rise, report.set)
    }

    func expectNear(_ computed: Date?, _ reference: String?, within limit: Double = 180,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let reference else {
            #expect(computed == nil, sourceLocation: sourceLocation)
            return
        }
        let date = try #require(computed, sourceLocation: sourceLocation)
        #expect(seconds(date, try instant(reference)) <= limit, "\(date) vs \(reference)", sourceLocation: sourceLocation)
    }

    /// References from Astronomy Engine 2.1.19 (`SearchRiseSet`: upper limb, standard
    /// refraction, topocentric), an implementation independent of Meeus.
    @Test func midLatitudes() throws {
        let seattle = try events("2026-12-04T20:00:00Z", Places.seattle)
        try expectNear(seattle.rise, "2026-12-04T11:22:20Z")
        try expectNear(seattle.set, "2026-12-04T21:39:54Z")
    }

    @Test func southernHemisphere() throws {
        // Local day 2026-12-04 in Sydney (UTC+11) starts 2026-12-03T13:00Z.
        let summer = try events("2026-12-04T02:00:00Z", Places.sydney)
        try expectNear(summer.rise, "2026-12-03T15:17:55Z")
        try expectNear(summer.set, "2026-12-04T04:29:02Z")
        // 2015-04-13 in Sydney has a moonset but no moonrise at all.
        let noRise = try events("2015-04-13T02:00:00Z", Places.sydney)
        try expectNear(noRise.rise, nil)
        try expectNear(noRise.set, "2015-04-13T03:37:15Z")
    }

    @Test func polarLatitudes() throws {
        let ordinary = try events("2026-12-04T12:00:00Z", Places.tromso)
        try expectNear(ordinary.rise, "2026-12-04T02:43:47Z", within: 300)
        try expectNear(ordinary.set, "2026-12-04T10:39:55Z", within: 300)
        // Below the horizon all day, then above it all day: neither rise nor set.
        for day in ["2026-11-11T12:00:00Z", "2026-11-25T12:00:00Z"] {
            let none = try events(day, Places.tromso)
            #expect(none.rise == nil && none.set == nil, "\(day)")
        }
        let setOnly = try events("2026-11-03T12:00:00Z", Places.tromso)
        try expectNear(setOnly.rise, nil)
        try expectNear(setOnly.set, "2026-11-03T14:02:06Z", within: 300)
    }

    @Test func eventsFallOnTheLocalDayAndOnWholeMinutes() throws {
        let calendar = MoonReport.calendar(for: Places.seattle)
        var date = try instant("2026-01-01T20:00:00Z")
        for _ in 0..<40 {
            let report = MoonReport(at: date, place: Places.seattle)
            for event in [report.rise, report.set].compactMap({ $0 }) {
                #expect(calendar.isDate(event, inSameDayAs: date))
                #expect(event.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
            }
            date.addTimeInterval(86400)
        }
    }

    @Test func roundingUpNeverLeavesTheDay() throws {
        let end = try instant("2026-01-02T00:00:00Z")
        #expect(MoonRiseSet.minute(end.addingTimeInterval(-10), before: end) == end.addingTimeInterval(-60))
        #expect(MoonRiseSet.minute(end.addingTimeInterval(-50), before: end) == end.addingTimeInterval(-60))
        #expect(MoonRiseSet.minute(end.addingTimeInterval(-80), before: end) == end.addingTimeInterval(-60))
    }
}
