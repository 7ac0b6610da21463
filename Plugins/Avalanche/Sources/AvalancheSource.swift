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
    /// The center's zones, shared by every URN of the instance while fresh: a report of 16
    /// places costs one map-layer request. Kept for as long as the host would keep a result
    /// (`SourceContext.maxAge`, the instance's TTL; nothing when fresh data is asked for).
    private let zoneMaps = FreshValues<ZoneMap>(capacity: 1)

    /// Validates `baseURL` and `center`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try AvalancheSettings(options: &options)
        try options.finish()
        examplePlace = configuration.places.names.first ?? Places.here
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let api = AvalancheAPI(http: context.http)
        if location.pattern == Self.allPattern {
            return try await resolveAll(api: api, context: context)
        }
        let day: ForecastDay = location.pattern == Self.tomorrowPattern ? .tomorrow : .today
        let name = try location.argument("place")
        if day == .tomorrow, name.lowercased() == "all" {
            throw ConditionsError.invalidArguments(argument: "place", value: name, allowed: "a single place or zone: avalanche:all answers today only")
        }
        let place = try PlaceArgument.parse(name, places: context.places)
        let map = try await zoneMap(api: api, context: context)
        let zone = try place.zone(in: map, places: context.places, center: settings.center)
        let (product, freshness) = try await product(for: zone, api: api)
        let report = ZoneReport(center: settings.center, zone: zone, product: product, day: day, place: place.json, now: context.now)
        if report.status == .noForecast {
            throw ConditionsError.notFound("avalanche.org has no current \(settings.center) forecast for \(zone.name), though its map layer says the zone is in season")
        }
        return SourceResult(data: report.json, kind: Self.kind, ttl: freshness)
    }

    /// Every zone of the center, today, in the layer's order. A zone in season without a
    /// product says so in its entry; a zone that could not be read fails the whole, naming it:
    /// a partial list under a success would silently drop zones.
    private func resolveAll(api: AvalancheAPI, context: SourceContext) async throws -> SourceResult {
        let map = try await zoneMap(api: api, context: context)
        let outcomes = await withTaskGroup(of: (Int, Result<(ZoneProduct, Double?), any Error>).self) { group in
            for (index, zone) in map.zones.enumerated() {
                group.addTask {
                    // Awaited before the tuple is built (swiftlang/swift#91911, see WSDOTPassSource.fetchPages).
                    let outcome: Result<(ZoneProduct, Double?), any Error>
                    do { outcome = .success(try await product(for: zone, api: api)) } catch { outcome = .failure(error) }
                    return (index, outcome)
                }
            }
            var outcomes = [Result<(ZoneProduct, Double?), any Error>?](repeating: nil, count: map.zones.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var reports: [JSONValue] = []
        var failures: [String] = []
        var freshness: Double?
        for (zone, outcome) in zip(map.zones, outcomes) {
            switch outcome {
            case .success(let (product, zoneFreshness))?:
                reports.append(ZoneReport(center: settings.center, zone: zone, product: product, day: .today, place: .null, now: context.now).json)
                if let zoneFreshness { freshness = min(freshness ?? zoneFreshness, zoneFreshness) }
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
                            kind: Self.kind, ttl: freshness)
    }

    /// The center's zones: kept while fresh (`zoneMaps`), else from the map layer.
    private func zoneMap(api: AvalancheAPI, context: SourceContext) async throws -> ZoneMap {
        let settings = self.settings
        let fetch: @Sendable () async throws -> FreshValues<ZoneMap>.Made = {
            let url = settings.mapLayerURL
            context.logger.debug("fetching the avalanche.org map layer", metadata: ["url": "\(Redaction.redact(url))"])
            let (document, _) = try await api.json(url, what: "the map layer of \(settings.center)")
            let map = try ZoneMap(layer: document, source: Redaction.redact(url))
            guard !map.zones.isEmpty else {
                throw ConditionsError.notFound("avalanche.org lists no forecast zones for the center \"\(settings.center)\" (\(settings.optionsPath).center)")
            }
            return FreshValues<ZoneMap>.Made(value: map, madeAt: context.now)
        }
        // Fresh data asked for: not even a fetch in flight is joined.
        let made = context.maxAge > 0 ? try await zoneMaps.made(for: settings.center, maxAge: context.maxAge, now: context.now, make: fetch) : try await fetch()
        return made.value
    }

    /// The zone's current product, by the id this season's map layer gives it.
    private func product(for zone: ForecastZone, api: AvalancheAPI) async throws -> (ZoneProduct, Double?) {
        let url = settings.productURL(zoneID: zone.id)
        let (document, freshness) = try await api.json(url, what: "the forecast of \(zone.name)")
        let product = try ZoneProduct(document: document, source: Redaction.redact(url))
        return (product, freshness)
    }
}

extension ResultKind {
    /// `avalanche:` data: a zone's danger by band today and tomorrow, its problems and bottom
    /// line (`avalanche:all`: every zone's, under `zones`).
    public static let avalanche: ResultKind = "avalanche"
}
