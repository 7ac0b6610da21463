@testable import Astronomy
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing

/// The worked examples of Meeus, "Astronomical Algorithms" (2nd ed., 1998): published values
/// the implementation must reproduce to the digits the book prints.
@Suite struct MeeusExampleTests {
    /// Example 47.a: the Moon on 1992 April 12 at 0h TD (JDE 2448724.5).
    @Test func moonPositionExample47a() {
        let jde = 2448724.5
        let moon = MoonPosition(julianEphemerisDay: jde, earth: EarthOrientation(julianEphemerisDay: jde))
        #expect(abs(moon.longitude - 133.167265) < 0.0003)  // apparent λ, nutation included
        #expect(abs(moon.latitude - -3.229126) < 0.000001)
        #expect(abs(moon.distance - 368409.7) < 0.1)
        #expect(abs(moon.parallax - 0.991990) < 0.000001)
        #expect(abs(moon.equatorial.rightAscension - 134.688470) < 0.0003)
        #expect(abs(moon.equatorial.declination - 13.768368) < 0.0003)
    }

    /// Example 48.a: same instant, illuminated fraction k = 0.6786.
    @Test func illuminatedFractionExample48a() {
        #expect(abs(MoonIllumination.fraction(julianEphemerisDay: 2448724.5) - 0.6786) < 0.0001)
    }

    /// Example 49.a: the new moon of 1977 February, k = −283, JDE 2443192.65118
    /// (1977 February 18, 3h37m42s TD).
    @Test func newMoonExample49a() {
        #expect(abs(MoonPhases.julianEphemerisDay(k: -283, phase: .newMoon) - 2443192.65118) < 0.00001)
    }

    /// Example 49.b: the first last quarter of 2044, k = 544.75, JDE 2467636.49186.
    @Test func lastQuarterExample49b() {
        #expect(abs(MoonPhases.julianEphemerisDay(k: 544.75, phase: .lastQuarter) - 2467636.49186) < 0.00001)
    }

    /// Example 12.a: mean sidereal time at Greenwich, 1987 April 10, 0h UT = 13h10m46.3668s;
    /// the apparent time adds the equation of the equinoxes (−0.2317 s that day).
    @Test func siderealTimeExample12a() {
        let jd = 2446895.5
        let earth = EarthOrientation(julianEphemerisDay: jd)
        let expected = (13 + 10.0 / 60 + (46.3668 - 0.2317) / 3600) * 15
        #expect(abs(earth.apparentSiderealTime(julianDay: jd) - expected) < 0.0001)
    }
}

/// ΔT against published values: Morrison, Stephenson, Hohenkerk & Zawilski (2021, Table S15)
/// for 1900 (−2.0 s) and 1950 (+28.9 s), the IERS for 2000.0 (+63.83 s) and 2020.0 (+69.36 s).
/// (Espenak and Meeus's table, which the module used before, has −2.8 s for 1900.)
@Suite struct DeltaTTests {
    @Test(arguments: [(1900.0, -2.0), (1950.0, 28.9), (2000.0, 63.83), (2020.0, 69.36)])
    func tabulatedValues(year: Double, seconds: Double) {
        #expect(abs(TimeScale.deltaT(decimalYear: year) - seconds) < 0.1)
    }

    /// The extrapolation leaves the last tabulated value without a jump or a kink and ends on
    /// the long-term parabola.
    @Test func extrapolationJoinsTheTableAndTheParabola() {
        let last = DeltaT.table.first + Double(DeltaT.table.values.count - 1)
        let slope = (DeltaT.table.values.last ?? 0) - DeltaT.table.values[DeltaT.table.values.count - 2]
        #expect(abs(TimeScale.deltaT(decimalYear: last + 0.001) - TimeScale.deltaT(decimalYear: last - 0.001)) < 0.001)
        #expect(abs((TimeScale.deltaT(decimalYear: last + 1) - TimeScale.deltaT(decimalYear: last)) - slope) < 0.05)
        #expect(abs(TimeScale.deltaT(decimalYear: 2900) - (-320 + 32.5 * 10.75 * 10.75)) < 0.001)
        #expect(abs(TimeScale.deltaT(decimalYear: 2799.9999) - DeltaT.parabola(2799.9999)) < 0.001)
    }

    @Test func terrestrialTimeRunsAheadOfUniversalTime() throws {
        let date = try instant("2015-04-18T18:57:00Z")
        let jde = TimeScale.julianEphemerisDay(date)
        #expect(jde > TimeScale.julianDay(date))
        #expect(seconds(TimeScale.date(julianEphemerisDay: jde), date) < 0.001)
    }
}
