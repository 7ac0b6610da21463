import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What `/points/{lat},{lon}` says about a point: the URLs of its forecasts and raw grid
/// (followed as given; the raw grid's is built only for a memo entry kept without it) and
/// where it lies. NWS's point → grid mapping rarely changes, so the source keeps it in its
/// memo for a day (`json`).
struct NWSGrid: Sendable, Equatable {
    let forecast: URL
    let forecastHourly: URL
    /// `forecastGridData`: the raw grid layers (`sky:{place}`). Absent from memo entries kept
    /// before `sky:` existed; `gridDataURL(base:)` builds it from the grid then.
    let gridData: URL?
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
        // Only `sky:` needs it: a /points answer without it still serves the forecasts.
        gridData = properties["forecastGridData"].flatMap { try? NWSClient.followedURL($0.stringValue, field: "properties.forecastGridData", source: url) }
        office = properties["gridId"]?.stringValue.map { $0.oneLine(limit: 16) }
        gridX = Self.cell(properties["gridX"])
        gridY = Self.cell(properties["gridY"])
        timeZone = properties["timeZone"]?.stringValue.map { $0.oneLine(limit: 64) }
        let relative = properties["relativeLocation"]?["properties"]
        let words = [relative?["city"]?.stringValue, relative?["state"]?.stringValue].compactMap { $0.map { $0.oneLine(limit: 64) } }
        nearby = words.isEmpty ? nil : words.joined(separator: ", ")
    }

    /// As kept in the memo.
    var json: JSONValue {
        ["forecast": .string(forecast.absoluteString), "forecastHourly": .string(forecastHourly.absoluteString),
         "gridData": JSONValue(gridData?.absoluteString),
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
        gridData = json["gridData"]?.stringValue.flatMap(URL.init(string:)).flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
        office = json["office"]?.stringValue
        gridX = Self.cell(json["gridX"])
        gridY = Self.cell(json["gridY"])
        timeZone = json["timeZone"]?.stringValue
        nearby = json["nearby"]?.stringValue
    }

    /// `SEW 163,68`: the office and cell, for result data.
    var gridText: String? {
        guard let office else { return nil }
        guard let gridX, let gridY else { return office }
        return "\(office) \(gridX),\(gridY)"
    }

    /// The raw grid's URL: as `/points` gave it, else `{base}/gridpoints/{office}/{x},{y}` (an
    /// entry kept before `sky:` existed); nil when neither is known.
    func gridDataURL(base: URL) -> URL? {
        if let gridData { return gridData }
        // Built only from what a path can hold as it is: NWS's office ids are letters.
        guard let office, (2...4).contains(office.utf8.count), office.utf8.allSatisfy({ (0x41...0x5A).contains($0) }),
              let gridX, let gridY else { return nil }
        return base.appendingPathComponent("gridpoints").appendingPathComponent(office).appendingPathComponent("\(gridX),\(gridY)")
    }

    /// A grid cell index, sent as a number or (in some bodies) as text.
    private static func cell(_ value: JSONValue?) -> Int? {
        guard let number = value?.intValue ?? value?.stringValue.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              (0...100_000).contains(number) else { return nil }
        return number
    }
}
