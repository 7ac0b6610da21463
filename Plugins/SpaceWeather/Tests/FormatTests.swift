import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// SWPC's two forms of the Kp products, told apart by shape, on the real bodies.
@Suite struct FormatTests {
    @Test func oldFormKIndex() throws {
        let kp = try series(Body.kpOld)
        #expect(kp.format == .old)
        #expect(kp.skipped == 0)
        #expect(kp.periods.count == 62)
        #expect(kp.periods.first == KpPeriod(time: Timestamp.parse("2026-02-02T00:00:00Z")!, kp: 2.33, kind: nil, scale: nil))
        #expect(kp.periods.last?.time == Timestamp.parse("2026-02-09T15:00:00Z"))
        #expect(kp.periods.last?.kp == 2)
        #expect(kp.periods.map(\.kp).max() == 5.33)
    }

    @Test func oldFormForecast() throws {
        let forecast = try series(Body.forecastOld)
        #expect(forecast.format == .old)
        #expect(forecast.periods.count == 81)
        #expect(Set(forecast.periods.compactMap(\.kind)) == ["observed", "estimated", "predicted"])
        #expect(forecast.periods.filter { $0.kind == "predicted" }.first?.time == Timestamp.parse("2026-02-10T00:00:00Z"))
        // noaa_scale is read where SWPC gives it: the two G1 periods of 2026-02-05.
        #expect(forecast.periods.filter { $0.scale != nil }.map { Timestamp.string(from: $0.time) } == ["2026-02-05T03:00:00Z", "2026-02-05T06:00:00Z"])
    }

    @Test func newFormKIndex() throws {
        let kp = try series(Body.kpNew)
        #expect(kp.format == .new)
        #expect(kp.skipped == 0)
        #expect(kp.periods.first == KpPeriod(time: Timestamp.parse("2026-08-24T00:00:00Z")!, kp: 2.33, kind: nil, scale: nil))
        #expect(kp.periods.last == KpPeriod(time: Timestamp.parse("2026-08-31T09:00:00Z")!, kp: 3.33, kind: nil, scale: nil))
        #expect(kp.periods.count == 60)
    }

    /// The same forecast in both forms reads the same, period for period.
    @Test func bothFormsOfOneForecastReadTheSame() throws {
        let old = try series(Body.forecastOld)
        let new = try series(Body.forecastReshaped)
        #expect(new.format == .new)
        #expect(new.periods == old.periods)
    }

    /// `Kp` or `kp`, strings or numbers, whichever the object has.
    @Test func newFormTakesEitherSpellingOfKp() throws {
        let upper = try KpSeries(document: try JSONValue.parse(#"[{"time_tag": "2026-08-31T00:00:00", "Kp": 4.67}]"#), what: "t", source: "t")
        let lower = try KpSeries(document: try JSONValue.parse(#"[{"time_tag": "2026-08-31T00:00:00", "kp": "4.67", "observed": "predicted", "noaa_scale": "G1"}]"#), what: "t", source: "t")
        #expect(upper.periods == [KpPeriod(time: Timestamp.parse("2026-08-31T00:00:00Z")!, kp: 4.67, kind: nil, scale: nil)])
        #expect(lower.periods == [KpPeriod(time: Timestamp.parse("2026-08-31T00:00:00Z")!, kp: 4.67, kind: "predicted", scale: 1)])
    }

    /// A row without a time, with Kp not a number or outside 0…9, or of the other form is
    /// skipped and counted; the rest are read, and none of them as Kp 0.
    @Test func malformedRowsAreSkippedAndCounted() throws {
        let old = try KpSeries(document: try JSONValue.parse(#"""
            [["time_tag","Kp","a_running","station_count"],["2026-02-02 00:00:00.000","2.33","9","8"],["2026-02-02 03:00:00.000","","12","8"],
             ["2026-02-02 06:00:00.000","-1","5","8"],["not a time","1.00","4","8"],{"time_tag":"2026-02-02 12:00:00.000","Kp":"1.00"},["2026-02-02 15:00:00.000"],
             ["2026-02-02 18:00:00.000","nan","5","8"],["2026-02-02 21:00:00.000",9.5,"5","8"],["2026-02-03 00:00:00.000",3,"5","8"]]
            """#), what: "t", source: "t")
        #expect(old.periods.map(\.kp) == [2.33, 3])
        #expect(old.skipped == 7)
        let new = try KpSeries(document: try JSONValue.parse(#"[{"time_tag":"2026-08-31T00:00:00","Kp":null},["2026-08-31 03:00:00","1"],{"time_tag":"2026-08-31T06:00:00","Kp":1.33},{"Kp":2}]"#), what: "t", source: "t")
        #expect(new.periods.map(\.kp) == [1.33])
        #expect(new.skipped == 3)
    }

    @Test func unreadableDocumentsAreOneLineErrors() throws {
        let cases: [(String, ErrorKind, String)] = [
            ("[]", .notFound, "src: the planetary K-index is an empty array (SWPC lists no periods)"),
            (#"{"Kp": 2}"#, .badResponse, "src: the planetary K-index is a JSON object, not the array SWPC sends"),
            (#"[["time","value"],["2026-02-02","1"]]"#, .badResponse, "src: the planetary K-index is an array of arrays whose first row is not SWPC's header (time_tag, Kp, …)"),
            (#"["2026-02-02", 1]"#, .badResponse, "src: the planetary K-index is an array of strings, neither SWPC's arrays with a header row nor its objects"),
            (#"[["time_tag","Kp"],["x","y"]]"#, .badResponse, "src: the planetary K-index has no readable period among its 2 rows"),
        ]
        for (body, kind, message) in cases {
            let error = #expect(throws: ConditionsError.self) {
                try KpSeries(document: try JSONValue.parse(body), what: "the planetary K-index", source: "src")
            }
            #expect(error?.kind == kind, "\(body)")
            #expect(error?.message == message)
        }
    }
}
