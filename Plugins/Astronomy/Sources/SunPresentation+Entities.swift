import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import Foundation

/// A sun day in Home Assistant: its sunrise and sunset. `sun` data holds one local day, so
/// these are that day's (null on a day the Sun does not rise or set); the host asks `sun:now`
/// again as the day turns.
extension SunPresentation {
    func entities(_ sun: JSONValue, context: PresentationContext) -> [Entity] {
        // The same test of "is this a sun day" the text makes: a date and a solar noon.
        let isDay = sun["date"]?.stringValue != nil && sun["solarNoon"]?.dateValue != nil
        let attributes: [String: JSONValue] = ["date": isDay ? sun["date"] ?? .null : .null, "polar": isDay ? sun["polar"] ?? .null : .null]
        return [
            .time("next_sunrise", name: "Next sunrise", isDay ? sun["sunrise"]?.dateValue : nil, icon: "mdi:weather-sunset-up", attributes: attributes),
            .time("next_sunset", name: "Next sunset", isDay ? sun["sunset"]?.dateValue : nil, icon: "mdi:weather-sunset-down", attributes: attributes),
        ]
    }
}
