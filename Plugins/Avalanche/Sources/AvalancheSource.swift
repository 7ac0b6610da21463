import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import ConditionsText
import Foundation

/// Avalanche danger from avalanche.org (key-less; NWAC and every US center):
/// `avalanche:{place}`, `avalanche:{place}:tomorrow`, `avalanche:all`.
///
/// `{place}` is a configured place, `here`, `latitude,longitude` (each found in the zone whose
/// polygon contains it) or a zone by the center's name for it (`stevens-pass`). Zones come from
/// the center's map layer, kept for the instance's TTL so many URNs share one request; each
/// zone's forecast is asked by the zone id the layer gives, never a kept one (ids change every
/// season). See Plugins/Avalanche/README.md.
public struct AvalancheSource: ConditionsSource {
    public static let moduleName = "Avalanche"
    public static let summary = "Avalanche danger by elevation band, problems and bottom line from avalanche.org (NWAC and every US center, key-less)"
    /// `sample.json`, compiled in: what `conditions config init --module Avalanche` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// Forecasts come once a day; half an hour keeps a new one (or a warning) from waiting long.
    public static let defaultTTL: Double = 1800
    /// What this module's results are; the host finds their presentation by it.
    public static let kind: ResultKind = .avalanche
    public static let presentations: [any ResultPresentation] = [AvalanchePresentation()]

    static let allPattern: RoutePattern = "avalanche:all"
    static let tomorrowPattern: RoutePattern = "avalanche:{place}:tomorrow"
    public let routes: [RoutePattern] = ["avalanche:{place}", Self.tomorrowPattern, Self.allPattern]

    /// For `--help`: every zone, then the place routes for `here`, the configured location.
    /// `avalanche:all` comes first because it is the one any center answers: `conditions
    /// doctor` asks a scheme's first example, and `here` may be in no zone.
    public static let exampleURNs = ["avalanche:all", "avalanche:here", "avalanche:here:tomorrow"]

    /// As `exampleURNs`, for the first configured place (or `here` when there is none).
    public var examples: [String] {
        ["avalanche:all", "avalanche:\(examplePlace)", "avalanche:\(examplePlace):tomorrow"]
    }

    private let settings: AvalancheSettings
    private let examplePlace: String
    /// The map layer (a day), forecasts (until they expire) and warnings (every time): a
    /// report of 16 places costs one map-layer request.
    private let documents: ForecastDocuments

    /// Validates `baseURL` and `center`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try AvalancheSettings(options: &options)
        try options.finish()
        documents = ForecastDocuments(settings: settings)
        examplePlace = configuration.places.names.first ?? Places.here
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let api = JSONAPI(http: context.http, upstream: "avalanche.org")
        if location.pattern == Self.allPattern {
            return try await resolveAll(api: api, context: context)
        }
        let day: ForecastDay = location.pattern == Self.tomorrowPattern ? .tomorrow : .today
        let name = try location.argument("place")
        if day == .tomorrow, name.lowercased() == "all" {
            throw ConditionsError.invalidArguments(argument: "place", value: name, allowed: "a single place or zone: avalanche:all answers today only")
        }
        let place = try PlaceArgument.parse(name, places: context.places)
        let map = try await documents.zoneMap(api: api, context: context)
        let zone = try place.zone(in: map, places: context.places, center: settings.center)
        let report = try await report(for: zone, day: day, place: place.json, api: api, context: context)
        if report.status == .noForecast {
            throw ConditionsError.notFound("avalanche.org has no current \(settings.center) forecast for \(zone.name), though its map layer says the zone is in season")
        }
        return SourceResult(data: report.json, kind: Self.kind)
    }

    /// Every zone of the center, today, in the layer's order. A zone in season without a
    /// product says so in its entry; a zone that could not be read fails the whole, naming it:
    /// a partial list under a success would silently drop zones.
    private func resolveAll(api: JSONAPI, context: SourceContext) async throws -> SourceResult {
        let map = try await documents.zoneMap(api: api, context: context)
        let outcomes = await withTaskGroup(of: (Int, Result<ZoneReport, any Error>).self) { group in
            for (index, zone) in map.zones.enumerated() {
                group.addTask {
                    // Awaited before the tuple is built (swiftlang/swift#91911, see WSDOTPassSource.fetchPages).
                    let outcome: Result<ZoneReport, any Error>
                    do { outcome = .success(try await report(for: zone, day: .today, place: .null, api: api, context: context)) } catch { outcome = .failure(error) }
                    return (index, outcome)
                }
            }
            var outcomes = [Result<ZoneReport, any Error>?](repeating: nil, count: map.zones.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var reports: [JSONValue] = []
        var failures: [String] = []
        for (zone, outcome) in zip(map.zones, outcomes) {
            switch outcome {
            case .success(let report)?:
                reports.append(report.json)
            case .failure(let error)?:
                failures.append("\(zone.name): \(ConditionsError.report(error).message)")
            case nil:
                failures.append("\(zone.name): not asked")
            }
        }
        if !failures.isEmpty {
            throw ConditionsError.upstream("\(failures.count) of \(map.zones.count) \(settings.center) zones could not be read: \(failures.joined(separator: "; "))")
        }
        return SourceResult(data: ["center": .string(settings.center), "day": .string(ForecastDay.today.rawValue), "zones": .array(reports)],
                            kind: Self.kind)
    }

    /// The zone's report: its forecast (kept until it expires) and its warning (asked now).
    private func report(for zone: ForecastZone, day: ForecastDay, place: JSONValue, api: JSONAPI, context: SourceContext) async throws -> ZoneReport {
        async let product = documents.forecast(for: zone, api: api, context: context)
        async let warning = documents.warning(for: zone, api: api)
        let (forecast, inEffect) = try await (product, warning)
        return ZoneReport(center: settings.center, zone: zone.with(warning: inEffect), product: forecast, day: day, place: place, now: context.now)
    }
}

extension ResultKind {
    /// `avalanche:` data: a zone's danger by band today and tomorrow, its problems and bottom
    /// line (`avalanche:all`: every zone's, under `zones`).
    public static let avalanche: ResultKind = "avalanche"
}
