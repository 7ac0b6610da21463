import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The tz database reader behind local times: TZif files, their footers' POSIX rules, and
/// malformed input. Expected values are the database's (2025b), as Python's zoneinfo reads it.
@Suite struct ZoneHistoryTests {
    func history(_ identifier: String) throws -> ZoneHistory {
        try #require(ZoneHistory(identifier: identifier), "no TZif file for \(identifier) in \(ZoneHistory.systemDirectory)")
    }

    func period(_ offset: Int, _ abbreviation: String) -> ZoneHistory.Period {
        ZoneHistory.Period(utcOffset: offset, abbreviation: abbreviation)
    }

    @Test func historicalPeriodsComeFromTheTransitions() throws {
        let pacific = try history("America/Los_Angeles")
        #expect(pacific.period(at: -615_445_200) == period(-25_200, "PDT")) // 1950-07-01T19:00Z
        #expect(pacific.period(at: -631_080_000) == period(-28_800, "PST")) // 1950-01-01T20:00Z
        #expect(pacific.period(at: -3_786_782_400) == period(-28_378, "LMT")) // 1850: before the first transition
        #expect(try history("Europe/Berlin").period(at: -775_828_800) == period(10_800, "CEMT")) // 1945-06-01
        #expect(try history("America/Sao_Paulo").period(at: 631_195_200) == period(-7_200, "-02")) // 1990-01-01
    }

    @Test func theFooterRuleGivesPeriodsAfterTheLastTransition() throws {
        let pacific = try history("America/Los_Angeles")
        // 2100: DST from 2100-03-14T10:00Z to 2100-11-07T09:00Z.
        #expect(pacific.period(at: 4_108_701_599) == period(-28_800, "PST"))
        #expect(pacific.period(at: 4_108_701_600) == period(-25_200, "PDT"))
        #expect(pacific.period(at: 4_129_261_199) == period(-25_200, "PDT"))
        #expect(pacific.period(at: 4_129_261_200) == period(-28_800, "PST"))
        let january2100: Int64 = 4_102_488_000, july2100: Int64 = 4_118_126_400
        #expect(try history("Australia/Sydney").period(at: january2100) == period(39_600, "AEDT"))
        #expect(try history("Australia/Sydney").period(at: july2100) == period(36_000, "AEST"))
        #expect(try history("America/Santiago").period(at: january2100) == period(-10_800, "-03"))
        #expect(try history("America/Santiago").period(at: july2100) == period(-14_400, "-04"))
        // Dublin's "daylight" time is the winter's: GMT in January, IST in July.
        #expect(try history("Europe/Dublin").period(at: january2100) == period(0, "GMT"))
        #expect(try history("Europe/Dublin").period(at: july2100) == period(3_600, "IST"))
        #expect(try history("Asia/Kolkata").period(at: july2100) == period(19_800, "IST"))
        #expect(try history("UTC").period(at: july2100) == period(0, "UTC"))
    }

    @Test func posixRulesParse() throws {
        let pacific = try #require(PosixZoneRule(Array("PST8PDT,M3.2.0,M11.1.0".utf8)))
        #expect(pacific.standard == period(-28_800, "PST"))
        #expect(pacific.daylight == .init(period: period(-25_200, "PDT"),
                                          start: .init(day: .monthWeekday(month: 3, week: 2, weekday: 0), time: 7_200),
                                          end: .init(day: .monthWeekday(month: 11, week: 1, weekday: 0), time: 7_200)))
        let saoPaulo = try #require(PosixZoneRule(Array("<-03>3".utf8)))
        #expect(saoPaulo.standard == period(-10_800, "-03") && saoPaulo.daylight == nil)
        #expect(PosixZoneRule(Array("IST-5:30".utf8))?.standard == period(19_800, "IST"))
        #expect(PosixZoneRule(Array("<+0545>-5:45".utf8))?.standard == period(20_700, "+0545"))
        // RFC 8536's extension: times of day past 24 h and below 0.
        let santiago = try #require(PosixZoneRule(Array("<-04>4<-03>,M9.1.6/24,M4.1.6/24".utf8)))
        #expect(santiago.daylight?.start == .init(day: .monthWeekday(month: 9, week: 1, weekday: 6), time: 86_400))
        let nuuk = try #require(PosixZoneRule(Array("<-02>2<-01>,M3.5.0/-1,M10.5.0/0".utf8)))
        #expect(nuuk.daylight?.start.time == -3_600)
        let julian = try #require(PosixZoneRule(Array("EST5EDT,J60/1:30:15,300".utf8)))
        #expect(julian.daylight?.start == .init(day: .julian(60), time: 5_415))
        #expect(julian.daylight?.end == .init(day: .zeroBased(300), time: 7_200))
    }

    @Test(arguments: ["", "PS8", "PST", "PST8PDT", "PST8PDT,M3.2.0", "PST8PDT,M13.2.0,M11.1.0", "PST8PDT,M3.6.0,M11.1.0",
                      "PST8PDT,M3.2.7,M11.1.0", "PST25", "<-03", "<-0>3", "PST8PDT,J0,J365", "PST8PDT,366,J1",
                      "PST8PDT,M3.2.0/168,M11.1.0", "PST8 ", "PST8PDT,M3.2.0,M11.1.0,", "PST8:60"])
    func malformedPosixRulesAreRejected(_ text: String) {
        #expect(PosixZoneRule(Array(text.utf8)) == nil)
    }

    /// Julian days skip February 29; zero-based days count it.
    @Test func ruleDaysInLeapYears() {
        let march1 = PosixZoneRule.Change(day: .julian(60), time: 0)
        #expect(march1.instant(in: 2024, utcOffset: 0) == CivilTime.days(year: 2024, month: 3, day: 1) * 86_400)
        #expect(march1.instant(in: 2023, utcOffset: 0) == CivilTime.days(year: 2023, month: 3, day: 1) * 86_400)
        let day59 = PosixZoneRule.Change(day: .zeroBased(59), time: 0)
        #expect(day59.instant(in: 2024, utcOffset: 0) == CivilTime.days(year: 2024, month: 2, day: 29) * 86_400)
        // The fifth Sunday of February 2026 does not exist: the last one, the 22nd.
        let lastSunday = PosixZoneRule.Change(day: .monthWeekday(month: 2, week: 5, weekday: 0), time: 3_600)
        #expect(lastSunday.instant(in: 2026, utcOffset: 3_600) == CivilTime.days(year: 2026, month: 2, day: 22) * 86_400)
    }

    @Test func civilTimeRoundTrips() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let time = CivilTime(secondsSinceEpoch: days * 86_400 + 3_661)
            #expect(CivilTime.days(year: time.year, month: time.month, day: time.day) == days)
            #expect(time.hour == 1 && time.minute == 1)
        }
        let beforeEpoch = CivilTime(secondsSinceEpoch: -1)
        let fields: [Int] = [beforeEpoch.year, beforeEpoch.month, beforeEpoch.day, beforeEpoch.hour, beforeEpoch.minute, beforeEpoch.weekday]
        #expect(fields == [1969, 12, 31, 23, 59, 3]) // a Wednesday
    }

    @Test(arguments: ["", "../../etc/passwd", "/etc/passwd", "America/../../../etc/passwd", "No/Such_Zone", "America"])
    func identifiersWithoutAZoneFileHaveNoHistory(_ identifier: String) {
        #expect(ZoneHistory(identifier: identifier) == nil)
    }

    @Test func malformedFilesAreRejectedWithoutCrashing() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ZoneHistory.systemDirectory + "/America/Los_Angeles")))
        #expect(ZoneHistory(tzif: bytes) != nil)
        #expect(ZoneHistory(tzif: []) == nil)
        #expect(ZoneHistory(tzif: Array("not a zone file".utf8)) == nil)
        // Version 1 (no 64-bit data).
        var version1 = bytes
        version1[4] = 0
        #expect(ZoneHistory(tzif: version1) == nil)
        // Every truncation fails; none crashes.
        for length in 0..<bytes.count {
            #expect(ZoneHistory(tzif: Array(bytes.prefix(length))) == nil, "truncated to \(length) bytes")
        }
        // Corrupt bytes anywhere: a history or nil, never a trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var corrupt = bytes
            for _ in 0..<3 { corrupt[Int.random(in: 0..<corrupt.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = ZoneHistory(tzif: corrupt)?.period(at: Int64.random(in: -10_000_000_000...10_000_000_000, using: &generator))
        }
    }
}
