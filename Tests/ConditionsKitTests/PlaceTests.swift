import ConditionsJSON
import Foundation
import Testing
@testable import ConditionsKit

/// The config's `location`: validated ranges, IANA zones, no stray keys.
@Suite struct PlaceTests {
    private func options(_ object: JSONValue) -> SourceOptions {
        SourceOptions(path: "location", object: object.objectValue ?? JSONObject(), baseDirectory: URL(fileURLWithPath: "/"))
    }

    private func placeError(_ object: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) -> ConditionsError? {
        var options = options(object)
        let error = #expect(throws: ConditionsError.self, sourceLocation: sourceLocation) { try Place(options: &options) }
        #expect(error?.kind == .configuration, sourceLocation: sourceLocation)
        return error
    }

    @Test func seattle() throws {
        var options = options(["name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"])
        let place = try Place(options: &options)
        #expect(place == Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331, timeZone: TimeZone(identifier: "America/Los_Angeles")))
        #expect(place.json.serialized() == #"{"name":"Seattle","latitude":47.6097,"longitude":-122.3331,"timeZone":"America/Los_Angeles"}"#)
    }

    @Test func minimalPlace() throws {
        var options = options(["latitude": 0, "longitude": 0])
        let place = try Place(options: &options)
        #expect(place.name == nil)
        #expect(place.timeZone == nil)
        #expect(place.json.serialized() == #"{"name":null,"latitude":0,"longitude":0}"#)
    }

    @Test(arguments: [(90.0, 180.0), (-90.0, -180.0), (89.9999, -179.9999)])
    func boundariesAreAccepted(latitude: Double, longitude: Double) throws {
        var options = options(["latitude": .double(latitude), "longitude": .double(longitude)])
        #expect(try Place(options: &options).latitude == latitude)
    }

    @Test func latitudeOutOfRange() {
        #expect(placeError(["latitude": 90.5, "longitude": 0])?.message == "location.latitude: 90.5 is outside -90…90")
        #expect(placeError(["latitude": -91, "longitude": 0])?.message == "location.latitude: -91.0 is outside -90…90")
    }

    @Test func longitudeOutOfRange() {
        #expect(placeError(["latitude": 0, "longitude": 180.01])?.message == "location.longitude: 180.01 is outside -180…180")
        #expect(placeError(["latitude": 0, "longitude": -181])?.message.hasPrefix("location.longitude:") == true)
    }

    @Test func coordinatesAreRequired() {
        #expect(placeError(["longitude": 0])?.message == #"location: needs "latitude" and "longitude""#)
        #expect(placeError(["latitude": 0])?.message == #"location: needs "latitude" and "longitude""#)
        #expect(placeError([:]) != nil)
    }

    @Test func coordinatesMustBeNumbers() {
        #expect(placeError(["latitude": "47.6", "longitude": 0])?.message == "location.latitude: expected a number, found string")
    }

    @Test func unknownTimeZone() {
        let error = placeError(["latitude": 0, "longitude": 0, "timeZone": "Mars/Olympus_Mons"])
        #expect(error?.message.hasPrefix(#"location.timeZone: unknown time zone "Mars/Olympus_Mons""#) == true)
        #expect(error?.message.contains("America/Los_Angeles") == true)
    }

    @Test func unknownKeys() {
        let error = placeError(["latitude": 0, "longitude": 0, "timezone": "UTC", "elevation": 10])
        #expect(error?.message.contains(#"location.timezone (did you mean "timeZone"?)"#) == true)
        #expect(error?.message.contains("location.elevation") == true)
        #expect(error?.message.hasPrefix("unknown options ") == true)
    }
}
