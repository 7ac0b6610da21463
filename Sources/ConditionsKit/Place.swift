import ConditionsJSON
import Foundation

/// A named point on Earth: the config's top-level `location`, or a source's own override.
///
/// ```json
/// "location": { "name": "Seattle", "latitude": 47.6097, "longitude": -122.3331,
///               "timeZone": "America/Los_Angeles" }
/// ```
public struct Place: Sendable, Equatable {
    /// A human name ("Seattle"), if the config gave one.
    public var name: String?
    /// Degrees north, -90…90.
    public var latitude: Double
    /// Degrees east, -180…180.
    public var longitude: Double
    /// The zone local times are shown in; nil means the machine's own.
    public var timeZone: TimeZone?

    /// A place; `timeZone` nil means local times use the machine's zone.
    public init(name: String? = nil, latitude: Double, longitude: Double, timeZone: TimeZone? = nil) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
    }

    /// The place as result data: `{"name", "latitude", "longitude"}` (plus `timeZone` when set).
    public var json: JSONValue {
        var object = JSONObject()
        object["name"] = JSONValue(name)
        object["latitude"] = .double(latitude)
        object["longitude"] = .double(longitude)
        if let timeZone { object["timeZone"] = .string(timeZone.identifier) }
        return .object(object)
    }

    /// Reads a place from an options object such as the config's `location`, validating
    /// ranges and the time zone name; errors name the JSON path.
    public init(options: inout SourceOptions) throws(ConditionsError) {
        guard let latitude = try options.double("latitude"), let longitude = try options.double("longitude") else {
            throw ConditionsError.configuration("\(options.path): needs \"latitude\" and \"longitude\"")
        }
        guard (-90...90).contains(latitude) else {
            throw ConditionsError.configuration("\(options.path).latitude: \(latitude) is outside -90…90")
        }
        guard (-180...180).contains(longitude) else {
            throw ConditionsError.configuration("\(options.path).longitude: \(longitude) is outside -180…180")
        }
        var zone: TimeZone?
        if let identifier = try options.string("timeZone") {
            guard let found = TimeZone(identifier: identifier) else {
                throw ConditionsError.configuration("\(options.path).timeZone: unknown time zone \"\(identifier)\" (use an IANA name such as America/Los_Angeles)")
            }
            zone = found
        }
        self.init(name: try options.string("name"), latitude: latitude, longitude: longitude, timeZone: zone)
        try options.finish()
    }
}
