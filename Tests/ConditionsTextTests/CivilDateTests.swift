import ConditionsText
import Foundation
import Testing

/// The one civil date (WSDOT's snowfall days, Snowpack's PST days): what it accepts, and the
/// day an instant falls on at an offset.
@Suite struct CivilDateTests {
    @Test func readsOnlyRealISODates() {
        #expect(CivilDate(iso: "2024-02-29")?.longText == "Thu Feb 29 2024")
        #expect(CivilDate(iso: "2024-03-31")?.shortText == "Mar 31")
        for text in ["2023-02-29", "2024-13-01", "2024-00-10", "0000-01-01", "2024-3-31", "2024-03-31T00:00", " 2024-03-31", "２０２４-03-31", ""] {
            #expect(CivilDate(iso: text) == nil, "\(text)")
        }
    }

    @Test func ordinalsRoundTripAndOrder() throws {
        let epoch = try #require(CivilDate(year: 1970, month: 1, day: 1))
        #expect(epoch.ordinal == 0)
        let leap = try #require(CivilDate(iso: "2024-02-28"))
        #expect(leap.adding(days: 1).iso == "2024-02-29" && leap.adding(days: 2).iso == "2024-03-01")
        #expect(CivilDate(ordinal: leap.ordinal) == leap)
        #expect(CivilDate(ordinal: -1).iso == "1969-12-31")
        #expect(leap < leap.adding(days: 1))
    }

    @Test func theDayOfAnInstantAtAnOffset() throws {
        let instant = try #require(Timestamp.parse("2026-07-02T07:59:00Z"))
        #expect(CivilDate(instant, offsetSeconds: -8 * 3600).iso == "2026-07-01")
        #expect(CivilDate(instant.addingTimeInterval(60), offsetSeconds: -8 * 3600).iso == "2026-07-02")
        #expect(CivilDate(instant, offsetSeconds: 0).iso == "2026-07-02")
        #expect(CivilDate(Date(timeIntervalSince1970: -1), offsetSeconds: 0).iso == "1969-12-31")
    }
}
