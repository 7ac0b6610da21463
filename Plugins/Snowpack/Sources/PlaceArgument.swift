import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What a URN's `{place}` names: a configured place, `here`, or `latitude,longitude`.
struct PlaceArgument: Sendable {
    /// `id` as the URN names it (a configured place's name as the config spells it).
    let id: String
    /// The place's own name when configured.
    let name: String?
    let point: GeoPoint

    /// What is allowed, for `invalidArguments`.
    static let allowed = "a place name, \(Places.here), or latitude,longitude in decimal degrees (47.745,-121.0933)"

    /// Reads `argument` before any request: coordinates (range-checked), then a configured
    /// place (or `here`); any other name is `notFound`, suggesting the closest place names.
    static func parse(_ argument: String, places: Places) throws(ConditionsError) -> PlaceArgument {
        if let point = try places.point(argument, allowed: allowed) {
            return PlaceArgument(id: point.id, name: point.name, point: GeoPoint(latitude: point.latitude, longitude: point.longitude))
        }
        let known = places.names + [Places.here]
        let suggestions = Suggestions.closest(to: argument.lowercased(), among: known).map { "snowpack:\($0)" }
        let listed = places.names.isEmpty ? "" : "places: \(places.names.joined(separator: ", ")); "
        throw ConditionsError.notFound("no place named \"\(argument)\" (\(listed)or \(Places.here), latitude,longitude, or station:{id}:{state}:{network})",
                                       suggestions: suggestions)
    }

    /// `47.745,-121.0933 (Stevens Pass)`, or the id alone.
    var label: String {
        let coordinates = "\(JSONValue.format(point.latitude)),\(JSONValue.format(point.longitude))"
        if let name { return "\(coordinates) (\(name))" }
        return id.contains(",") ? coordinates : "\(coordinates) (\(id))"
    }

    /// The place for result data, with its distance from `station` in km and miles.
    func json(distanceKm: Double) -> JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(point.latitude), "longitude": .double(point.longitude),
         "distanceKm": .double((distanceKm * 10).rounded() / 10), "distanceMi": .double((distanceKm / GeoPoint.kmPerMile * 10).rounded() / 10)]
    }

}
