import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// The moon in Home Assistant, for every module answering `moon` and `phases` (Astronomy,
/// Aeris): the phase by HA's own moon-phase names (what its Moon integration shows, so
/// automations written for it read these too), the lit percentage, the next principal phases.
extension MoonPresentation {
    func entities(_ moon: JSONValue, context: PresentationContext) -> [Entity] {
        [
            .choice("phase", name: "Phase", moon["phase"]?.stringValue.map(MoonPhaseName.key), options: MoonPhaseName.phases,
                    icon: "mdi:weather-night", attributes: ["age": moon["age"]?.doubleValue.flatMap { $0.isFinite ? .double($0) : nil } ?? .null]),
            .measurement("illumination", name: "Illumination", moon["illumination"]?.doubleValue, unit: "%", icon: "mdi:moon-waxing-crescent"),
        ]
    }
}

/// `phases` in Home Assistant: when the next full and new moons are, and which principal
/// phase comes next.
extension PhasesPresentation {
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let phases = (data["phases"]?.arrayValue ?? []).compactMap { phase -> (key: String, date: Date)? in
            guard let name = phase["name"]?.stringValue, let date = phase["date"]?.dateValue else { return nil }
            return (MoonPhaseName.key(name), date)
        }
        // The earliest of each, whatever order the data lists them in.
        func next(_ key: String) -> Date? { phases.filter { $0.key == key }.map(\.date).min() }
        let first = phases.min { $0.date < $1.date }
        return [
            .time("next_full_moon", name: "Next full moon", next("full_moon"), icon: "mdi:moon-full"),
            .time("next_new_moon", name: "Next new moon", next("new_moon"), icon: "mdi:moon-new"),
            .choice("next_phase", name: "Next phase", first?.key, options: MoonPhaseName.principal, icon: "mdi:weather-night",
                    attributes: ["time": first.map { .string(Timestamp.string(from: $0.date)) } ?? .null]),
        ]
    }
}

/// HA's moon-phase keys, and the data's phase names read as them.
enum MoonPhaseName {
    /// HA's Moon integration's states, in the order of a lunation.
    static let phases = ["new_moon", "waxing_crescent", "first_quarter", "waxing_gibbous", "full_moon", "waning_gibbous", "last_quarter", "waning_crescent"]
    /// The four principal phases `phases` lists.
    static let principal = ["new_moon", "first_quarter", "full_moon", "last_quarter"]

    /// `waning crescent` → `waning_crescent`; `third quarter` (another name for the last) →
    /// `last_quarter`; `new` and `full` alone → `new_moon`, `full_moon`. Anything else comes out
    /// as it is, which no option matches: unknown.
    static func key(_ name: String) -> String {
        let key = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "_" }).joined(separator: "_")
        switch key {
        case "third_quarter": return "last_quarter"
        case "new": return "new_moon"
        case "full": return "full_moon"
        default: return key
        }
    }
}
