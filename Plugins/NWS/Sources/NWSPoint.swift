import ConditionsHelpers
import ConditionsKit
import Foundation

/// A point as NWS wants it in a URL: at most four decimals and no trailing zeros
/// (`47.745,-121.0933`, `30,-85`). More decimals, or a zero at the end, earn a 301 with a
/// problem body (`AdjustPointPrecision`, `AdjustTrailingZeroRedundancy`) instead of an answer.
struct NWSPoint: Sendable, Hashable {
    /// The latitude, rounded to four decimals.
    let latitude: Double
    /// The longitude, rounded to four decimals.
    let longitude: Double

    init(latitude: Double, longitude: Double) {
        self.latitude = Self.rounded(latitude)
        self.longitude = Self.rounded(longitude)
    }

    /// `latitude,longitude` as sent.
    var text: String { "\(Self.format(latitude)),\(Self.format(longitude))" }

    /// `value` to four decimals (about 11 m), halves away from zero.
    static func rounded(_ value: Double) -> Double {
        (value * 10_000).rounded(.toNearestOrAwayFromZero) / 10_000
    }

    /// `value` with at most four decimals and no trailing zeros: `47.7`, `-121.0933`, `30`.
    static func format(_ value: Double) -> String {
        var text = String(format: "%.4f", rounded(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}

extension PlacePoint {
    /// The point as sent to NWS.
    var nwsPoint: NWSPoint { NWSPoint(latitude: latitude, longitude: longitude) }
}
