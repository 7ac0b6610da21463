@testable import ConditionsText
import Foundation
import Testing


/// ISO 8601 in and out: every date in output is `yyyy-MM-ddTHH:mm:ssZ`.
@Suite struct TimestampTests {
    /// 2026-11-21T14:05:00Z.
    private let reference = Date(timeIntervalSince1970: 1_795_269_900)
    private let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    @Test func calendarDateIsMidnightInTheGivenZone() {
        #expect(Timestamp.parse("2026-11-21") == Date(timeIntervalSince1970: 1_795_219_200))
        // Pacific Standard Time in November: midnight is 08:00 UTC.
        #expect(Timestamp.parse("2026-11-21", timeZone: losAngeles) == Date(timeIntervalSince1970: 1_795_248_000))
        // Pacific Daylight Time in July: midnight is 07:00 UTC.
        #expect(Timestamp.parse("2026-07-01", timeZone: losAngeles) == Date(timeIntervalSince1970: 1_782_889_200))
    }

    @Test(arguments: [
        "2026-11-21T14:05:00Z",
        "2026-11-21T14:05:00z",
        "2026-11-21T14:05Z",
        "2026-11-21 14:05:00Z",
        "2026-11-21T06:05:00-08:00",
        "2026-11-21T06:05-0800",
        "2026-11-21T19:35:00+05:30",
        "2026-11-21T19:35:00+0530",
        "2026-11-21T14:05:00+00:00",
        "2026-11-22T03:05:00+13:00",
        "2026-11-21T1405Z",
        "2026-11-21T140500Z",
        "2026-11-21T060500-0800",
        "2026-11-21T19:05+05",
    ])
    func dateTimesWithOffsets(text: String) {
        #expect(Timestamp.parse(text, timeZone: losAngeles) == reference)
    }

    @Test func dateTimeWithoutOffsetIsReadInTheGivenZone() {
        #expect(Timestamp.parse("2026-11-21T14:05:00") == reference)
        #expect(Timestamp.parse("2026-11-21T06:05:00", timeZone: losAngeles) == reference)
    }

    @Test func hourOnly() {
        #expect(Timestamp.parse("2026-11-21T14Z") == reference.addingTimeInterval(-300))
        #expect(Timestamp.parse("2026-11-21T14") == reference.addingTimeInterval(-300))
    }

    @Test func fractionalSeconds() throws {
        #expect(try #require(Timestamp.parse("2026-11-21T14:05:00.25Z")).timeIntervalSince(reference) == 0.25)
        #expect(try #require(Timestamp.parse("2026-11-21T14:05:00.5-00:00")).timeIntervalSince(reference) == 0.5)
        #expect(try #require(Timestamp.parse("2026-11-21T140500,5Z")).timeIntervalSince(reference) == 0.5)
        let nanos = try #require(Timestamp.parse("2026-11-21T14:05:00.123456789Z"))
        #expect(abs(nanos.timeIntervalSince(reference) - 0.123456789) < 1e-6)
    }

    @Test func leapDay() {
        #expect(Timestamp.parse("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(Timestamp.parse("2026-02-29") == nil)
    }

    @Test(arguments: [
        "2026-02-30", "2026-04-31", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-32",
        "2026-11-21T24:00:00Z", "2026-11-21T14:60:00Z", "2026-11-21T14:05:60Z",
        "2026-11-21T14:05:00+2400", "2026-11-21T14:05:00+05:60", "2026-11-21T14:05:00+5:30",
        "2026-11-21T14:05:00.Z", "2026-11-21T14:05:00.1234567890Z", "2026-11-21T1", "2026-11-21T14:5",
        "2026-11-21T14:05:00+5", "2026-11-21T2405Z", "2026-11-21T1460Z",
        "garbage", "", "2026-11-21T", "2026/11/21", " 2026-11-21", "2026-11-21 ", "26-11-21",
        "2026-1-21", "2026-11-21T14:05:00ZZ", "2026-11-21T14:05:00 PST", "١٢٣٤-11-21",
    ])
    func rejected(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func formatsUTCToTheSecond() {
        #expect(Timestamp.string(from: reference) == "2026-11-21T14:05:00Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_709_164_800 - 1)) == "2024-02-28T23:59:59Z")
    }

    @Test func formattingDropsFractionalSeconds() {
        #expect(Timestamp.string(from: reference.addingTimeInterval(0.25)) == "2026-11-21T14:05:00Z")
        #expect(Timestamp.string(from: reference.addingTimeInterval(0.999)) == "2026-11-21T14:05:00Z")
    }

    @Test func formatHasTheDocumentedShape() {
        let text = Timestamp.string(from: Date(timeIntervalSince1970: 1_234_567_890.5))
        #expect(text.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/#) != nil)
    }

    @Test func roundTrip() throws {
        for seconds in stride(from: 0.0, to: 4_000_000_000, by: 123_456_789) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(Timestamp.parse(Timestamp.string(from: date)) == date)
        }
    }
}
