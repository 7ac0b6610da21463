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
        if argument.contains(",") {
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = decimalDegrees(parts[0]), let longitude = decimalDegrees(parts[1]) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument,
                                                       allowed: "a place name, \(Places.here), or latitude,longitude in decimal degrees (47.745,-121.0933)")
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument,
                                                       allowed: "a latitude from -90 to 90 and a longitude from -180 to 180, in decimal degrees")
            }
            return NamedPoint(id: argument, name: nil, latitude: latitude, longitude: longitude)
        }
        if let place = places.place(named: argument) {
            let id = argument.lowercased() == Places.here ? Places.here : places.names.first { $0.lowercased() == argument.lowercased() } ?? argument
            return NamedPoint(id: id, name: place.name, latitude: place.latitude, longitude: place.longitude)
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

    /// `-?digits[.digits]`: nothing else (no exponent, no `nan`, no spaces), so what is sent is what was written.
    private static func decimalDegrees(_ text: Substring) -> Double? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 3, parts.allSatisfy({ part in part.allSatisfy { (0x30...0x39).contains($0) } }),
              parts.count == 1 || !parts[1].isEmpty, (parts.count == 1 || parts[1].count <= 15)
        else { return nil }
        return Double(String(text))
    }
}
