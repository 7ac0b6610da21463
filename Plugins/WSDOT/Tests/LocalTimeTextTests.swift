import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing
@testable import WSDOT

@Suite("Last-update text")
struct LocalTimeTextTests {
    let pacific = TimeZone(identifier: "America/Los_Angeles")!

    @Test("Pacific local text becomes UTC, daylight saving aware", arguments: [
        ("Saturday November 5, 1955 9:41 AM", "1955-11-05T17:41:00Z"),
        ("Saturday January 10, 2026 5:42 AM", "2026-01-10T13:42:00Z"),
        ("Friday, July 17, 2026 2:15 PM", "2026-07-17T21:15:00Z"),
        ("July 17, 2026 12:05 AM", "2026-07-17T07:05:00Z"),
        ("Jan 10, 2026 12:00 PM", "2026-01-10T20:00:00Z"),
        ("Sept. 3, 2026 6:00 a.m.", "2026-09-03T13:00:00Z"),
        ("11/21/2026 5:30 AM", "2026-11-21T13:30:00Z"),
        ("7/4/2026 17:45", "2026-07-05T00:45:00Z"),
        ("7/4/2026 5:45:30PM PDT", "2026-07-05T00:45:30Z"),
        ("Last updated: Sunday March 8, 2026 3:30 AM", "2026-03-08T10:30:00Z"),  // first hour of PDT
        ("Sunday March 8, 2026 1:30 AM", "2026-03-08T09:30:00Z"),  // last hour of PST
        ("2026-01-10T06:10:00-08:00", "2026-01-10T14:10:00Z"),
        ("Sunday November 1, 2026 1:30 AM", "2026-11-01T08:30:00Z"),  // repeated hour: the earlier (PDT) instant
        ("Sunday November 1, 2026 2:30 AM", "2026-11-01T10:30:00Z"),  // PST again
    ])
    func parses(text: String, expected: String) throws {
        let date = try #require(LocalTimeText.parse(text, timeZone: pacific))
        #expect(Timestamp.string(from: date) == expected)
    }

    @Test("the configured zone is used")
    func otherZone() throws {
        let date = try #require(LocalTimeText.parse("11/21/2026 5:30 AM", timeZone: .gmt))
        #expect(Timestamp.string(from: date) == "2026-11-21T05:30:00Z")
    }

    @Test("text that is not a time is refused", arguments: [
        "", "   ", "Not available", "November 5 9:41 AM", "Smarch 5, 2026 9:41 AM", "February 30, 2026 9:41 AM",
        "13/01/2026 9:41 AM", "11/21/26 5:30 AM", "11/21/2026 13:30 PM", "11/21/2026 5:75 AM", "11/21/2026", "11/21/2026 5:30 AM extra",
        "11/-1/2026 5:30 AM", "11/21/+202 5:30 AM", "11/21/2026 -1:30", "11/21/2026 5:-5 AM", "11/21/2026 5: 30 AM",
    ])
    func refuses(text: String) {
        #expect(LocalTimeText.parse(text, timeZone: pacific) == nil)
    }
}
