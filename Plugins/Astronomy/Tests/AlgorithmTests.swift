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

/// ΔT against the values tabulated by Espenak and Meeus from observations
/// (NASA/TP-2006-214141, table 1): 1900 −2.8 s, 1950 +29.1 s, 2000 +63.8 s.
@Suite struct DeltaTTests {
    @Test(arguments: [(1900.0, -2.8), (1950.0, 29.1), (2000.0, 63.8)])
    func tabulatedValues(year: Double, seconds: Double) {
        #expect(abs(TimeScale.deltaT(decimalYear: year) - seconds) < 0.5)
    }

    @Test func terrestrialTimeRunsAheadOfUniversalTime() throws {
        let date = try instant("2015-04-18T18:57:00Z")
        let jde = TimeScale.julianEphemerisDay(date)
        #expect(jde > TimeScale.julianDay(date))
        #expect(seconds(TimeScale.date(julianEphemerisDay: jde), date) < 0.001)
    }
}
