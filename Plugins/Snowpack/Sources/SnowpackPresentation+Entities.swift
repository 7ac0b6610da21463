import ConditionsEntities
import ConditionsJSON
import ConditionsKit

/// A station's snowpack as Home Assistant entities: the latest snow depth and snow water
/// equivalent (the data's `depthIn`, `sweIn`: the newest valid hour) and the depth's change over
/// the last 24 hours (`changes.24h.depthIn`), in inches, each sampled now (state class
/// `measurement`, so HA keeps their long-term statistics). A value missing, of another type or
/// not finite (no data, a window whose end has no value) is unknown, never a trap.
extension SnowpackPresentation {
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        [
            .measurement("depth", name: "Snow depth", data["depthIn"]?.doubleValue, unit: "in", deviceClass: "distance", icon: "mdi:snowflake"),
            .measurement("swe", name: "Snow water equivalent", data["sweIn"]?.doubleValue, unit: "in", deviceClass: "precipitation"),
            .measurement("depth_change_24h", name: "Snow depth change, 24 h", data["changes"]?["24h"]?["depthIn"]?.doubleValue, unit: "in",
                         deviceClass: "distance"),
        ]
    }
}
