import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// A `/forecast` or `/forecast/hourly` body read into result data: its times, the grid's
/// elevation and its periods, dates in UTC. Read tolerantly: a member missing or of another
/// type becomes null (NWS has sent temperatures and wind speeds both as numbers and text and
/// as `{unitCode, value}` objects); only a period without a readable start or end fails.
struct NWSForecast: Sendable {
    /// `properties.updateTime`: when the forecaster last changed it.
    let updated: Date?
    /// `properties.generatedAt`: when this copy was produced (changes with every re-issue).
    let generatedAt: Date?
    /// The grid cell's elevation in metres.
    let elevationM: Double?
    /// The periods as result data, in NWS's order.
    let periods: [JSONValue]

    /// Reads `body`, fetched from `url`.
    init(body: Data, url: URL) throws(ConditionsError) {
        let shown = Redaction.redact(url)
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw ConditionsError.badResponse("\(shown): not JSON (\(ConditionsError.report(error).message))")
        }
        guard let properties = root["properties"], properties.objectValue != nil else {
            throw ConditionsError.badResponse("\(shown): no \"properties\" object")
        }
        guard let periods = properties["periods"]?.arrayValue else {
            throw ConditionsError.badResponse("\(shown): properties.periods is missing or not an array")
        }
        updated = properties["updateTime"]?.dateValue
            ?? properties["updated"]?.dateValue
        generatedAt = properties["generatedAt"]?.dateValue
        elevationM = Self.metres(properties["elevation"])
        var read: [JSONValue] = []
        read.reserveCapacity(periods.count)
        for (index, period) in periods.enumerated() {
            read.append(try Self.period(period, index: index, source: shown))
        }
        self.periods = read
    }

    /// One period: `{number, name, start, end, isDaytime, temperature, temperatureUnit,
    /// temperatureTrend, windSpeed, windDirection, precipitationChance, shortForecast,
    /// detailedForecast}`.
    static func period(_ period: JSONValue, index: Int, source: String) throws(ConditionsError) -> JSONValue {
        guard period.objectValue != nil else {
            throw ConditionsError.badResponse("\(source): properties.periods[\(index)] is \(period.typeName), not an object")
        }
        guard let start = period["startTime"]?.dateValue,
              let end = period["endTime"]?.dateValue
        else {
            throw ConditionsError.badResponse("\(source): properties.periods[\(index)] has no readable startTime and endTime")
        }
        let (temperature, unit) = Self.temperature(period["temperature"], unit: period["temperatureUnit"]?.stringValue)
        return [
            "number": .int(period["number"]?.intValue ?? index + 1),
            "name": .string(period["name"]?.stringValue.map { $0.oneLine(limit: 80) } ?? ""),
            "start": JSONValue(start),
            "end": JSONValue(end),
            "isDaytime": period["isDaytime"]?.boolValue.map(JSONValue.bool) ?? .null,
            "temperature": Self.number(temperature),
            "temperatureUnit": JSONValue(unit),
            "temperatureTrend": JSONValue(period["temperatureTrend"]?.stringValue),
            "windSpeed": JSONValue(Self.windSpeed(period["windSpeed"])),
            "windDirection": JSONValue(period["windDirection"]?.stringValue),
            "precipitationChance": JSONValue(Self.percent(period["probabilityOfPrecipitation"])),
            "shortForecast": JSONValue(period["shortForecast"]?.stringValue),
            "detailedForecast": JSONValue(period["detailedForecast"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }),
        ]
    }

    /// An integral value as an integer (NWS's temperatures are whole degrees), else a double.
    static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return value.rounded() == value && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    }

    /// A temperature given as a number with `temperatureUnit` (`F`), or as `{unitCode, value}`.
    static func temperature(_ value: JSONValue?, unit: String?) -> (Double?, String?) {
        if let number = value?.doubleValue, number.isFinite { return (number, unit) }
        guard let number = value?["value"]?.doubleValue, number.isFinite else { return (nil, unit) }
        switch value?["unitCode"]?.stringValue?.split(separator: ":").last {
        case "degF": return (number, "F")
        case "degC": return (number, "C")
        default: return (number, unit)
        }
    }

    /// `10 mph`, `5 to 10 mph`; or from `{unitCode, value}` / `{unitCode, minValue, maxValue}`.
    static func windSpeed(_ value: JSONValue?) -> String? {
        if let text = value?.stringValue { return text.oneLine(limit: 40) }
        guard let value, value.objectValue != nil else { return nil }
        let unit: String
        switch value["unitCode"]?.stringValue?.split(separator: ":").last {
        case "km_h-1": unit = "km/h"
        case "m_s-1": unit = "m/s"
        case "mi_h-1": unit = "mph"
        case "kt": unit = "kt"
        default: unit = ""
        }
        func shown(_ number: Double) -> String { number.isFinite ? "\(JSONValue.double(number.rounded()))" : "?" }
        let words: String
        if let single = value["value"]?.doubleValue {
            words = shown(single)
        } else if let low = value["minValue"]?.doubleValue, let high = value["maxValue"]?.doubleValue {
            words = "\(shown(low)) to \(shown(high))"
        } else {
            return nil
        }
        return unit.isEmpty ? words : "\(words) \(unit)"
    }

    /// A percentage given as `{unitCode, value}` (value may be null) or a bare number, 0…100.
    static func percent(_ value: JSONValue?) -> Int? {
        guard let number = value?["value"]?.doubleValue ?? value?.doubleValue, number.isFinite else { return nil }
        return Int(min(100, max(0, number)).rounded())
    }

    /// An elevation `{unitCode: "wmoUnit:m", value}` in metres (feet converted).
    static func metres(_ value: JSONValue?) -> Double? {
        guard let number = value?["value"]?.doubleValue, number.isFinite, abs(number) < 100_000 else { return nil }
        let unit = value?["unitCode"]?.stringValue?.split(separator: ":").last
        return unit == "ft" ? number * 0.3048 : number
    }
}
