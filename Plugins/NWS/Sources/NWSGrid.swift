import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What `/points/{lat},{lon}` says about a point: the URLs of its forecasts (followed as
/// given, never built) and where it lies. NWS's point → grid mapping rarely changes, so the
/// source keeps it in its memo for a day (`json`).
struct NWSGrid: Sendable, Equatable {
    let forecast: URL
    let forecastHourly: URL
    /// The forecast office's grid (`SEW`), and the cell.
    let office: String?
    let gridX: Int?
    let gridY: Int?
    /// The point's IANA zone (`America/Los_Angeles`).
    let timeZone: String?
    /// The nearest place NWS names (`Skykomish, WA`).
    let nearby: String?

    /// Reads a `/points` body fetched from `url`.
    init(pointsBody body: Data, url: URL) throws(ConditionsError) {
        let root: JSONValue
        do { root = try JSONValue.parse(body) } catch {
            throw ConditionsError.badResponse("\(Redaction.redact(url)): not JSON (\(ConditionsError.report(error).message))")
        }
        guard let properties = root["properties"], properties.objectValue != nil else {
            throw ConditionsError.badResponse("\(Redaction.redact(url)): no \"properties\" object")
        }
        forecast = try NWSClient.followedURL(properties["forecast"]?.stringValue, field: "properties.forecast", source: url)
        forecastHourly = try NWSClient.followedURL(properties["forecastHourly"]?.stringValue, field: "properties.forecastHourly", source: url)
        office = properties["gridId"]?.stringValue.map { NWSProblem.oneLine($0, limit: 16) }
        gridX = properties["gridX"]?.intValue
        gridY = properties["gridY"]?.intValue
        timeZone = properties["timeZone"]?.stringValue.map { NWSProblem.oneLine($0, limit: 64) }
        let relative = properties["relativeLocation"]?["properties"]
        let words = [relative?["city"]?.stringValue, relative?["state"]?.stringValue].compactMap { $0.map { NWSProblem.oneLine($0, limit: 64) } }
        nearby = words.isEmpty ? nil : words.joined(separator: ", ")
    }

    /// As kept in the memo.
    var json: JSONValue {
        ["forecast": .string(forecast.absoluteString), "forecastHourly": .string(forecastHourly.absoluteString),
         "office": JSONValue(office), "gridX": JSONValue(gridX), "gridY": JSONValue(gridY),
         "timeZone": JSONValue(timeZone), "nearby": JSONValue(nearby)]
    }

    /// Reads what `json` kept; nil when it is not that (a damaged or older entry).
    init?(json: JSONValue) {
        guard let forecast = json["forecast"]?.stringValue.flatMap(URL.init(string:)),
              let hourly = json["forecastHourly"]?.stringValue.flatMap(URL.init(string:)),
              [forecast, hourly].allSatisfy({ ["http", "https"].contains($0.scheme?.lowercased() ?? "") })
        else { return nil }
        self.forecast = forecast
        forecastHourly = hourly
        office = json["office"]?.stringValue
        gridX = json["gridX"]?.intValue
        gridY = json["gridY"]?.intValue
        timeZone = json["timeZone"]?.stringValue
        nearby = json["nearby"]?.stringValue
    }

    /// `SEW 163,68`: the office and cell, for result data.
    var gridText: String? {
        guard let office else { return nil }
        guard let gridX, let gridY else { return office }
        return "\(office) \(gridX),\(gridY)"
    }
}
