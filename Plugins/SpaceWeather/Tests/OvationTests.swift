import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// The OVATION grid: the real 2025-01-12 document, indexed by cell; the nearest cell to a
/// place, the longitude wrapped to 0…359 east.
@Suite struct OvationTests {
    @Test func theRealGrid() throws {
        let grid = try OvationGrid(document: try JSONValue.parse(try fixture(Body.ovation)), source: "ovation")
        #expect(grid.points == 65_160)
        #expect(grid.skipped == 0)
        #expect(grid.observationTime == Timestamp.parse("2025-01-12T21:42:00Z"))
        #expect(grid.forecastTime == Timestamp.parse("2025-01-12T22:51:00Z"))
        // The document's first and last points, and cells either side of the meridian.
        #expect(grid.probability(at: .init(longitude: 0, latitude: -90)) == 4)
        #expect(grid.probability(at: .init(longitude: 0, latitude: -88)) == 6)
        #expect(grid.probability(at: .init(longitude: 359, latitude: 63)) == 10)
        #expect(grid.probability(at: .init(longitude: 0, latitude: 63)) == 9)
    }

    @Test(arguments: [
        (47.6097, -122.3331, 238, 48),  // Seattle
        (Place.stevens.latitude, Place.stevens.longitude, 239, 48),   // Stevens Pass
        (63.0, -0.4, 0, 63),            // 359.6° E: rounds up to 360, which is cell 0
        (63.0, -0.6, 359, 63),
        (63.0, 359.6, 0, 63),
        (63.0, 0.4, 0, 63),
        (63.0, 180.0, 180, 63),
        (63.0, -180.0, 180, 63),
        (-89.6, 10.0, 10, -90),
        (90.0, 10.5, 11, 90),
    ])
    func nearestCell(latitude: Double, longitude: Double, cellLongitude: Int, cellLatitude: Int) {
        #expect(OvationGrid.cell(latitude: latitude, longitude: longitude) == .init(longitude: cellLongitude, latitude: cellLatitude))
    }

    @Test func unreadablePointsAreSkippedAndCounted() throws {
        let grid = try OvationGrid(document: try JSONValue.parse(#"""
            {"Observation Time": "2025-01-12T21:42:00Z", "Forecast Time": "2025-01-12T22:51:00Z",
             "coordinates": [[0, 63, 9], [360, 63, 5], [1, 91, 5], [2, 63, 101], [3, 63], "x", [4, 63, -1], [5.5, 63, 3], [359, 63, 10.4]]}
            """#), source: "o")
        #expect(grid.points == 2)
        #expect(grid.skipped == 7)
        #expect(grid.probability(at: .init(longitude: 359, latitude: 63)) == 10)
        #expect(grid.probability(at: .init(longitude: 1, latitude: 63)) == nil, "a cell without a point has no probability, not 0")
    }

    @Test func unreadableDocuments() {
        let cases: [(String, ErrorKind)] = [
            (#"{"coordinates": []}"#, .notFound), (#"{"type": "MultiPoint"}"#, .badResponse), (#"{"coordinates": [[400, 0, 1]]}"#, .badResponse), ("[]", .badResponse),
        ]
        for (body, kind) in cases {
            let error = #expect(throws: ConditionsError.self) { try OvationGrid(document: try JSONValue.parse(body), source: "o") }
            #expect(error?.kind == kind, "\(body)")
        }
    }

    /// The place's cell and its probability in the result: Tromsø 23 %, Reykjavik 14 %, and
    /// a point 0.4° west of Greenwich reads cell 0 (9 %), not 359 (10 %).
    @Test func aPlaceReadsItsCell() async throws {
        let source = try makeSource()
        for (urn, probability, latitude, longitude) in [("aurora:tromso", 23, 70, 19), ("aurora:reykjavik", 14, 64, 338), ("aurora:meridian", 9, 63, 0),
                                                          ("aurora:63,-0.6", 10, 63, 359), ("aurora:stevens", 0, 48, 239)] {
            let result = try await source.resolve(urn, context: context(try swpc()))
            let ovation = try #require(result.data["ovation"])
            #expect(ovation["probability"]?.intValue == probability, "\(urn)")
            #expect(ovation["latitude"]?.intValue == latitude, "\(urn)")
            #expect(ovation["longitude"]?.intValue == longitude, "\(urn)")
            #expect(ovation["observationTime"] == "2025-01-12T21:42:00Z")
            #expect(ovation["forecastTime"] == "2025-01-12T22:51:00Z")
        }
    }

    /// The grid is fetched and parsed once for many places, and again after 5 minutes even
    /// when the TTL is longer; `aurora:now` never asks for it.
    @Test func theGridIsKeptFiveMinutes() async throws {
        let http = try swpc()
        let source = try makeSource()
        var builder = SourceContextBuilder(now: februaryEvening, places: places, http: http, maxAge: 3600).keepingValues()
        _ = try await source.resolve("aurora:now", context: builder.build())
        #expect(http.requests(to: Path.ovation).isEmpty)
        for urn in ["aurora:tromso", "aurora:reykjavik", "aurora:stevens"] { _ = try await source.resolve(urn, context: builder.build()) }
        #expect(http.requests(to: Path.ovation).count == 1)
        #expect(http.requests(to: Path.kp).count == 1, "the K-index is kept for the TTL")
        builder.now += 299
        _ = try await source.resolve("aurora:tromso", context: builder.build())
        #expect(http.requests(to: Path.ovation).count == 1)
        builder.now += 2
        _ = try await source.resolve("aurora:tromso", context: builder.build())
        #expect(http.requests(to: Path.ovation).count == 2)
        #expect(http.requests(to: Path.kp).count == 1)
        // Fresh data asked for (--refresh): everything again.
        builder.maxAge = 0
        _ = try await source.resolve("aurora:tromso", context: builder.build())
        #expect(http.requests(to: Path.ovation).count == 3)
        #expect(http.requests(to: Path.kp).count == 2)
    }
}
