import ConditionsFigures
import ConditionsKit
import Foundation

/// The moon's lit part as an observer sees it: how much is lit, and on which side.
///
/// Seen from the northern hemisphere a waxing moon is lit on the right and a waning one on the
/// left; from the southern hemisphere the moon appears upside down, so the sides swap.
public struct MoonDrawing: Sendable, Equatable {
    /// The lit fraction of the disc, 0 (new) … 1 (full).
    public var illuminated: Double
    /// Whether the moon is waxing (new → full) rather than waning.
    public var waxing: Bool
    /// Whether the observer is south of the equator.
    public var southern: Bool

    /// A moon `illuminated` (clamped to 0…1), `waxing` or not, seen from the `southern` hemisphere or not.
    public init(illuminated: Double, waxing: Bool, southern: Bool) {
        self.illuminated = illuminated.isFinite ? min(1, max(0, illuminated)) : 0
        self.waxing = waxing
        self.southern = southern
    }

    /// Whether the lit side is on the observer's right.
    public var litOnRight: Bool { waxing != southern }

    /// The moon as a square `rem` wide (a card's: 9; a row's, beside its text: 1.25): a dark
    /// disc, its lit part, and a rim, on axes of −50…50 so the disc's radius is 48.
    public func drawing(rem: Double) -> Drawing {
        Drawing(title: description, summary: "The Moon as seen from the \(southern ? "southern" : "northern") hemisphere: \(description).",
                frame: .square(rem: rem), x: -50...50, y: -50...50, marks: [
                    .init(.circle(.init(x: 0, y: 0), radius: Self.radius), ink: .dark),
                    .init(.path(litPath), ink: .lit),
                    // The rim over the disc's edge: 2 units wide, centred on its radius.
                    .init(.arc(center: .init(x: 0, y: 0), radii: (Self.radius - 1)...(Self.radius + 1), degrees: 0...360), ink: .rim),
                ])
    }

    /// What a screen reader says for the drawing: `88% lit, lit on the right`.
    public var description: String {
        let percent = Int((illuminated * 100).rounded())
        if percent <= 0 { return "new moon, not lit" }
        if percent >= 100 { return "full moon, fully lit" }
        return "\(percent)% lit, lit on the \(litOnRight ? "right" : "left")"
    }

    /// The disc's radius on the drawing's axes, its rim around it.
    static let radius = 48.0

    /// The lit part as path data in the drawing's unit box (centre ½, ½; y down), bounded by
    /// the limb (a half circle on the lit side) and the terminator, which seen from Earth is
    /// half an ellipse with the disc's height and a half-width of `r·|1 − 2k|` for a lit
    /// fraction `k`: it bulges towards the lit side for a crescent (k < ½) and away from it
    /// for a gibbous moon (k > ½). Empty for a new moon, the whole disc for a full one.
    var litPath: String {
        let r = Self.radius / 100, k = illuminated
        func n(_ value: Double) -> String { String(format: "%.4f", value) }
        let top = "\(n(0.5)),\(n(0.5 - r))", bottom = "\(n(0.5)),\(n(0.5 + r))"
        if k < 0.005 { return "" }
        if k > 0.995 { return "M\(top)A\(n(r)),\(n(r)) 0 1 1 \(bottom)A\(n(r)),\(n(r)) 0 1 1 \(top)Z" }
        let halfWidth = r * abs(1 - 2 * k)
        let crescent = k < 0.5
        // From the top to the bottom along the limb (sweep 1 is clockwise on screen: through
        // the right), then back along the terminator: through the lit side for a crescent,
        // through the dark side for a gibbous moon.
        let limbSweep = litOnRight ? 1 : 0
        let terminatorSweep = litOnRight == crescent ? 0 : 1
        return "M\(top)A\(n(r)),\(n(r)) 0 0 \(limbSweep) \(bottom)A\(n(halfWidth)),\(n(r)) 0 0 \(terminatorSweep) \(top)Z"
    }
}
