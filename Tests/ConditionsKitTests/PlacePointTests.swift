import ConditionsHelpers
import ConditionsKit
import Foundation
import Testing

/// `Places.point(_:allowed:)`: the one reading of a URN's `{place}` the modules share.
@Suite struct PlacePointTests {
    static let places = Places(location: Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331),
                               named: [("Stevens", Place(name: "Stevens Pass", latitude: 47.745, longitude: -121.093333))])

    @Test func coordinatesNamesAndHere() throws {
        #expect(try Self.places.point("47.745,-121.0933", allowed: "x") == PlacePoint(id: "47.745,-121.0933", name: nil, latitude: 47.745, longitude: -121.0933))
        #expect(try Self.places.point("stevens", allowed: "x") == PlacePoint(id: "Stevens", name: "Stevens Pass", latitude: 47.745, longitude: -121.093333))
        #expect(try Self.places.point("HERE", allowed: "x")?.id == "here")
        #expect(try Self.places.point("stevens-pass", allowed: "x") == nil, "another name is the module's to read")
    }

    @Test(arguments: ["47.7,", ",1", "1e2,3", "nan,1", "47.7, -121", "1,2,3", "1234,5", "1.,2"])
    func malformedCoordinatesSayWhatIsAllowed(text: String) {
        do {
            _ = try Self.places.point(text, allowed: "a place name or latitude,longitude")
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.kind == .invalidArguments)
            #expect(error.message.contains("a place name or latitude,longitude"), "\(error.message)")
        }
    }

    @Test func outOfRangeSaysTheRanges() {
        do {
            _ = try Self.places.point("91,0", allowed: "x")
            Issue.record("91°N was accepted")
        } catch {
            #expect(error.kind == .invalidArguments)
            #expect(error.message.contains("a latitude from -90 to 90 and a longitude from -180 to 180"))
        }
    }

    /// One way for every module's errors to name a place: its coordinates, and its name or id.
    @Test func aPlaceIsNamedByItsCoordinatesAndName() {
        #expect(PlacePoint(id: "stevens", name: "Stevens Pass", latitude: 47.745, longitude: -121.0933).label == "47.745,-121.0933 (Stevens Pass)")
        #expect(PlacePoint(id: "stevens", name: nil, latitude: 47.745, longitude: -121.0933).label == "47.745,-121.0933 (stevens)")
        #expect(PlacePoint(id: "47.745,-121.0933", name: nil, latitude: 47.745, longitude: -121.0933).label == "47.745,-121.0933")
    }
}
