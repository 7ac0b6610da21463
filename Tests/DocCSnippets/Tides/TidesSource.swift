import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Answers `tide:{station}` with the next high or low water at a NOAA station.
public struct TidesSource: ConditionsSource {
    public static let moduleName = "Tides"
    public static let summary = "The next high or low tide at a NOAA station"
    /// `sample.json`, compiled in: what `conditions config init --module Tides` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// What this module's results are; the host finds their presentation by it.
    public static let kind: ResultKind = "tide"
    public static let presentations: [any ResultPresentation] = [TidePresentation()]
    /// Predictions change rarely: an answer stays fresh for an hour (its TTL).
    public static let defaultTTL = 3600.0
    /// Shown by `--help` and, as this instance's `examples`, by `conditions routes`.
    public static let exampleURNs = ["tide:9447130"]

    public let routes: [RoutePattern] = ["tide:{station}"]

    /// The `units` option: `feet` (the default) or `metres`.
    let metric: Bool

    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        metric = try options.string("units", oneOf: ["feet", "metres"]) == "metres"
        try options.finish()   // an unknown key ("unit") is a configuration error naming its path
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let station = try location.argument("station")
        guard station.count == 7, station.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ConditionsError.invalidArguments(argument: "station", value: station, allowed: "a 7-digit NOAA station id")
        }
        // Two days of highs and lows from the start of today (UTC), by the report's clock.
        let day = Timestamp.string(from: context.now).prefix(10).replacingOccurrences(of: "-", with: "")
        let units = metric ? "metric" : "english"
        guard let url = URL(string: "https://api.tidesandcurrents.noaa.gov/api/prod/datagetter?product=predictions"
            + "&interval=hilo&datum=MLLW&time_zone=gmt&format=json&range=48&units=\(units)&station=\(station)&begin_date=\(day)")
        else { throw ConditionsError(.internal, "no URL for station \(station)") }

        // JSON asked for; 4xx and 5xx thrown as HTTPError, an HTML page or broken JSON as badResponse.
        let api = JSONAPI(http: context.http, upstream: "NOAA CO-OPS")
        let (root, freshness) = try await api.json(url, what: "the predictions of station \(station)")
        if let message = root["error"]?["message"]?.stringValue {
            throw ConditionsError.notFound("no tide predictions for station \(station): \(message)")
        }
        guard let predictions = root["predictions"]?.arrayValue else {
            throw ConditionsError.badResponse("station \(station): no \"predictions\" array")
        }
        // Each is {"t": "2026-11-21 16:41", "v": "3.912", "type": "L"}, times in UTC.
        let next = predictions.lazy.compactMap { prediction -> (at: Date, height: Double, high: Bool)? in
            guard let at = prediction["t"]?.dateValue, let height = prediction["v"]?.stringValue.flatMap(Double.init) else { return nil }
            return (at, height, prediction["type"]?.stringValue == "H")
        }.first { $0.at > context.now }
        guard let next else {
            throw ConditionsError.badResponse("station \(station): no prediction after \(Timestamp.string(from: context.now))")
        }
        return SourceResult(data: [
            "station": .string(station),
            "tide": .string(next.high ? "high" : "low"),
            "at": JSONValue(next.at),
            "height": .double(next.height),
            "unit": .string(metric ? "m" : "ft"),
        ], kind: Self.kind, ttl: freshness)
    }
}
