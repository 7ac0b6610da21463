import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// A URN's `{place}` as modules read it: `latitude,longitude` in decimal degrees, a configured
/// place, or `here`. One reading for every module, so `forecast:`, `avalanche:`, `snowpack:`,
/// `aurora:` and `night:` accept and refuse the same places with the same words.
///
/// ```swift
/// let place = try location.place(in: context.places)          // or notFound, with suggestions
/// let point = try context.places.point(argument, allowed: Places.allowed)  // nil: the module's own name
/// ```
public struct PlacePoint: Sendable, Equatable {
    /// The place as the URN names it: `here`, the configured name in its configured case, or the coordinates as written.
    public let id: String
    /// The configured place's own name, when it has one.
    public let name: String?
    /// Decimal degrees north.
    public let latitude: Double
    /// Decimal degrees east.
    public let longitude: Double

    /// A point; `Places.point(_:allowed:)` makes these, tests may too.
    public init(id: String, name: String?, latitude: Double, longitude: Double) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Where it is.
    public var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }

    /// How an error names it: `47.745,-121.0933 (Stevens Pass)`, or the coordinates alone.
    public var label: String {
        let coordinates = "\(JSONValue.format(latitude)),\(JSONValue.format(longitude))"
        if let name { return "\(coordinates) (\(name))" }
        return id.contains(",") ? coordinates : "\(coordinates) (\(id))"
    }

    /// The place for result data: `{"id", "name", "latitude", "longitude"}`.
    public var json: JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(latitude), "longitude": .double(longitude)]
    }
}

extension Location {
    /// The point the URN's `{place}` names (`Places.point(_:allowed:)`). Any other name is
    /// `notFound`, listing the places and suggesting this URN with the closest of them in its
    /// place; `otherwise` is what else the module takes there (`now`).
    public func place(in places: Places, otherwise: String? = nil) throws(ConditionsError) -> PlacePoint {
        let argument = try argument("place")
        if let point = try places.point(argument, allowed: Places.allowed) { return point }
        let segment = pattern.segments.firstIndex(of: .placeholder("place"))
        let suggestions = Suggestions.closest(to: argument.lowercased(), among: places.names + [Places.here]).map { name in
            var segments = urn.segments
            if let segment { segments[segment] = name }
            return segments.joined(separator: ":")
        }
        let names = places.names.count > 12 ? places.names.prefix(11).joined(separator: ", ") + ", …" : places.names.joined(separator: ", ")
        let listed = places.names.isEmpty ? "" : "places: \(names); "
        throw ConditionsError.notFound("no place named \"\(argument)\" (\(listed)or \(Places.here), latitude,longitude\(otherwise.map { ", or \($0)" } ?? ""))",
                                       suggestions: suggestions)
    }
}

extension Places {
    /// What `{place}` takes, for `invalidArguments`.
    public static let allowed = "a place name, \(here), or latitude,longitude in decimal degrees (47.745,-121.0933)"

    /// The point `argument` names: coordinates (`[-+]d.ddd,[-+]d.ddd`, no exponents or spaces,
    /// range-checked) or a configured place or `here`, in any case; nil for any other name, which
    /// the module reads its own way (a zone's name) or refuses as `notFound`. Malformed
    /// coordinates are `invalidArguments` with `allowed`; out-of-range ones say the ranges.
    public func point(_ argument: String, allowed: String) throws(ConditionsError) -> PlacePoint? {
        if argument.contains(",") {
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let latitude = Self.decimalDegrees(parts[0]), let longitude = Self.decimalDegrees(parts[1]) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument, allowed: allowed)
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw ConditionsError.invalidArguments(argument: "place", value: argument,
                                                       allowed: "a latitude from -90 to 90 and a longitude from -180 to 180, in decimal degrees")
            }
            return PlacePoint(id: argument, name: nil, latitude: latitude, longitude: longitude)
        }
        guard let place = place(named: argument) else { return nil }
        let key = argument.lowercased()
        let id = key == Self.here ? Self.here : names.first { $0.lowercased() == key } ?? argument
        return PlacePoint(id: id, name: place.name, latitude: place.latitude, longitude: place.longitude)
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
