import ConditionsKitTesting
import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The top-level `places` (issue 25, item 1): read like `location`, handed to every source, and
/// every mistake a problem naming its JSON path.
@Suite struct PlacesConfigTests {
    static let location = #""location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331}"#
    static let rest = #""sources": {"echo": {"module": "Echo"}}, "routes": {"echo": "echo"}"#

    func problems(_ places: String, profiles: String = "", profile: String? = nil) throws -> [String] {
        let workspace = try Workspace(config: "{\(Self.location), \"places\": \(places), \(Self.rest)\(profiles)}")
        defer { workspace.remove() }
        do {
            _ = try workspace.runtime(profile: profile)
            return []
        } catch {
            return error.problems.map { $0.replacingOccurrences(of: workspace.configFile.path + ": ", with: "") }
        }
    }

    @Test func placesAreReadInOrderBesideHere() throws {
        let workspace = try Workspace(config: """
            {\(Self.location), "places": {"stevens": {"latitude": 47.745, "longitude": -121.093333, "name": "Stevens Pass"},
             "Snoqualmie": {"latitude": 47.41, "longitude": -121.405833, "timeZone": "America/Los_Angeles"}}, \(Self.rest)}
            """)
        defer { workspace.remove() }
        let places = try #require(try workspace.runtime().configuration.places)
        #expect(places.names == ["stevens", "Snoqualmie"])
        #expect(places.place(named: "STEVENS") == Place.stevens)
        #expect(places.place(named: "snoqualmie")?.timeZone?.identifier == "America/Los_Angeles")
        #expect(places.place(named: "here")?.name == "Seattle")
        #expect(places.place(named: "nowhere") == nil)
    }

    @Test func mistakesNameTheirPath() throws {
        #expect(try problems(#"{"stevens": {"latitude": 95, "longitude": -121}}"#) == ["places.stevens.latitude: 95.0 is outside -90…90"])
        #expect(try problems(#"{"stevens": {"latitude": 47, "longitude": -181}}"#) == ["places.stevens.longitude: -181.0 is outside -180…180"])
        #expect(try problems(#"{"stevens": {"latitude": 47}}"#) == [#"places.stevens: needs "latitude" and "longitude""#])
        #expect(try problems(#"{"stevens": {"latitude": 47, "longitude": -121, "elevation": 4061}}"#).first?
            .hasPrefix("unknown option places.stevens.elevation; known: latitude, longitude") == true)
        #expect(try problems(#"{"stevens": {"latitude": 47, "longitude": -121}, "Stevens": {"latitude": 48, "longitude": -121}}"#)
            == ["places.Stevens: the same name as places.stevens (place names are case-insensitive)"])
        #expect(try problems(#"{"HERE": {"latitude": 47, "longitude": -121}}"#) == [#"places.HERE: "here" always names the config's location; choose another name"#])
        #expect(try problems(#"{"a b": {"latitude": 47, "longitude": -121}, "x:y": {"latitude": 47, "longitude": -121}}"#) == [
            #"places."a b": a place name is 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit"#,
            #"places."x:y": a place name is 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit"#,
        ])
        #expect(try problems(#"{"stevens": [47, -121]}"#) == [#"places.stevens: expected an object with "latitude" and "longitude", found array"#])
        #expect(try problems(#"["stevens"]"#) == ["places: expected an object of named places, found array"])
        #expect(try problems(#"{"stevens": {"latitude": "47", "longitude": -121}}"#) == ["places.stevens.latitude: expected a number, found string"])
        // Every problem at once.
        #expect(try problems(#"{"a": {"latitude": 91, "longitude": 0}, "b": {"latitude": 0, "longitude": 181}}"#).count == 2)
    }

    @Test func aProfileMayAddOrMovePlaces() throws {
        let profiles = #", "profiles": {"far": {"places": {"tromso": {"latitude": 69.6492, "longitude": 18.9553}, "stevens": {"latitude": 200}}}}"#
        #expect(try problems(#"{"stevens": {"latitude": 47.745, "longitude": -121.093333}}"#, profiles: profiles).isEmpty)
        #expect(try problems(#"{"stevens": {"latitude": 47.745, "longitude": -121.093333}}"#, profiles: profiles, profile: "far")
            == ["places.stevens.latitude: 200.0 is outside -90…90"])
    }
}
