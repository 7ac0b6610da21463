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

    /// The sine of an angle that moves at `rate` and `acceleration` (radians per unit), with
    /// its derivatives. The sine is the library's; the cosine the derivatives need is taken
    /// from it (`otherOf`), half the cost of a second call, where the phase solver spends its
    /// time (scenario 1, docs/performance.md, "Issue 45").
    static func sine(of angle: Double, rate: Double, acceleration: Double) -> Motion {
        let s = sin(angle), c = otherOf(s, angle: angle, cosine: false)
        return Motion(value: s, rate: c * rate, acceleration: c * acceleration - s * rate * rate)
    }

    /// The cosine of such an angle, with its derivatives (the sine taken from it as above).
    static func cosine(of angle: Double, rate: Double, acceleration: Double) -> Motion {
        let c = cos(angle), s = otherOf(c, angle: angle, cosine: true)
        return Motion(value: c, rate: -s * rate, acceleration: -s * acceleration - c * rate * rate)
    }

    /// The cosine of `angle` from its sine (or, with `cosine`, the sine from its cosine): the
    /// root of 1 − x², signed by the quadrant. Only derivatives use it: near a zero it is off
    /// by up to ~10⁻⁸ (the root of a rounding), which moves a phase's rate by ~10⁻⁹ of itself.
    static func otherOf(_ known: Double, angle: Double, cosine: Bool) -> Double {
        let magnitude = max(0, 1 - known * known).squareRoot()
        let turn = 2 * Double.pi
        let reduced = angle - turn * (angle / turn).rounded()
        // reduced is in −π...π: the cosine is positive inside ±π/2, the sine above zero.
        let positive = cosine ? reduced >= 0 : abs(reduced) <= .pi / 2
        return positive ? magnitude : -magnitude
    }
}
