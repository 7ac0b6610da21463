import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import ConditionsText
import Foundation
import Testing
@testable import Snowpack

/// The nearest active station to a place, the station list asked once, and one data request
/// per station however many URNs resolve to it.
@Suite struct StationTests {
    @Test func nearestStationsToThePasses() async throws {
        let source = try makeSource()
        let http = try november()
        let stevens = try await source.resolve("snowpack:stevens", context: context(http)).data
        #expect(stevens["station"]?["triplet"] == "791:WA:SNTL")
        #expect(stevens["place"]?["id"] == "stevens")
        #expect(stevens["place"]?["distanceKm"]?.doubleValue == 0.6)
        #expect(stevens["place"]?["distanceMi"]?.doubleValue == 0.4)
        // Snoqualmie Pass has no station of its name: Olallie Meadows is 4.8 km away, Tinkham
        // Creek 9.9 km and Stampede Pass 15.9 km.
        let snoqualmie = try await source.resolve("snowpack:snoqualmie", context: context(http)).data
        #expect(snoqualmie["station"]?["triplet"] == "672:WA:SNTL")
        #expect(snoqualmie["station"]?["name"] == "Olallie Meadows")
        #expect(snoqualmie["place"]?["distanceKm"]?.doubleValue == 4.8)
        #expect(snoqualmie["depthIn"]?.doubleValue == 61)
    }

    @Test func nearestIsByGreatCircleAmongActiveStations() throws {
        let list = try StationList(document: try JSONValue.parse(try fixture(Body.stationsWA)), source: "test", today: PacificStandardTime.day(novemberMorning))
        #expect(list.stations.count == 7)
        func nearest(_ latitude: Double, _ longitude: Double) -> String? {
            list.nearest(to: GeoPoint(latitude: latitude, longitude: longitude))?.station.triplet.text
        }
        #expect(nearest(47.41, -121.405833) == "672:WA:SNTL")
        // On top of the derived ended site: it is never chosen.
        #expect(nearest(47.41, -121.41) == "672:WA:SNTL")
        #expect(nearest(46.6383, -121.39) == "863:WA:SNTL")
        #expect(nearest(48.5157, -120.7369) == "711:WA:SNTL")
        #expect(nearest(47.3358, -120.5792) == "352:WA:SNTL")
        #expect(nearest(47.2775, -121.3369) == "788:WA:SNTL")
        let km = GeoPoint(latitude: 47.41, longitude: -121.405833).kilometres(to: GeoPoint(latitude: 47.374, longitude: -121.442))
        #expect(abs(km - 4.84) < 0.01)
    }

    @Test func aPlaceFarFromEveryStationIsNotFound() async throws {
        let http = try november()
        let error = try #require(await makeSource().error(resolving: "snowpack:spokane", context: context(http)) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message.contains("47.6588,-117.426 (Spokane) is 247 km from the nearest active SNOTEL station in WA (Blewett Pass, 352:WA:SNTL)"))
        #expect(error.suggestions == ["snowpack:station:352:WA:SNTL"])
        #expect(error.message.hasSuffix("more than 100 km is too far (sources.snowpack.options.maxDistanceKm; a state is added in sources.snowpack.options.states)"))
        #expect(http.requests(to: Path.data).isEmpty)
        // Allowed farther: Blewett Pass answers (its data is [] in this script).
        let farther = try #require(await makeSource(["maxDistanceKm": 250]).error(resolving: "snowpack:spokane", context: context(http)) as? ConditionsError)
        #expect(farther.message.contains("352:WA:SNTL (it answered an empty list)"))
    }

    @Test func oneStationListRequestForSeveralPlaces() async throws {
        let http = try november()
        let source = try makeSource()
        let memory = FreshValues<JSONValue>()
        async let stevens = source.resolve("snowpack:stevens", context: context(http, memory: memory))
        async let snoqualmie = source.resolve("snowpack:snoqualmie", context: context(http, memory: memory))
        async let white = source.resolve("snowpack:white", context: context(http, memory: memory))
        async let point = source.resolve("snowpack:\(Place.stevensPoint)", context: context(http, memory: memory))
        async let byTriplet = source.resolve("snowpack:station:672:WA:SNTL", context: context(http, memory: memory))
        _ = try await (stevens, snoqualmie, point, byTriplet)
        _ = try? await white  // White Pass E.S. answers [] in this script
        // Seattle: Tinkham Creek, 72 km away (its data is [] in this script).
        let here = try #require(await source.error(resolving: "snowpack:here", context: context(http, memory: memory)) as? ConditionsError)
        #expect(here.message.contains("899:WA:SNTL"))
        #expect(http.requests(to: Path.stations).count == 1)
        #expect(http.requests(to: Path.stations).first?.url.query == Path.stationsQuery)

        // The memo outlives the instance (the host keeps it in the cache folder between runs):
        // a new instance the next hour asks no list.
        let nextRun = try makeSource()
        _ = try await nextRun.resolve("snowpack:stevens", context: context(http, now: novemberMorning.addingTimeInterval(3600), memory: memory))
        #expect(http.requests(to: Path.stations).count == 1)
        // A day later it is asked again (the next day's data is not in this script: `[]`).
        _ = try? await nextRun.resolve("snowpack:stevens", context: context(http, now: novemberMorning.addingTimeInterval(86_400), memory: memory))
        #expect(http.requests(to: Path.stations).count == 2)
    }

    @Test func oneDataRequestPerStationForSeveralURNs() async throws {
        let http = try november()
        let source = try makeSource()
        let memory = FreshValues<JSONValue>()
        async let a = source.resolve("snowpack:stevens", context: context(http, memory: memory))
        async let b = source.resolve("snowpack:station:791:WA:SNTL", context: context(http, memory: memory))
        async let c = source.resolve("snowpack:\(Place.stevensPoint)", context: context(http, memory: memory))
        async let d = source.resolve("snowpack:snoqualmie", context: context(http, memory: memory))
        let results = try await [a, b, c, d]
        #expect(results[0].data["depthIn"] == results[1].data["depthIn"])
        _ = try await source.resolve("snowpack:STEVENS", context: context(http, memory: memory))
        let data = http.requests(to: Path.data).map(\.url.absoluteString)
        #expect(data.count == 2)
        #expect(Set(data) == [Path.dataURL("791:WA:SNTL"), Path.dataURL("672:WA:SNTL")])

        // Fresh data asked for (--refresh, --no-cache): asked every time.
        _ = try await source.resolve("snowpack:stevens", context: context(http, maxAge: 0, memory: memory))
        #expect(http.requests(to: Path.data).count == 3)
        // An hour on (the TTL) it is asked again.
        _ = try await source.resolve("snowpack:stevens", context: context(http, now: novemberMorning.addingTimeInterval(3600), memory: memory))
        #expect(http.requests(to: Path.data).count == 4)
    }

    @Test func theDataURLDependsOnlyOnStationAndPSTDay() throws {
        var options = SourceOptions(path: "sources.snowpack.options", object: JSONObject(), baseDirectory: URL(fileURLWithPath: "/"))
        let settings = try SnowpackSettings(options: &options)
        let triplet = try StationTriplet(id: "791", state: "wa", network: "sntl")
        // 00:30 PST and 23:30 PST on Nov 26 are one day; 08:30 Z on Nov 27 (00:30 PST) is the next.
        let early = settings.dataURL(triplet: triplet, today: PacificStandardTime.day(Timestamp.parse("2026-11-26T08:30:00Z")!))
        let late = settings.dataURL(triplet: triplet, today: PacificStandardTime.day(Timestamp.parse("2026-11-27T07:30:00Z")!))
        let next = settings.dataURL(triplet: triplet, today: PacificStandardTime.day(Timestamp.parse("2026-11-27T08:30:00Z")!))
        #expect(early == late)
        #expect(early.absoluteString == Path.dataURL("791:WA:SNTL"))
        #expect(next != early)
        #expect(settings.stationsURL(states: ["WA", "OR"]).absoluteString
                == "https://wcc.sc.egov.usda.gov/awdbRestApi/services/v1/stations?stationTriplets=*:WA:SNTL,*:OR:SNTL&activeOnly=true")
    }

    @Test func statesOption() async throws {
        let http = try november()
        let source = try makeSource(["states": ["wa", "OR", "WA"]])
        _ = try await source.resolve("snowpack:stevens", context: context(http))
        #expect(http.requests(to: Path.stations).first?.url.query == "stationTriplets=*:WA:SNTL,*:OR:SNTL&activeOnly=true")
        #expect(throws: ConditionsError.self) { try makeSource(["states": ["Washington"]]) }
        #expect(throws: ConditionsError.self) { try makeSource(["states": []]) }
        #expect(throws: ConditionsError.self) { try makeSource(["baseURL": "ftp://example.org"]) }
        #expect(throws: ConditionsError.self) { try makeSource(["stations": "791"]) }
        #expect(throws: ConditionsError.self) { try makeSource(["maxDistanceKm": 0]) }
    }
}
