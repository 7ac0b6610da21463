import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import ConditionsText
import Foundation

/// The documents a forecast is made of, each asked as often as it changes:
///
/// - the center's map layer (zones, ids, outlines) for a day: ids change once a season;
/// - a zone's forecast until its `expires_time`, and at least 10 minutes and at most a day
///   when that time is missing, past or absurd;
/// - a zone's warning every time a result is made: a warning comes at any hour, and the
///   result's TTL (the instance's, 30 minutes by default) bounds how late it can show.
///
/// The first two live in memory (shared by URNs resolved at once) in front of the instance's
/// memo, which the host keeps in the cache folder across runs. Fresh data asked for
/// (`SourceContext.maxAge` 0: `--refresh`, `--no-cache`) asks everything again.
struct ForecastDocuments: Sendable {
    static let mapLayerLifetime: Double = 86_400
    static let forecastLifetime: ClosedRange<Double> = 600...86_400

    private let settings: AvalancheSettings
    private let maps = FreshValues<ZoneMap>(capacity: 1)
    private let forecasts = FreshValues<ZoneProduct>(capacity: 64)

    init(settings: AvalancheSettings) {
        self.settings = settings
    }

    /// The center's zones.
    func zoneMap(api: JSONAPI, context: SourceContext) async throws -> ZoneMap {
        let settings = self.settings
        let make: @Sendable () async throws -> FreshValues<ZoneMap>.Made = {
            let url = settings.mapLayerURL
            let source = Redaction.redact(url)
            let kept = try await context.memo.value(for: "map-layer/\(settings.center)", maxAge: Self.mapLayerLifetime, in: context) {
                context.logger.debug("fetching the avalanche.org map layer", metadata: ["url": "\(source)"])
                let (document, _) = try await api.json(url, what: "the map layer of \(settings.center)")
                let map = try ZoneMap(layer: document, source: source)
                guard !map.zones.isEmpty else {
                    throw ConditionsError.notFound("avalanche.org lists no forecast zones for the center \"\(settings.center)\" (\(settings.optionsPath).center)")
                }
                return ["fetchedAt": .string(Timestamp.string(from: context.now)), "layer": document]
            }
            let fetchedAt = kept["fetchedAt"]?.dateValue ?? context.now
            return .init(value: try ZoneMap(layer: kept["layer"] ?? .null, source: source), madeAt: fetchedAt)
        }
        return try await maps.made(for: settings.center, in: context, maxAge: Self.mapLayerLifetime, make: make).value
    }

    /// The zone's current forecast, by the id this season's map layer gives it.
    func forecast(for zone: ForecastZone, api: JSONAPI, context: SourceContext) async throws -> ZoneProduct {
        let settings = self.settings
        let key = "forecast/\(settings.center)/\(zone.id)"
        let url = settings.productURL(zoneID: zone.id)
        let source = Redaction.redact(url)
        let make: @Sendable () async throws -> FreshValues<ZoneProduct>.Made = {
            let fetch: @Sendable () async throws -> JSONValue = {
                let (document, _) = try await api.json(url, what: "the forecast of \(zone.name)")
                let product = try ZoneProduct(document: document, source: source)
                let until = Self.keptUntil(expires: product.expires, now: context.now)
                return ["keptUntil": .string(Timestamp.string(from: until)), "product": document]
            }
            var kept = try await context.memo.value(for: key, maxAge: Self.forecastLifetime.upperBound, in: context, make: fetch)
            var until = kept["keptUntil"]?.dateValue ?? context.now
            // Kept past its own end (the product's expiry): made afresh, once.
            if context.maxAge > 0, until <= context.now {
                kept = try await context.memo.value(for: key, maxAge: 0, now: context.now, make: fetch)
                until = kept["keptUntil"]?.dateValue ?? context.now
            }
            let product = try ZoneProduct(document: kept["product"] ?? .null, source: source)
            return .init(value: product, madeAt: context.now, keptUntil: until)
        }
        return try await forecasts.made(for: key, in: context, maxAge: Self.forecastLifetime.upperBound, make: make).value
    }

    /// The warning in effect for the zone, or null: `type=warning` answers an object of nulls
    /// when there is none (read as "not found" products are: no id, type or publication time).
    /// The layer's own `warning.product` counts too (it may be a day old, so it can only add one).
    func warning(for zone: ForecastZone, api: JSONAPI) async throws -> JSONValue {
        let (document, _) = try await api.json(settings.warningURL(zoneID: zone.id), what: "the warning for \(zone.name)")
        if case .object = document, ZoneProduct.isProduct(document) { return document }
        return zone.warning
    }

    /// How long a forecast expiring at `expires` is kept, from `now`.
    static func keptUntil(expires: Date?, now: Date) -> Date {
        guard let expires, expires > now else { return now.addingTimeInterval(forecastLifetime.lowerBound) }
        let seconds = min(max(expires.timeIntervalSince(now), forecastLifetime.lowerBound), forecastLifetime.upperBound)
        return now.addingTimeInterval(seconds)
    }
}
