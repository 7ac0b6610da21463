import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsText

/// The sky in Home Assistant: the cloud cover now, the first hour of the grid (the hour the
/// text calls "now").
extension SkyPresentation {
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let hour = Self.hours(data)?.first
        return [
            .measurement("cloud_cover", name: "Cloud cover", hour?.skyCover, unit: "%", icon: "mdi:weather-cloudy",
                         attributes: ["time": hour.map { .string(Timestamp.string(from: $0.time)) } ?? .null,
                                      "band": hour?.skyCover.map { .string(Self.band($0)) } ?? .null]),
        ]
    }
}
