import ConditionsKit

extension Place {
    /// Stevens Pass where WSDOT's catalog puts it (47.745, −121.093333): the place tests name
    /// most, written here once.
    public static let stevens = Place(name: "Stevens Pass", latitude: 47.745, longitude: -121.093333)
    /// Stevens to four decimals, `47.745,-121.0933`: as a URN names it and NWS's `/points` wants it.
    public static let stevensPoint = "47.745,-121.0933"
    /// Stevens as a member of a config's `places`: `"stevens": {"name": "Stevens Pass", …}`.
    public static let stevensConfig = #""stevens": {"name": "Stevens Pass", "latitude": 47.745, "longitude": -121.093333}"#
}
