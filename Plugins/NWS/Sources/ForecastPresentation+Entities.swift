import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// A forecast in Home Assistant: the next period's temperature and its short forecast, the
/// period's name beside both so a card can say "Tonight".
extension ForecastPresentation {
    func entities(_ data: JSONValue, context: PresentationContext) -> [Entity] {
        let period = Self.nextPeriod(data)
        let name: JSONValue = period?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null
        let attributes: [String: JSONValue] = ["period": name, "start": period?["start"]?.dateValue.map { .string(Timestamp.string(from: $0)) } ?? .null]
        let unit = Self.unit(period?["temperatureUnit"])
        // A unit HA cannot convert (neither F nor C) would file the number under °F: unknown instead.
        let temperature = unit == nil ? nil : period?["temperature"]?.doubleValue
        let short = period?["shortForecast"]?.stringValue.flatMap { $0.isEmpty ? nil : String($0.prefix(255)) }
        return [
            .measurement("temperature", name: "Temperature", temperature, unit: unit ?? "°F", deviceClass: "temperature", attributes: attributes),
            .sensor("forecast", name: "Forecast", state: short.map(JSONValue.string) ?? .null, icon: "mdi:weather-partly-cloudy",
                    attributes: attributes.merging(["detailed": period?["detailedForecast"]?.stringValue.map(JSONValue.string) ?? .null]) { $1 }),
        ]
    }

    /// The first period not yet over at the time the forecast was read (`updated` plus `age`):
    /// a kept or replayed forecast may begin with a period that has ended. Without those, the
    /// first period, as the text reads it.
    static func nextPeriod(_ data: JSONValue) -> JSONValue? {
        guard let periods = periods(data) else { return nil }
        guard let updated = data["updated"]?.dateValue, let age = data["age"]?.doubleValue, age.isFinite else { return periods.first }
        let read = updated.addingTimeInterval(age)
        return periods.first { period in period["end"]?.dateValue.map { $0 > read } ?? true }
    }

    /// HA's unit for NWS's `temperatureUnit`: `°F` when it says none (NWS's own), nil for one
    /// HA has no name for.
    static func unit(_ value: JSONValue?) -> String? {
        guard let value, !value.isNull else { return "°F" }
        switch value.stringValue?.uppercased() {
        case "F": return "°F"
        case "C": return "°C"
        default: return nil
        }
    }
}
