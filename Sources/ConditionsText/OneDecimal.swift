import Foundation

/// A number with one decimal, exactly as `String(format: "%.1f", x)` prints it (the binary
/// value rounded half to even), without `String(format:)`: its first use in a process looks
/// up `CVarArg` conformances in the whole binary, ~0.1 ms of a local answer that prints the
/// Moon's age (scenario 1, issue 45).
package enum OneDecimal {
    package static func text(_ value: Double) -> String {
        // For negatives (printf's "-0.0") and from 10¹⁴ (n ± ½ below must be exact doubles), printf itself.
        guard value >= 0, value < 1e14 else { return String(format: "%.1f", value) }
        // x·10 rounded to a double may sit on the wrong side of a half: decide with the exact
        // signs of x·10 − (n ± ½), which a fused multiply-add gives (its one rounding never
        // turns a nonzero difference to zero or flips its sign).
        var tenths = (value * 10).rounded(.toNearestOrEven)
        let odd = tenths.truncatingRemainder(dividingBy: 2) != 0
        let aboveHalf = (-(tenths + 0.5)).addingProduct(value, 10)
        let belowHalf = (-(tenths - 0.5)).addingProduct(value, 10)
        if aboveHalf > 0 || (aboveHalf == 0 && odd) {
            tenths += 1
        } else if belowHalf < 0 || (belowHalf == 0 && odd) {
            tenths -= 1
        }
        let whole = Int(tenths)
        return "\(whole / 10).\(whole % 10)"
    }
}
