import Foundation

/// Degree-based trigonometry: every formula in Meeus is written in degrees, so the code
/// reads like the book instead of being sprinkled with conversions.
enum Degrees {
    static let perRadian = 180.0 / Double.pi

    static func sin(_ degrees: Double) -> Double { Foundation.sin(degrees / perRadian) }
    static func cos(_ degrees: Double) -> Double { Foundation.cos(degrees / perRadian) }
    static func tan(_ degrees: Double) -> Double { Foundation.tan(degrees / perRadian) }
    static func asin(_ value: Double) -> Double { Foundation.asin(min(1, max(-1, value))) * perRadian }
    static func acos(_ value: Double) -> Double { Foundation.acos(min(1, max(-1, value))) * perRadian }
    static func atan2(_ y: Double, _ x: Double) -> Double { Foundation.atan2(y, x) * perRadian }

    /// `degrees` reduced to 0..<360.
    static func normalized(_ degrees: Double) -> Double {
        let reduced = degrees.truncatingRemainder(dividingBy: 360)
        return reduced < 0 ? reduced + 360 : reduced
    }
}
