import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What a URN's `{place}` names: a point (a configured place, `here`, or `latitude,longitude`),
/// found in the zone containing it, or a zone by the center's name for it.
enum PlaceArgument: Sendable {
    /// `id` as the URN names it, the place's own name when configured.
    case point(id: String, name: String?, GeoPoint)
    /// Neither coordinates nor a configured place: a zone's name, looked up in the map layer.
    case zoneName(String)

    /// What is allowed, for `invalidArguments`.
    static let allowed = "a place name, \(Places.here), a zone name (stevens-pass), or latitude,longitude in decimal degrees (47.745,-121.0933)"

    /// Reads `argument` before any request: coordinates (range-checked), then a configured place
    /// (or `here`); anything else is taken for a zone's name.
    static func parse(_ argument: String, places: Places) throws(ConditionsError) -> PlaceArgument {
        if argument.contains(",") {
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = decimalDegrees(parts[0]), let longitude = decimalDegrees(parts[1]) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument, allowed: allowed)
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument,
                                                       allowed: "a latitude from -90 to 90 and a longitude from -180 to 180, in decimal degrees")
            }
            return .point(id: argument, name: nil, GeoPoint(latitude: latitude, longitude: longitude))
        }
        if let place = places.place(named: argument) {
            let id = argument.lowercased() == Places.here ? Places.here : places.names.first { $0.lowercased() == argument.lowercased() } ?? argument
            return .point(id: id, name: place.name, GeoPoint(latitude: place.latitude, longitude: place.longitude))
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
        case .point(let id, let name, let point):
            if let zone = map.zone(containing: point) { return zone }
            let label = Self.format(point) + (name.map { " (\($0))" } ?? (id.contains(",") ? "" : " (\(id))"))
            guard let nearest = map.nearest(to: point) else {
                throw ConditionsError.notFound("avalanche.org lists no \(center) forecast zones, so \(label) is in none")
            }
            throw ConditionsError.notFound(
                "\(label) is in no \(center) forecast zone; the nearest is \(nearest.zone.name), \(String(format: "%.1f", nearest.km)) km from its edge",
                suggestions: ["avalanche:\(nearest.zone.slug)"])
        }
    }

    /// The place for result data: `{"id", "name", "latitude", "longitude"}`, or null for a zone named directly.
    var json: JSONValue {
        guard case .point(let id, let name, let point) = self else { return .null }
        return ["id": .string(id), "name": JSONValue(name), "latitude": .double(point.latitude), "longitude": .double(point.longitude)]
    }

    private static func format(_ point: GeoPoint) -> String {
        "\(JSONValue.format(point.latitude)),\(JSONValue.format(point.longitude))"
    }

    /// `[-+]digits[.digits]` and nothing else (no exponent, `nan` or spaces).
    private static func decimalDegrees(_ text: Substring) -> Double? {
        var body = text
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, (1...3).contains(whole.count), parts.count == 1 || (1...15).contains(parts[1].count),
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } })
        else { return nil }
        return Double(String(text))
    }
}
