import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// Places are found in the zone whose polygon contains them, zones by the center's name for
/// them; never by a kept zone id, which changes every season.
@Suite struct ZoneLookupTests {
    /// The passes, well inside the derived (approximate) NWAC polygons.
    @Test(arguments: [
        ("stevens", "Stevens Pass", ZoneID.stevensPass),
        ("snoqualmie", "Snoqualmie Pass", ZoneID.snoqualmiePass),
        ("white", "West Slopes South", ZoneID.westSlopesSouth),
        ("\(Place.stevensPoint)", "Stevens Pass", ZoneID.stevensPass),
        ("Stevens-Pass", "Stevens Pass", ZoneID.stevensPass),
    ])
    func aPlaceIsInTheZoneContainingIt(argument: String, zone: String, id: Int) async throws {
        let map = try ZoneMap(layer: JSONValue.parse(fixture(Body.mapLayer2026)), source: "test")
        let found = try PlaceArgument.parse(argument, places: places).zone(in: map, places: places, center: "NWAC")
        #expect(found.name == zone)
        #expect(found.id == id)
    }

    /// Seattle is in no zone: the answer names the nearest (West Slopes Central, whose west
    /// edge runs along -122.0: 24.97 km away along the parallel) and suggests it.
    @Test func aPlaceOutsideEveryZoneNamesTheNearest() async throws {
        let source = try makeSource()
        let error = try #require(await source.error(resolving: "avalanche:here", context: context(try april())) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message == "47.6097,-122.3331 (Seattle) is in no NWAC forecast zone; the nearest is West Slopes Central, 25.0 km from its edge")
        #expect(error.suggestions == ["avalanche:west-slopes-central"])
        let map = try ZoneMap(layer: JSONValue.parse(fixture(Body.mapLayer2026)), source: "test")
        let nearest = try #require(map.nearest(to: GeoPoint(latitude: 47.6097, longitude: -122.3331)))
        #expect(abs(nearest.km - 24.971) < 0.01)
    }

    /// The 2022-23 layer gives Stevens Pass the id 1132, this season's 1649: the product asked
    /// for is the one the layer of the day names, found by the place's polygon or the zone's
    /// name. One instance (a long-running `conditions serve`) follows the change once its kept
    /// layer is a day old.
    @Test func zoneIdsFromLastSeasonAreNotKept() async throws {
        let forecast = try RecordingHTTPClient.Reply.jsonFixture(Body.forecastWestSlopesNorth)
        let none = try RecordingHTTPClient.Reply.jsonFixture(Body.warningNone)
        let lastSeason = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayer2023), Path.product(ZoneID.stevensPass2023): forecast,
                                              Path.warning(ZoneID.stevensPass2023): none])
        let thisSeason = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayer2026), Path.product(ZoneID.stevensPass): forecast,
                                              Path.warning(ZoneID.stevensPass): none])
        let source = try makeSource()
        let old = try await source.resolve("avalanche:stevens", context: context(lastSeason))
        let new = try await source.resolve("avalanche:stevens-pass", context: context(thisSeason, now: aprilMorning.addingTimeInterval(ForecastDocuments.mapLayerLifetime)))
        #expect(old.data["zone"]?["id"] == 1132)
        #expect(new.data["zone"]?["id"] == 1649)
        #expect(old.data["zone"]?["name"] == "Stevens Pass")
        #expect(new.data["zone"]?["name"] == "Stevens Pass")
        #expect(lastSeason.forecastRequests.map(\.url.query) == ["type=forecast&center_id=NWAC&zone_id=1132"])
        #expect(thisSeason.forecastRequests.map(\.url.query) == ["type=forecast&center_id=NWAC&zone_id=1649"])
    }

    /// The real SNFAC layer: names with `&`, polygons of 40 to 74 vertices.
    @Test func theRealSawtoothLayer() throws {
        let map = try ZoneMap(layer: JSONValue.parse(fixture(Body.mapLayerSNFAC)), source: "test")
        #expect(map.zones.map(\.name) == ["Banner Summit", "Galena Summit & Eastern Mtns", "Sawtooth & Western Smoky Mtns", "Soldier & Wood River Valley Mtns"])
        #expect(map.zones.map(\.id) == [2907, 2904, 2906, 2905])
        #expect(map.zone(named: "banner-summit")?.id == 2907)
        #expect(map.zone(named: "Galena Summit & Eastern Mtns")?.slug == "galena-summit-&-eastern-mtns")
        #expect(map.zone(containing: GeoPoint(latitude: 44.36, longitude: -115.23))?.name == "Banner Summit")
        #expect(map.zone(containing: GeoPoint(latitude: 43.8656, longitude: -114.7138))?.name == "Galena Summit & Eastern Mtns")
        #expect(map.zone(containing: GeoPoint(latitude: 43.6807, longitude: -114.3637))?.name == "Soldier & Wood River Valley Mtns")
        #expect(map.zone(containing: GeoPoint(latitude: Place.stevens.latitude, longitude: Place.stevens.longitude)) == nil)
        #expect(map.zones.allSatisfy { !$0.offSeason && $0.warning.isNull })
    }

    @Test func aHoleIsNotInside() {
        let square = { (low: Double, high: Double) in
            [GeoPoint(latitude: low, longitude: low), GeoPoint(latitude: low, longitude: high),
             GeoPoint(latitude: high, longitude: high), GeoPoint(latitude: high, longitude: low)]
        }
        let outline = ZoneOutline(polygons: [[square(0, 10), square(4, 6)]])
        #expect(outline.contains(GeoPoint(latitude: 2, longitude: 2)))
        #expect(!outline.contains(GeoPoint(latitude: 5, longitude: 5)))
        #expect(!outline.contains(GeoPoint(latitude: 11, longitude: 5)))
        // One degree of latitude is about 111.2 km.
        #expect(abs(outline.distanceToEdge(from: GeoPoint(latitude: 11, longitude: 5)) - 111.2) < 0.1)
    }

    @Test func anUnknownNameSuggestsPlacesAndZones() async throws {
        let source = try makeSource()
        let error = try #require(await source.error(resolving: "avalanche:stevens-pas", context: context(try april())) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message.hasPrefix("no place or NWAC zone named \"stevens-pas\" (zones: olympics, west-slopes-north,"))
        #expect(error.suggestions.first == "avalanche:stevens-pass")
    }

    @Test(arguments: ["95,10", "47.7,", "47.7,-121.1,3", "1e2,5", "nan,5"])
    func badCoordinatesAreRejectedBeforeAnyRequest(argument: String) async throws {
        let http = try april()
        let error = try #require(await makeSource().error(resolving: "avalanche:\(argument)", context: context(http)) as? ConditionsError)
        #expect(error.kind == .invalidArguments)
        #expect(http.requests.isEmpty)
    }
}
