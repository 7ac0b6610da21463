import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import Foundation

/// A night in Home Assistant: whether it has a dark, moonless and clear window, and when the
/// first one begins and ends.
extension NightPresentation {
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let night = Night(data)
        let first = night?.windows.first
        // Clouds unknown over the dark, moonless hours is neither yes nor no.
        let window: Bool? = night.flatMap { night in night.windows.isEmpty ? (night.unknown.isEmpty ? false : nil) : true }
        return [
            .time("dark_start", name: "Dark window start", first?.0, icon: "mdi:weather-night"),
            .time("dark_end", name: "Dark window end", first?.1, icon: "mdi:weather-sunset-up"),
            .binary("dark_window_tonight", name: "Dark window tonight", on: window, icon: "mdi:star-shooting",
                    attributes: ["date": night.map { .string($0.date) } ?? .null, "summary": night.map { .string($0.summary) } ?? .null,
                                 "minutes": night.map { .int(Int(($0.total / 60).rounded())) } ?? .null]),
        ]
    }
}
