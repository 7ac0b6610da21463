import Foundation

/// A quantity at an instant with its first and second derivatives in time (per the unit the
/// caller's time is in): what the phase solver's Halley steps need from each longitude.
struct Motion {
    var value: Double
    var rate: Double
    var acceleration: Double

    static let zero = Motion(value: 0, rate: 0, acceleration: 0)

    static func + (lhs: Motion, rhs: Motion) -> Motion {
        Motion(value: lhs.value + rhs.value, rate: lhs.rate + rhs.rate, acceleration: lhs.acceleration + rhs.acceleration)
    }

    static func - (lhs: Motion, rhs: Motion) -> Motion {
        Motion(value: lhs.value - rhs.value, rate: lhs.rate - rhs.rate, acceleration: lhs.acceleration - rhs.acceleration)
    }

    /// `lhs` times `rhs`, by the product rule.
    static func * (lhs: Motion, rhs: Motion) -> Motion {
        Motion(value: lhs.value * rhs.value, rate: lhs.rate * rhs.value + lhs.value * rhs.rate,
               acceleration: lhs.acceleration * rhs.value + 2 * lhs.rate * rhs.rate + lhs.value * rhs.acceleration)
    }

    /// The same motion against time counted in units `scale` times as long (per century
    /// from per millennium: 0.1).
    func perUnit(_ scale: Double) -> Motion {
        Motion(value: value, rate: rate * scale, acceleration: acceleration * scale * scale)
    }

    /// `c₀ + c₁t + c₂t² + …` at `t`, with its derivatives.
    static func polynomial(_ coefficients: [Double], at t: Double) -> Motion {
        var result = Motion.zero
        for coefficient in coefficients.reversed() {
            // Horner: result = result · t + coefficient, with t's own rate 1.
            result = Motion(value: result.value * t + coefficient, rate: result.rate * t + result.value,
                            acceleration: result.acceleration * t + 2 * result.rate)
        }
        return result
    }

    /// The sine and cosine of an angle that moves at `rate` and `acceleration` (radians per
    /// unit): sin's derivatives, then cos's.
    static func sineAndCosine(of angle: Double, rate: Double, acceleration: Double) -> (sin: Motion, cos: Motion) {
        let s = sin(angle), c = cos(angle)
        let rate2 = rate * rate
        return (Motion(value: s, rate: c * rate, acceleration: c * acceleration - s * rate2),
                Motion(value: c, rate: -s * rate, acceleration: -s * acceleration - c * rate2))
    }
}
