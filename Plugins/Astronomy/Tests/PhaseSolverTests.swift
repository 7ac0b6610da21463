@testable import Astronomy
import Foundation
import Testing

/// The phase solver's Halley steps: the derivatives they use, and the roots they reach with
/// one summing of the series from Meeus's estimate.
@Suite struct PhaseSolverTests {
    /// Phase indices (lunations since 2000 × 4 + phase) over 1900–2100, every 7th.
    static let indices = Array(stride(from: -4_950, through: 4_950, by: 7))

    @Test func theDerivativesAreTheElongationsOwn() {
        for index in Self.indices {
            let (phase, jde) = MoonPhases.julianEphemerisDay(index: index)
            let target = Double(phase.rawValue) * .pi / 2
            let at = { (day: Double) in PhaseSolver.offset(julianEphemerisDay: day, target: target) }
            let f = at(jde)
            // Central differences (the offset is near zero here, so no wrap between the points).
            let h = 0.01
            let rate = (at(jde + h).value - at(jde - h).value) / (2 * h)
            let acceleration = (at(jde + h).value - 2 * f.value + at(jde - h).value) / (h * h)
            let rateDifference = abs(f.rate - rate) / f.rate
            #expect(rateDifference < 1e-6, "index \(index): rate \(f.rate) against \(rate)")
            #expect(abs(f.acceleration - acceleration) < 1e-3 * abs(f.rate), "index \(index): acceleration \(f.acceleration) against \(acceleration)")
            // The elongation grows 10–15° a day.
            #expect((0.17...0.27).contains(f.rate), "index \(index): \(f.rate) rad/day")
        }
    }

    @Test func oneStepFromMeeussEstimateReachesTheRoot() {
        for index in Self.indices {
            let lunation = index >= 0 ? index / 4 : -((-index + 3) / 4)
            let phase = PrincipalPhase(rawValue: index - lunation * 4) ?? .newMoon
            let estimate = MoonPhases.julianEphemerisDay(k: Double(lunation) + Double(phase.rawValue) / 4, phase: phase)
            let root = PhaseSolver.refine(estimate, phase: phase)
            let f = PhaseSolver.offset(julianEphemerisDay: root, target: Double(phase.rawValue) * .pi / 2)
            // What is left, in seconds of the elongation's motion: a JDE near 2,450,000 is itself
            // only good to ~4·10⁻⁵ s (its last bit), so two of those.
            #expect(abs(f.value / f.rate) * 86_400 < 1e-4, "index \(index): \(f.value / f.rate * 86_400) s from the root")
            #expect(abs(root - estimate) * 86_400 < 30, "index \(index): Meeus's estimate \((root - estimate) * 86_400) s off")
        }
    }

    @Test func aFarEstimateStillConverges() {
        // Six hours early: steps are checked until one is short.
        let (phase, jde) = MoonPhases.julianEphemerisDay(index: 1_000)
        let root = PhaseSolver.refine(jde - 0.25, phase: phase)
        #expect(abs(root - jde) * 86_400 < 1e-4)
    }
}

/// `Motion`: the cosine taken from a sine (and back) for the derivatives, and the calculus rules.
@Suite struct MotionTests {
    @Test func theOtherFunctionFromOneIsTheLibrarys() {
        var generator = SystemRandomNumberGenerator()
        // Large arguments as the series reach, and each quadrant's edges.
        var angles: [Double] = []
        for quarter in -8...8 {
            let edge = Double(quarter) * Double.pi / 2
            angles += [edge, edge.nextUp, edge.nextDown, edge + 1e-9, edge - 1e-9]
        }
        for _ in 0..<5_000 { angles.append(Double.random(in: -20_000...20_000, using: &generator)) }
        for angle in angles {
            #expect(abs(Motion.otherOf(sin(angle), angle: angle, cosine: false) - cos(angle)) < 1e-7, "cos \(angle)")
            #expect(abs(Motion.otherOf(cos(angle), angle: angle, cosine: true) - sin(angle)) < 1e-7, "sin \(angle)")
        }
    }

    @Test func productsAndPolynomialsFollowTheRules() {
        // (t²)(3 + t) at t = 2 is 20; its derivative 3·2t + 3t² = 24; its second 6 + 6t = 18.
        let square = Motion.polynomial([0, 0, 1], at: 2), linear = Motion.polynomial([3, 1], at: 2)
        let product = square * linear
        #expect(product.value == 20 && product.rate == 24 && product.acceleration == 18)
        let wave = Motion.sine(of: 1, rate: 2, acceleration: 3)
        #expect(abs(wave.value - sin(1)) < 1e-15)
        #expect(abs(wave.rate - 2 * cos(1)) < 1e-12 && abs(wave.acceleration - (3 * cos(1) - 4 * sin(1))) < 1e-12)
    }
}
