import Foundation

/// California's chain-control levels, as Caltrans publishes them: `R-0` (no control), then `R-1`,
/// `R-2` and `R-3`, each stricter. A direction's level is its strictest checkpoint's.
public enum ChainControl: String, Sendable, CaseIterable, Comparable {
    case r0 = "R-0"
    case r1 = "R-1"
    case r2 = "R-2"
    case r3 = "R-3"

    /// Caltrans's published wording of the level; R-0's is the words CWWP2 itself writes.
    public var wording: String {
        switch self {
        case .r0: "No chain controls are in effect at this time."
        case .r1: "Chains are required on all vehicles except passenger vehicles and light-duty trucks under 6,000 pounds gross weight and equipped with snow tires on at least two drive wheels."
        case .r2: "Chains or traction devices are required on all vehicles except four-wheel/all-wheel drive vehicles with snow-tread tires on all four wheels."
        case .r3: "Chains or traction devices are required on all vehicles, no exceptions."
        }
    }

    /// A direction's status at this level: open with none, restricted with any.
    public var status: PassStatus { self == .r0 ? .open : .restricted }

    /// The level a status string names (`R-2`, `r-2`, ` R-2 `); nil for anything else: a
    /// level the reader does not know is never read as none.
    public init?(level: String) {
        let trimmed = level.trimmingCharacters(in: .whitespaces).uppercased()
        guard let known = ChainControl(rawValue: trimmed) else { return nil }
        self = known
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (a: ChainControl, b: ChainControl) -> Bool { a.rank < b.rank }
}
