import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// Kp in thirds and the G-scale: SWPC's `noaa_scale` when it gives one, else from Kp.
@Suite struct ScaleTests {
    @Test(arguments: [(0.0, "0"), (0.33, "0+"), (0.67, "1-"), (1.0, "1"), (2.33, "2+"), (3.67, "4-"), (4.67, "5-"), (5.0, "5"),
                      (5.33, "5+"), (5.67, "6-"), (8.67, "9-"), (9.0, "9"), (4.6, "5-"), (4.5, "5-"), (4.49, "4+")])
    func thirds(kp: Double, text: String) {
        #expect(KpScale.text(kp) == text)
    }

    // Kp is read in thirds first, so the level always agrees with the text: 4.5 is 5- (G1), 4.49 4+.
    @Test(arguments: [(0.0, 0), (4.33, 0), (4.49, 0), (4.5, 1), (4.67, 1), (5.0, 1), (5.33, 1), (5.67, 2), (6.33, 2), (6.67, 3), (7.67, 4), (8.33, 4), (8.67, 5), (9.0, 5)])
    func levelFromKp(kp: Double, level: Int) {
        #expect(KpScale.level(kp: kp) == level)
    }

    @Test func scaleWords() {
        #expect(["G0", "G1", "g5", " G3 "].map(KpScale.level(scale:)) == [0, 1, 5, 3])
        #expect(["G6", "G", "S1", "", "G1+"].map(KpScale.level(scale:)) == [nil, nil, nil, nil, nil])
    }

    /// SWPC's `noaa_scale` wins over Kp (a G2 it says at 5-); null or a word it never sends
    /// leaves the level to Kp.
    @Test func noaaScaleIsPreferred() throws {
        let forecast = try KpSeries(document: try JSONValue.parse(#"""
            [["time_tag","kp","observed","noaa_scale"],["2026-02-05 00:00:00","4.67","predicted","G2"],["2026-02-05 03:00:00","5.33","predicted",null],
             ["2026-02-05 06:00:00","6.00","predicted","X9"],["2026-02-05 09:00:00","2.00","predicted","G0"]]
            """#), what: "t", source: "t")
        #expect(forecast.periods.map(\.level) == [2, 1, 2, 0])
    }

    /// The real G1 periods: SWPC's word and Kp agree.
    @Test func realG1Periods() throws {
        let forecast = try series(Body.forecastOld)
        let g1 = forecast.periods.filter { $0.level >= 1 }
        #expect(g1.map(\.kp) == [5.33, 4.67])
        #expect(g1.map(\.scale) == [1, 1])
        #expect(g1.map { KpScale.text($0.kp) } == ["5+", "5-"])
    }
}
