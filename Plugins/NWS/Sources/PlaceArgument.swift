import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// What a URN's `{place}` names: a configured place, `here` (the config's location) or literal
/// `latitude,longitude` in decimal degrees.
struct NamedPoint: Sendable {
    /// The place as the URN names it (`stevens`, `here`, `47.745,-121.0933`).
    let id: String
    /// The place's own name (`Stevens Pass`), when the config gives one.
    let name: String?
    /// Where it is, as configured or written.
    let latitude: Double
    let longitude: Double
    /// The point sent to NWS.
    var point: NWSPoint { NWSPoint(latitude: latitude, longitude: longitude) }

    /// `{"id", "name", "latitude", "longitude"}` for result data.
    var json: JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(latitude), "longitude": .double(longitude)]
    }

    /// Resolves `argument`: literal coordinates are range-checked here, before any request; a
    /// name is looked up in `places` (any case), else `notFound` suggesting the closest names as
    /// `urn` with that place.
    static func resolve(_ argument: String, places: Places, urn: URN) throws(ConditionsError) -> NamedPoint {
        if let point = try places.point(argument, allowed: "a place name, \(Places.here), or latitude,longitude in decimal degrees (47.745,-121.0933)") {
            return NamedPoint(id: point.id, name: point.name, latitude: point.latitude, longitude: point.longitude)
        }
        let known = places.names + [Places.here]
        let suggestions = Suggestions.closest(to: argument, among: known).map { name in
            var segments = urn.segments
            if segments.count > 1 { segments[1] = name }
            return segments.joined(separator: ":")
        }
        let listed = known.count > 12 ? known.prefix(11).joined(separator: ", ") + ", …" : known.joined(separator: ", ")
        throw ConditionsError.notFound("no place named \"\(argument)\" (places: \(listed); or latitude,longitude)", suggestions: suggestions)
    }

}
