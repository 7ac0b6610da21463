import ConditionsGeo
import ConditionsHelpers
import ConditionsJSON
import ConditionsKit

/// What Snowpack adds to a URN's `{place}` (read by `Location.place(in:)`): how a result
/// gives its distance from the station.
extension PlacePoint {
    /// The place for result data, with its distance from the station in km and miles.
    func json(distanceKm: Double) -> JSONValue {
        ["id": .string(id), "name": JSONValue(name), "latitude": .double(latitude), "longitude": .double(longitude),
         "distanceKm": .double((distanceKm * 10).rounded() / 10), "distanceMi": .double((distanceKm / GeoPoint.kmPerMile * 10).rounded() / 10)]
    }
}
