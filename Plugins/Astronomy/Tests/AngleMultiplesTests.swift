@testable import Astronomy
import Foundation
import Testing

/// `MoonPosition.Multiples`: the sines and cosines of a term's argument by angle addition agree
/// with calling sin and cos on the whole argument, as the position summed them before.
@Suite struct AngleMultiplesTests {
    @Test func multiplesAndTheirSumsAgreeWithTheCalls() {
        // Arguments as large as the fundamental ones grow over 1900–2100 (M′ reaches ~500,000°).
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let angles = (0..<4).map { _ in Double.random(in: -600_000...600_000, using: &generator) }
            let tables = angles.map(MoonPosition.Multiples.init)
            let k = (0..<4).map { _ in Int.random(in: -4...4, using: &generator) }
            var turn = tables[0][k[0]]
            for i in 1..<4 { turn = MoonPosition.Multiples.sum(turn, tables[i][k[i]]) }
            let argument = (0..<4).reduce(0.0) { $0 + Double(k[$1]) * angles[$1] }
            // The whole argument itself is only good to its last bit, ~1e-10° at 2,000,000°.
            #expect(abs(turn.sin - Degrees.sin(argument)) < 1e-9, "\(angles) \(k)")
            #expect(abs(turn.cos - Degrees.cos(argument)) < 1e-9, "\(angles) \(k)")
        }
    }

    @Test func negativeMultiplesTurnTheOtherWay() {
        let table = MoonPosition.Multiples(30)
        #expect(abs(table[-1].sin + 0.5) < 1e-15 && abs(table[-1].cos - 3.0.squareRoot() / 2) < 1e-15)
        #expect(table[0] == (1, 0))
        #expect(abs(table[3].sin - 1) < 1e-15 && abs(table[-3].sin + 1) < 1e-15)
    }
}
