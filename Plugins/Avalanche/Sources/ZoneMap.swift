import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import Foundation

/// One forecast zone of a center, as its map layer describes it.
struct ForecastZone: Sendable {
    /// avalanche.org's numeric zone id: what a product is asked by. It changes every season
    /// (Stevens Pass was 1132 in 2023 and 1649 in 2026), so it is always read, never kept.
    let id: Int
    /// The center's own name for it (`Stevens Pass`).
    let name: String
    /// The name as a URN argument: lower case, spaces as hyphens (`stevens-pass`).
    let slug: String
    /// No forecasts for the zone until next season.
    let offSeason: Bool
    /// The center's page for the zone, when the layer gives one.
    let link: String?
    /// The layer's `warning.product`: null when no warning is in effect. Its shape when one is
    /// has not been captured, so anything else counts as a warning, kept as given.
    let warning: JSONValue
    let outline: ZoneOutline

    /// `Stevens Pass` → `stevens-pass`: how a zone is named in a URN.
    static func slug(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased().split(separator: " ", omittingEmptySubsequences: true).joined(separator: "-")
    }

    /// This zone with `warning` in effect (null: none).
    func with(warning: JSONValue) -> ForecastZone {
        ForecastZone(id: id, name: name, slug: slug, offSeason: offSeason, link: link, warning: warning, outline: outline)
    }

    /// `{"id", "name", "slug"}` for result data.
    var json: JSONValue {
        ["id": .int(id), "name": .string(name), "slug": .string(slug)]
    }
}

/// A center's zones: `GET /v2/public/products/map-layer/{center}`, a GeoJSON FeatureCollection
/// with one feature per zone (numeric `id`, `properties.name`, `properties.off_season`, a
/// Polygon or MultiPolygon).
struct ZoneMap: Sendable {
    let zones: [ForecastZone]

    /// Reads the layer; `source` names it in errors. A feature without a numeric id, a name or
    /// a readable outline is `badResponse`, naming it: a zone the module cannot place would
    /// silently send places to the wrong one.
    init(layer: JSONValue, source: String) throws(ConditionsError) {
        guard let features = layer["features"]?.arrayValue else {
            throw ConditionsError.badResponse("\(source): no \"features\" array in the map layer")
        }
        var zones: [ForecastZone] = []
        for (index, feature) in features.enumerated() {
            let properties = feature["properties"]
            guard let name = properties?["name"]?.stringValue, !name.isEmpty else {
                throw ConditionsError.badResponse("\(source): features[\(index)] has no properties.name")
            }
            // Numeric in every capture; a string of digits is read too.
            guard let id = feature["id"]?.intValue ?? feature["id"]?.stringValue.flatMap({ Int($0) }) else {
                throw ConditionsError.badResponse("\(source): the zone \"\(name)\" has no numeric id")
            }
            guard let geometry = feature["geometry"], let outline = ZoneOutline(geometry: geometry) else {
                throw ConditionsError.badResponse("\(source): the zone \"\(name)\" has no Polygon or MultiPolygon geometry")
            }
            zones.append(ForecastZone(id: id, name: name, slug: ForecastZone.slug(name),
                                      offSeason: properties?["off_season"]?.boolValue ?? false,
                                      link: properties?["link"]?.stringValue,
                                      warning: properties?["warning"]?["product"] ?? .null, outline: outline))
        }
        self.zones = zones
    }

    /// The zone whose slug is `name` written as a slug (`Stevens Pass`, `stevens-pass`), or nil.
    func zone(named name: String) -> ForecastZone? {
        let slug = ForecastZone.slug(name)
        return zones.first { $0.slug == slug }
    }

    /// The first zone whose outline contains `point` (the layer's zones do not overlap).
    func zone(containing point: GeoPoint) -> ForecastZone? {
        zones.first { $0.outline.contains(point) }
    }

    /// The zone whose edge is nearest to `point`, and that distance in km; nil without zones.
    func nearest(to point: GeoPoint) -> (zone: ForecastZone, km: Double)? {
        zones.map { ($0, $0.outline.distanceToEdge(from: point)) }.min { $0.1 < $1.1 }
    }
}
