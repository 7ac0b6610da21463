@testable import Astronomy
import Foundation
import Testing

/// The series compiled in (`SeriesTables`, written by scripts/series-swift.py) against the
/// text tables in Resources/ they were written from: a table edited without running the script
/// again fails here.
@Suite struct SeriesTablesTests {
    /// A text table of Sources/Resources, as the script reads it.
    static func text(_ name: String) throws -> SeriesText {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Resources/\(name)")
        return SeriesText(Array(try Data(contentsOf: file)))
    }

    @Test func theCompiledRowsAreTheTextsRowByRow() throws {
        for (name, compiled) in [("moon-elpmpp02.txt", SeriesTables.moon), ("sun-vsop87d.txt", SeriesTables.sun),
                                 ("delta-t.txt", SeriesTables.deltaT)] {
            let read = try Self.text(name).rows(), built = compiled.rows()
            #expect(read.count == built.count, "\(name)")
            for (index, (fromText, fromTable)) in zip(read, built).enumerated() where fromText != fromTable {
                Issue.record("\(name), row \(index + 1): \(fromText) in the text, \(fromTable) compiled")
                break
            }
            #expect(read.reduce(0) { $0 + $1.numbers.count } > 120, "\(name): numbers read")
        }
    }

    @Test(arguments: [-1.0, -0.25, 0, 0.2689, 0.5, 1.0])
    func bothGiveTheSameLongitudes(centuries: Double) throws {
        let moon = LunarLongitude(try Self.text("moon-elpmpp02.txt"))
        let sun = SolarLongitude(try Self.text("sun-vsop87d.txt"))
        #expect(moon.longitude(centuries: centuries) == LunarLongitude.shared.longitude(centuries: centuries))
        #expect(sun.apparentLongitude(centuries: centuries) == SolarLongitude.shared.apparentLongitude(centuries: centuries))
        #expect(moon.termCount == LunarLongitude.shared.termCount && sun.termCount == SolarLongitude.shared.termCount)
    }

    @Test func deltaTIsTheTextsTable() throws {
        let fromText = DeltaT.table(try Self.text("delta-t.txt"))
        #expect(fromText.first == 1900 && fromText.values.count > 120)
        #expect(fromText.first == DeltaT.table.first && fromText.values == DeltaT.table.values)
    }
}
