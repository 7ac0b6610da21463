@testable import Astronomy
import Foundation
import Testing

/// The series compiled in (`SeriesTables`, written by scripts/series-swift.py) against the
/// text tables in Resources/ they were written from: a table edited without running the script
/// again fails here.
@Suite struct SeriesTablesTests {
    @Test func theCompiledRowsAreTheTextsRowByRow() {
        for (name, text, compiled) in [("moon-elpmpp02.txt", PackageResources.moon_elpmpp02_txt, SeriesTables.moon),
                                       ("sun-vsop87d.txt", PackageResources.sun_vsop87d_txt, SeriesTables.sun)] {
            let read = SeriesText(text).rows(), built = compiled.rows()
            #expect(read.count == built.count, "\(name)")
            for (index, (fromText, fromTable)) in zip(read, built).enumerated() where fromText != fromTable {
                Issue.record("\(name), row \(index + 1): \(fromText) in the text, \(fromTable) compiled")
                break
            }
            #expect(read.reduce(0) { $0 + $1.numbers.count } > 400, "\(name): numbers read")
        }
    }

    @Test(arguments: [-1.0, -0.25, 0, 0.2689, 0.5, 1.0])
    func bothGiveTheSameLongitudes(centuries: Double) {
        let moon = LunarLongitude(SeriesText(PackageResources.moon_elpmpp02_txt))
        let sun = SolarLongitude(SeriesText(PackageResources.sun_vsop87d_txt))
        #expect(moon.longitude(centuries: centuries) == LunarLongitude.shared.longitude(centuries: centuries))
        #expect(sun.apparentLongitude(centuries: centuries) == SolarLongitude.shared.apparentLongitude(centuries: centuries))
        #expect(moon.termCount == LunarLongitude.shared.termCount && sun.termCount == SolarLongitude.shared.termCount)
    }
}
