import ConditionsGeo
import ConditionsJSON
import ConditionsKit

/// What Snowpack adds to a URN's `{place}` (read by `Location.place(in:)`): how an error
/// names it and how a result gives its distance from the station.
extension PlacePoint {
    /// `47.745,-121.0933 (Stevens Pass)`, or the id alone.
    var label: String {
        let coordinates = "\(JSONValue.format(latitude)),\(JSONValue.format(longitude))"
        if let name { return "\(coordinates) (\(name))" }
        return id.contains(",") ? coordinates : "\(coordinates) (\(id))"
    }

    /// The place for result data, with its distance from the station in km and miles.
    func json(distanceKm: Double) -> JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(latitude), "longitude": .double(longitude),
         "distanceKm": .double((distanceKm * 10).rounded() / 10), "distanceMi": .double((distanceKm / GeoPoint.kmPerMile * 10).rounded() / 10)]
    }
}
