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
    let point: Point

    /// Decimal degrees, range-checked.
    struct Point: Sendable, Equatable {
        let latitude: Double
        let longitude: Double
    }

    /// What is allowed, for `invalidArguments`.
    static let allowed = "a place name, \(Places.here), or latitude,longitude in decimal degrees (47.745,-121.0933)"

    /// Reads `argument` before any request: coordinates (range-checked), then a configured
    /// place (or `here`); any other name is `notFound`, suggesting the closest place names.
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
            return PlaceArgument(id: argument, name: nil, point: Point(latitude: latitude, longitude: longitude))
        }
        if let place = places.place(named: argument) {
            let id = argument.lowercased() == Places.here ? Places.here : places.names.first { $0.lowercased() == argument.lowercased() } ?? argument
            return PlaceArgument(id: id, name: place.name, point: Point(latitude: place.latitude, longitude: place.longitude))
        }
        let known = places.names + [Places.here]
        let suggestions = Suggestions.closest(to: argument.lowercased(), among: known).map { "aurora:\($0)" }
        let listed = places.names.isEmpty ? "" : "places: \(places.names.joined(separator: ", ")); "
        throw ConditionsError.notFound("no place named \"\(argument)\" (\(listed)or \(Places.here), latitude,longitude, or now)",
                                       suggestions: suggestions)
    }

    /// The place for result data.
    var json: JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(point.latitude), "longitude": .double(point.longitude)]
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
