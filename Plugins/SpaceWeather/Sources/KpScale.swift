import Foundation

/// Kp in thirds (`5-`, `5`, `5+`) and the NOAA geomagnetic storm scale it maps to.
enum KpScale {
    /// The G-levels, 0 to 5, with NOAA's names (G0 is below storm level).
    static let names = ["below storm level", "minor storm", "moderate storm", "strong storm", "severe storm", "extreme storm"]

    /// Kp as a whole number of thirds, rounded to the nearest: SWPC writes thirds as two-place
    /// decimals (4.67), which are never exact.
    static func thirds(_ kp: Double) -> Int {
        Int((kp * 3).rounded())
    }

    /// `0`, `0+`, `1-`, … `5-` (4.67), `5` (5.00), `5+` (5.33), … `9`.
    static func text(_ kp: Double) -> String {
        let thirds = thirds(kp)
        let whole = thirds / 3
        switch thirds % 3 {
        case 1: return "\(whole)+"
        case 2: return "\(whole + 1)-"
        default: return "\(whole)"
        }
    }

    /// The G-level Kp reaches: 5- (4.67) and above is G1, 6- G2, 7- G3, 8- G4, 9- G5; below, 0.
    static func level(kp: Double) -> Int {
        // 5- is 14 thirds; each level is one whole Kp (3 thirds) above the last.
        let thirds = thirds(kp)
        guard thirds >= 14 else { return 0 }
        return min(5, (thirds - 14) / 3 + 1)
    }

    /// The level SWPC's `noaa_scale` names (`G0` … `G5`, any case); nil for anything else.
    static func level(scale: String) -> Int? {
        let text = scale.trimmingCharacters(in: .whitespaces).uppercased()
        guard text.count == 2, text.first == "G", let digit = text.last?.wholeNumberValue, (0...5).contains(digit) else { return nil }
        return digit
    }

    /// `G0` … `G5`.
    static func word(_ level: Int) -> String { "G\(level)" }
}
