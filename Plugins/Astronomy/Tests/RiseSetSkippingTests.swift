@testable import Astronomy
import Foundation
import Testing

/// `MoonRiseSet.crossings` skips the steps in which the Moon's altitude cannot reach the
/// horizon; it must find exactly what sampling every step finds.
@Suite struct RiseSetSkippingTests {
    @Test(arguments: [(47.6097, -122.3331), (69.6492, 18.9553), (-33.8688, 151.2093), (0.0, 0.0), (78.22, 15.65), (-77.85, 166.67)])
    func skippingFindsWhatEveryStepFinds(latitude: Double, longitude: Double) throws {
        var start = try instant("2026-01-01T00:00:00Z")
        for _ in 0..<120 {
            let end = start.addingTimeInterval(86_400)
            for firstOfEach in [true, false] {
                let skipped = MoonRiseSet.crossings(from: start, to: end, latitude: latitude, longitude: longitude, firstOfEach: firstOfEach)
                let sampled = MoonRiseSet.crossings(from: start, to: end, latitude: latitude, longitude: longitude,
                                                    firstOfEach: firstOfEach, skipping: false)
                #expect(skipped == sampled, "\(latitude), \(longitude), \(start)")
            }
            start.addTimeInterval(3 * 86_400 + 3_600)
        }
    }

    @Test func theAltitudeMovesNoFasterThanTheBoundAllows() throws {
        // Sampled every two minutes for a month at the equator, where it moves fastest, and high up.
        for latitude in [0.0, 60.0, 89.0] {
            var date = try instant("2026-03-01T00:00:00Z")
            var previous = MoonRiseSet.limbAltitude(at: date, latitude: latitude, longitude: 0)
            var fastest = 0.0
            for _ in 0..<(30 * 24 * 30) {
                date.addTimeInterval(120)
                let altitude = MoonRiseSet.limbAltitude(at: date, latitude: latitude, longitude: 0)
                fastest = max(fastest, abs(altitude - previous))
                previous = altitude
            }
            #expect(fastest * 5 < MoonRiseSet.maximumChange, "\(latitude)°: \(fastest * 5)° in a step")
        }
    }
}
