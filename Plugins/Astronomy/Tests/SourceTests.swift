@testable import Astronomy
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing

/// The module as the host drives it: configuration, routing, arguments and result data.
@Suite struct SourceTests {
    @Test func declaresTheAerisRoutesTheSunAndTheNight() throws {
        let source = try makeSource()
        #expect(AstronomySource.moduleName == "Astronomy")
        #expect(source.routes.map(\.text) == ["moon:now", "moon:{date}", "phases:{count}", "sun:now", "sun:{date}", "night:{place}", "night:{place}:{date}"])
        #expect(source.examples == ["moon:now", "moon:2026-12-04", "phases:5", "sun:now", "sun:2026-06-21", "night:here", "night:here:2026-12-04"])
        #expect(AstronomySource.presentations.map(\.kind) == [.moon, .phases, .sun, .night])
    }

    @Test func moonNowHasTheContractKeysInOrder() async throws {
        let data = try await resolve("moon:now", now: "2015-04-13T22:00:13Z", place: Places.miami)
        let object = try #require(data.objectValue)
        #expect(object.keys == ["phase", "illumination", "age", "cycle", "rise", "set", "location"])
        #expect(data["phase"] == "waning crescent")
        #expect(data["illumination"] == .double(30.6))
        #expect(data["rise"] == "2015-04-13T07:00:00Z")
        // Aeris says 18:32 (it truncates); the set is at 18:32:33, which rounds to 18:33.
        #expect(data["set"] == "2015-04-13T18:33:00Z")
        #expect(data["location"] == Places.miami.json)
        let age = try #require(data["age"]?.doubleValue), cycle = try #require(data["cycle"]?.doubleValue)
        #expect(age == (age * 100).rounded() / 100 && cycle == (cycle * 10000).rounded() / 10000)
    }

    @Test func aDateAloneMeansLocalNoon() async throws {
        let byDate = try await resolve("moon:2026-12-04")
        let atNoon = try await resolve("moon:2026-12-04T20%3A00%3A00Z")  // 12:00 in Seattle (PST)
        #expect(byDate == atNoon)
        #expect(byDate == (try await resolve("moon:2026-12-04T2000Z")))  // the basic ISO 8601 form
        let other = try await resolve("moon:2026-12-04T12%3A00%3A00Z")  // 04:00 in Seattle: same day, other values
        #expect(other["rise"] == byDate["rise"] && other["illumination"] != byDate["illumination"])
    }

    @Test func theDateIsReadInThePlacesZone() async throws {
        let utcPlace = Place(latitude: Places.seattle.latitude, longitude: Places.seattle.longitude)
        let local = try await resolve("moon:2026-12-04T12%3A00%3A00", place: Places.seattle)
        let explicit = try await resolve("moon:2026-12-04T20%3A00%3A00Z", place: Places.seattle)
        #expect(local["illumination"] == explicit["illumination"])
        // Without a zone the local day is the UTC day, so rise and set may differ from Seattle's.
        let utc = try await resolve("moon:2026-12-04T20%3A00%3A00Z", place: utcPlace)
        #expect(utc["illumination"] == explicit["illumination"])
        #expect(utc["location"]?["timeZone"] == nil)
    }

    @Test func dateNowIsTheContextClock() async throws {
        let viaArgument = try await resolve("moon:NOW")
        let viaLiteral = try await resolve("moon:now")
        #expect(viaArgument == viaLiteral)
    }

    @Test(arguments: ["2026-13-01", "2023-02-29", "2100-02-29", "tomorrow", "2026-12-04T25%3A00", "12/04/2026", "1899-12-31", "2101-01-01"])
    func invalidDates(_ text: String) async {
        let error = await conditionsError { _ = try await resolve("moon:\(text)") }
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message.contains("invalid date") == true)
        #expect(error?.message.contains("2026-12-04T1800Z") == true)
    }

    @Test(arguments: ["2024-02-29", "2000-02-29", "1900-01-01", "2100-12-31", "2015-12-31T23%3A59%3A59Z"])
    func validDatesIncludingLeapDaysAndTheEndsOfTheRange(_ text: String) async throws {
        let data = try await resolve("moon:\(text)")
        let illumination = try #require(data["illumination"]?.doubleValue)
        #expect((0...100).contains(illumination))
    }

    @Test func anInstantOutsideTheRangeIsRefused() async {
        let error = await conditionsError { _ = try await resolve("moon:now", now: "2101-06-01T00:00:00Z") }
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message.contains("1900–2100") == true)
    }

    /// At the range's ends the place's year decides, not UTC's: 05:00Z on 1 January 2101 is
    /// still 2100 in Seattle, and 23:00Z on 31 December 2100 already 2101 in Tokyo.
    @Test func theRangesEndsAreTheYearsOfThePlace() async throws {
        let tokyo = Place(latitude: 35.68, longitude: 139.69, timeZone: TimeZone(identifier: "Asia/Tokyo"))
        _ = try await resolve("moon:now", now: "2101-01-01T05:00:00Z", place: Places.seattle)
        _ = try await resolve("moon:now", now: "1900-01-01T09:00:00Z", place: Places.seattle)
        let late = await conditionsError { _ = try await resolve("moon:now", now: "2100-12-31T23:00:00Z", place: tokyo) }
        #expect(late?.kind == .invalidArguments)
        let early = await conditionsError { _ = try await resolve("moon:now", now: "1900-01-01T07:00:00Z", place: tokyo) }
        #expect(early == nil, "16:00 on 1 January 1900 in Tokyo")
        let before = await conditionsError { _ = try await resolve("moon:now", now: "1900-01-01T05:00:00Z", place: Places.seattle) }
        #expect(before?.kind == .invalidArguments, "21:00 on 31 December 1899 in Seattle")
    }

    @Test func phasesListsTheNextPrincipalPhasesInOrder() async throws {
        let data = try await resolve("phases:5", now: "2015-04-15T00:00:00Z")
        let phases = try #require(data["phases"]?.arrayValue)
        #expect(phases.count == 5)
        #expect(phases.map { $0["name"]?.stringValue } == ["new moon", "first quarter", "full moon", "last quarter", "new moon"])
        // DE421 (Skyfield): 18:56:50.7 UT.
        #expect(phases.first?["date"] == "2015-04-18T18:56:51Z")
        #expect(phases.first?.objectValue?.keys == ["name", "date"])
    }

    @Test func aPhaseExactlyAtNowIsNotListed() async throws {
        let first = try await resolve("phases:1", now: "2015-04-18T18:56:50Z")
        #expect(first["phases"]?.arrayValue?.first?["name"] == "new moon")
        let atInstant = try await resolve("phases:1", now: "2015-04-18T18:56:51Z")
        #expect(atInstant["phases"]?.arrayValue?.first?["name"] == "first quarter")
    }

    @Test func phasesCrossYearBoundaries() async throws {
        let data = try await resolve("phases:3", now: "2099-12-30T00:00:00Z")
        let dates = try #require(data["phases"]?.arrayValue).compactMap { $0["date"]?.stringValue }
        #expect(dates.count == 3)
        #expect(dates.allSatisfy { $0.hasPrefix("2100-01") })
        #expect(dates == dates.sorted())
    }

    @Test func oneHundredPhasesSpanAboutTwoYears() async throws {
        let phases = try #require(try await resolve("phases:100")["phases"]?.arrayValue)
        #expect(phases.count == 100)
        let first = try instant(try #require(phases.first?["date"]?.stringValue))
        let last = try instant(try #require(phases.last?["date"]?.stringValue))
        #expect(abs(last.timeIntervalSince(first) / 86400 - 99 * 29.530589 / 4) < 2)
    }

    @Test(arguments: ["0", "101", "-1", "+5", "5.0", "five", "1000", "٥"])
    func invalidCounts(_ text: String) async {
        let error = await conditionsError { _ = try await resolve("phases:\(text)") }
        #expect(error == .invalidArguments(argument: "count", value: text, allowed: "a whole number from 1 to 100"))
    }

    @Test func aLocationOptionReplacesTheConfiguredPlace() async throws {
        let options = JSONObject([("location", ["name": "Sydney", "latitude": -33.8688, "longitude": 151.2093,
                                                "timeZone": "Australia/Sydney"])])
        let source = try makeSource(options: options)
        let data = try await resolve("moon:2026-12-04", place: Places.seattle, source: source)
        #expect(data["location"]?["name"] == "Sydney")
        #expect(data == (try await resolve("moon:2026-12-04", place: Places.sydney)))
    }

    @Test func unknownOptionsAreConfigurationErrors() async {
        let unknown = await conditionsError { _ = try makeSource(options: JSONObject([("locaton", ["latitude": 1])])) }
        #expect(unknown?.kind == .configuration)
        #expect(unknown?.message.contains("did you mean \"location\"") == true)
        let badPlace = await conditionsError { _ = try makeSource(options: JSONObject([("location", ["latitude": 95, "longitude": 0])])) }
        #expect(badPlace?.kind == .configuration)
        #expect(badPlace?.message.contains("sources.astronomy.options.location.latitude") == true)
    }
}
