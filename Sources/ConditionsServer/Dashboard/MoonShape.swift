import ConditionsKit
import Foundation

/// The lit part of the moon as an SVG path on a disc of radius `r` centred on the origin
/// (y pointing down, as in SVG).
///
/// The lit part is bounded by the limb (a half circle on the lit side) and the terminator,
/// which seen from Earth is half an ellipse with the disc's height and a half-width of
/// `r·|1 − 2k|` for a lit fraction `k`: it bulges towards the lit side for a crescent
/// (k < ½) and away from it for a gibbous moon (k > ½).
enum MoonShape {
    /// The path of the lit part; empty for a new moon, the whole disc for a full one.
    static func litPath(_ moon: MoonDrawing, radius r: Double) -> String {
        let k = moon.illuminated
        if k < 0.005 { return "" }
        if k > 0.995 { return "M0,\(n(-r))A\(n(r)),\(n(r)) 0 1 1 0,\(n(r))A\(n(r)),\(n(r)) 0 1 1 0,\(n(-r))Z" }
        let halfWidth = r * abs(1 - 2 * k)
        let crescent = k < 0.5
        // Arcs run from the top (0,-r) to the bottom (0,r) along the limb, then back along the
        // terminator. Sweep 1 is clockwise on screen: top → right → bottom.
        let limbSweep = moon.litOnRight ? 1 : 0
        // Back from the bottom to the top: through the lit side for a crescent, through the
        // dark side for a gibbous moon. Bottom → right → top is counter-clockwise (sweep 0).
        let throughRight = moon.litOnRight == crescent
        let terminatorSweep = throughRight ? 0 : 1
        return "M0,\(n(-r))A\(n(r)),\(n(r)) 0 0 \(limbSweep) 0,\(n(r))A\(n(halfWidth)),\(n(r)) 0 0 \(terminatorSweep) 0,\(n(-r))Z"
    }

    /// What a screen reader says for the drawing: `88% lit, lit on the right`.
    static func description(_ moon: MoonDrawing) -> String {
        let percent = Int((moon.illuminated * 100).rounded())
        if percent <= 0 { return "new moon, not lit" }
        if percent >= 100 { return "full moon, fully lit" }
        return "\(percent)% lit, lit on the \(moon.litOnRight ? "right" : "left")"
    }

    /// Two decimals at most, no trailing zeros: SVG numbers stay short.
    private static func n(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
