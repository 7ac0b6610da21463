import ConditionsGeo
import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What a URN's `{place}` names: a point (a configured place, `here`, or `latitude,longitude`),
/// found in the zone containing it, or a zone by the center's name for it.
enum PlaceArgument: Sendable {
    /// A configured place, `here`, or coordinates.
    case point(PlacePoint)
    /// Neither coordinates nor a configured place: a zone's name, looked up in the map layer.
    case zoneName(String)

    /// What is allowed, for `invalidArguments`: a zone's name as well as `Places.allowed`.
    static let allowed = "a place name, \(Places.here), a zone name (stevens-pass), or latitude,longitude in decimal degrees (47.745,-121.0933)"

    /// Reads `argument` before any request: coordinates (range-checked), then a configured place
    /// (or `here`); anything else is taken for a zone's name.
    static func parse(_ argument: String, places: Places) throws(ConditionsError) -> PlaceArgument {
        if let point = try places.point(argument, allowed: allowed) {
            return .point(point)
        }
        return .zoneName(argument)
    }

    /// The zone this argument means in `map`: the one named so, or the one containing the
    /// point. An unknown name is `notFound` suggesting the closest places and zones; a point
    /// in no zone is `notFound`, naming the nearest zone and how far its edge is.
    func zone(in map: ZoneMap, places: Places, center: String) throws(ConditionsError) -> ForecastZone {
        switch self {
        case .zoneName(let name):
            if let zone = map.zone(named: name) { return zone }
            let known = places.names + [Places.here] + map.zones.map(\.slug)
            let suggestions = Suggestions.closest(to: ForecastZone.slug(name), among: known).map { "avalanche:\($0)" }
            throw ConditionsError.notFound("no place or \(center) zone named \"\(name)\" (zones: \(map.zones.map(\.slug).joined(separator: ", ")); or a configured place, here, latitude,longitude)",
                                           suggestions: suggestions)
        case .point(let place):
            if let zone = map.zone(containing: place.point) { return zone }
            let label = place.label
            guard let nearest = map.nearest(to: place.point) else {
                throw ConditionsError.notFound("avalanche.org lists no \(center) forecast zones, so \(label) is in none")
            }
            throw ConditionsError.notFound(
                "\(label) is in no \(center) forecast zone; the nearest is \(nearest.zone.name), \(String(format: "%.1f", nearest.km)) km from its edge",
                suggestions: ["avalanche:\(nearest.zone.slug)"])
        }
    }

    /// The place for result data: `{"id", "name", "latitude", "longitude"}`, or null for a zone named directly.
    var json: JSONValue {
        guard case .point(let place) = self else { return .null }
        return place.json
    }
}
