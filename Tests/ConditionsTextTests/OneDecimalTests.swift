import ConditionsText
import Foundation
import Testing

/// `OneDecimal` prints what `String(format: "%.1f")` prints, ties and near-ties included.
@Suite struct OneDecimalTests {
    @Test(arguments: [0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.95, 1.05, 2.675, 12.25, 12.35, 19.8, 29.53, 29.999, 0.04999999999999999,
                      0.9500000000000001, 1e-300, .leastNonzeroMagnitude, 123456.75, 999_999_999.95, 1e9, 12_345_678_901_234.65, 99_999_999_999_999.95, 1e14, 1e15, 1e20, -0.04, -1.25, .infinity, .nan])
    func theKnownHardCases(value: Double) {
        #expect(OneDecimal.text(value) == String(format: "%.1f", value), "\(value)")
    }

    @Test func manyValuesAndTheirNeighbours() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            // Halves and near-halves of tenths, where rounding goes wrong, and anything else.
            let tenths = Double(Int.random(in: 0..<400_000, using: &generator))
            for base in [(tenths + 0.5) / 10, Double.random(in: 0..<40_000, using: &generator)] {
                for value in [base.nextDown, base, base.nextUp] {
                    #expect(OneDecimal.text(value) == String(format: "%.1f", value), "\(value)")
                }
            }
        }
    }
}
