@testable import Astronomy
import Foundation
import Testing

/// Every principal phase from December 1899 to the end of 2100 against JPL's DE421, as
/// Skyfield 1.55 finds them (Tests/Resources/phases-de421.csv, written by
/// scripts/phases-reference.py; its header names the versions).
@Suite struct PhaseAccuracyTests {
    struct Reference {
        let phase: PrincipalPhase
        /// TT, Julian ephemeris day.
        let jde: Double
        /// Skyfield's ΔT at that instant, seconds.
        let deltaT: Double
        var year: Double { 2000 + (jde - TimeScale.j2000) / 365.25 }
    }

    static let references: [Reference] = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Resources/phases-de421.csv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 3, let phase = PrincipalPhase(rawValue: Int(fields[0])) else { return nil }
            return Reference(phase: phase, jde: TimeScale.j2000 + fields[1] / 10 / 86400, deltaT: fields[2] / 10)
        }
    }()

    /// The index (as `MoonPhases.event(index:)` numbers them) of the phase nearest `reference`.
    static func index(of reference: Reference) -> Int {
        let quarters = (reference.jde - MoonPhases.epoch) / MoonPhases.synodicMonth * 4
        var index = Int(quarters.rounded())
        let offset = ((reference.phase.rawValue - index) % 4 + 4) % 4
        index += offset == 3 ? -1 : offset
        return index
    }

    /// The largest |error| per decade, as "1900s 1.2 s, 1910s …", and the overall largest.
    static func byDecade(_ errors: [(year: Double, seconds: Double)]) -> (worst: Double, report: String) {
        var decades: [Int: Double] = [:]
        for (year, seconds) in errors {
            let decade = Int((year / 10).rounded(.down)) * 10
            decades[decade] = max(decades[decade] ?? 0, abs(seconds))
        }
        let report = decades.keys.sorted().map { "\($0)s \(String(format: "%.1f", decades[$0] ?? 0)) s" }.joined(separator: ", ")
        return (decades.values.max() ?? .infinity, report)
    }

    @Test func theReferenceCoversTwoCenturies() throws {
        let references = Self.references
        #expect(references.count > 9900)
        let first = try #require(references.first), last = try #require(references.last)
        #expect(first.year < 1900 && last.year > 2100.9)
        // No phase skipped or repeated: consecutive rows are consecutive indices.
        for (earlier, later) in zip(references, references.dropFirst()) {
            #expect(Self.index(of: later) == Self.index(of: earlier) + 1)
        }
    }

    @Test func everyPhaseWithinTenSecondsInTerrestrialTime() async {
        let (errors, misnamed) = await offPool { () -> ([(year: Double, seconds: Double)], Int) in
            var errors: [(year: Double, seconds: Double)] = []
            var misnamed = 0
            for reference in Self.references {
                let (phase, jde) = MoonPhases.julianEphemerisDay(index: Self.index(of: reference))
                if phase != reference.phase { misnamed += 1 }
                errors.append((reference.year, (jde - reference.jde) * 86400))
            }
            return (errors, misnamed)
        }
        #expect(misnamed == 0, "phases named differently from the reference")
        let (worst, report) = Self.byDecade(errors)
        #expect(errors.count == Self.references.count && worst <= 10, "max |TT − DE421| by decade: \(report)")
    }

    /// Civil time through 2025, where ΔT is observed: the instants `event(index:)` reports
    /// (rounded to the second) against Skyfield's UT1.
    @Test func observedEraWithinTenSecondsInUniversalTime() async {
        let errors = await offPool { () -> [(year: Double, seconds: Double)] in
            var errors: [(year: Double, seconds: Double)] = []
            for reference in Self.references where reference.year < 2026 {
                let event = MoonPhases.event(index: Self.index(of: reference))
                let universal = TimeScale.date(julianDay: reference.jde - reference.deltaT / 86400)
                errors.append((reference.year, event.date.timeIntervalSince(universal)))
            }
            return errors
        }
        let (worst, report) = Self.byDecade(errors)
        #expect(errors.count > 6000 && worst <= 10, "max |UT − DE421 with Skyfield's ΔT| by decade: \(report)")
    }

    /// The yearly ΔT table, interpolated, against Skyfield's daily series at each phase.
    @Test func deltaTFollowsTheObservedSeries() {
        var worst = 0.0
        for reference in Self.references where reference.year >= 1900 && reference.year < 2026 {
            let year = TimeScale.decimalYear(julianDay: reference.jde - reference.deltaT / 86400)
            worst = max(worst, abs(TimeScale.deltaT(decimalYear: year) - reference.deltaT))
        }
        #expect(worst < 0.2, "max |ΔT − Skyfield's| 1900–2025: \(worst) s")
    }

    @Test func seriesResourcesParse() {
        #expect(LunarLongitude.shared.main.amplitudes.count == 218)
        #expect(LunarLongitude.shared.termCount == 488)
        #expect(SolarLongitude.shared.termCount == 147)
        #expect(DeltaT.table.first == 1900 && DeltaT.table.values.count == 128)
    }
}
