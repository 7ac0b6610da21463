import ConditionsText
@testable import ConditionsJSON
import Foundation
import Testing
import ConditionsKit

/// `JSONValue.parse(_:duplicateKeys:)`: config files reject repeated names, everything else
/// keeps reading them as before.
@Suite struct JSONDuplicateKeyTests {
    @Test func keepLastIsTheDefault() throws {
        let value = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == .int(3))
    }

    @Test func rejectNamesTheRepeatAndTheFirst() {
        let text = "{\"outer\": {\"a\": 1,\n  \"b\": [{\"a\": 2, \"c\": 3}],\n  \"a\": 4}}"
        #expect(throws: JSONParseError(reason: "duplicate member name \"a\" (first at line 1, column 12)", line: 3, column: 3)) {
            try JSONValue.parse(text, duplicateKeys: .reject)
        }
    }

    @Test func rejectComparesNamesAfterUnescaping() {
        #expect(throws: JSONParseError(reason: "duplicate member name \"k\" (first at line 1, column 2)", line: 1, column: 10)) {
            try JSONValue.parse(#"{"k": 1, "\u006b": 2}"#, duplicateKeys: .reject)
        }
    }

    @Test func rejectAllowsTheSameNameInDifferentObjects() throws {
        let text = #"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}], "c": {}}"#
        #expect(try JSONValue.parse(text, duplicateKeys: .reject) == JSONValue.parse(text))
    }
}

/// Dates outside the usual years: four-digit years throughout the supported range, the
/// proleptic Gregorian calendar both ways, and no year that reads as another.
@Suite struct TimestampYearTests {
    @Test(arguments: ["1000-01-01T00:00:00Z", "1200-03-01T00:00:00Z", "1582-10-10T12:00:00Z", "1600-02-29T23:59:59Z", "9999-12-31T23:59:59Z"])
    func earlyAndLateInstantsRoundTrip(_ text: String) throws {
        let date = try #require(Timestamp.parse(text))
        #expect(Timestamp.string(from: date) == text)
        #expect(Timestamp.supportedRange.contains(date))
    }

    @Test func theRangeIsItsText() {
        #expect(Timestamp.parse("1000-01-01T00:00:00Z") == Timestamp.supportedRange.lowerBound)
        #expect(Timestamp.parse("9999-12-31T23:59:59Z") == Timestamp.supportedRange.upperBound)
        #expect(Timestamp.supportedRangeText == "\(Timestamp.string(from: Timestamp.supportedRange.lowerBound)) to \(Timestamp.string(from: Timestamp.supportedRange.upperBound))")
    }

    @Test func yearsOutsideFourDigitsAreSignedNotMisread() throws {
        let yearOne = try #require(Timestamp.parse("0001-01-01T00:00:00Z"))
        #expect(Timestamp.string(from: yearOne) == "0001-01-01T00:00:00Z")
        #expect(!Timestamp.supportedRange.contains(yearOne))
        #expect(Timestamp.string(from: yearOne.addingTimeInterval(-366 * 86_400)) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.string(from: yearOne.addingTimeInterval(-367 * 86_400)) == "-0001-12-31T00:00:00Z")
        #expect(Timestamp.string(from: Timestamp.supportedRange.upperBound.addingTimeInterval(1)) == "+10000-01-01T00:00:00Z")
    }

    @Test func aDateBeforeTheGregorianReformIsReadInTheZonesMeanTime() throws {
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let date = try #require(Timestamp.parse("1000-01-01", timeZone: losAngeles))
        // Local mean time at Los Angeles: −7:52:58.
        #expect(Timestamp.string(from: date) == "1000-01-01T07:52:58Z")
        #expect(Timestamp.parse("1200-02-30") == nil)
        #expect(Timestamp.parse("1200-02-29") != nil, "1200 is a Gregorian leap year")
        #expect(Timestamp.parse("1100-02-29") == nil, "1100 is not, though it is a Julian one")
    }
}
