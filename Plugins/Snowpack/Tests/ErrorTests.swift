import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import Foundation
import Testing
@testable import Snowpack

/// Arguments checked before any request, and the ways AWDB can answer badly.
@Suite struct ErrorTests {
    func error(_ urn: String, _ http: RecordingHTTPClient) async throws -> ConditionsError {
        try #require(await makeSource().error(resolving: urn, context: context(http)) as? ConditionsError)
    }

    @Test(arguments: [
        ("snowpack:station:79a:WA:SNTL", "id", "79a"),
        ("snowpack:station:12345678901:WA:SNTL", "id", "12345678901"),
        ("snowpack:station:791:WAS:SNTL", "state", "WAS"),
        ("snowpack:station:791:W1:SNTL", "state", "W1"),
        ("snowpack:station:791:WA:SN7L", "network", "SN7L"),
        ("snowpack:station:791:WA:S", "network", "S"),
    ])
    func badTripletPartsAreNamed(urn: String, argument: String, value: String) async throws {
        let http = try november()
        let error = try await error(urn, http)
        #expect(error.kind == .invalidArguments)
        #expect(error.message.contains(argument))
        #expect(error.message.contains(value))
        #expect(http.requests.isEmpty)
    }

    @Test func tripletInAnyCase() async throws {
        let data = try await makeSource().resolve("snowpack:station:791:wa:sntl", context: context(try november())).data
        #expect(data["station"]?["triplet"] == "791:WA:SNTL")
        #expect(data["place"] == .null)
    }

    @Test func unknownPlaceAndBadCoordinates() async throws {
        let http = try november()
        let unknown = try await error("snowpack:stevns", http)
        #expect(unknown.kind == .notFound)
        #expect(unknown.message.hasPrefix("no place named \"stevns\" (places: stevens, snoqualmie, white, spokane; or here"))
        #expect(unknown.suggestions.first == "snowpack:stevens")
        #expect(try await error("snowpack:47.7,-121.1,3", http).kind == .invalidArguments)
        #expect(try await error("snowpack:97.7,-121.1", http).kind == .invalidArguments)
        #expect(http.requests.isEmpty)
    }

    @Test func aStationNotInTheList() async throws {
        let error = try await error("snowpack:station:123:WA:SNTL", try november())
        #expect(error.kind == .notFound)
        #expect(error.message == "NRCS AWDB lists no active station 123:WA:SNTL among the 7 active SNTL stations of WA")
    }

    @Test func emptyArrayForAStationIsNotFound() async throws {
        let http = try november([Path.dataURL("791:WA:SNTL"): .json("[]")])
        let error = try await error("snowpack:stevens", http)
        #expect(error.kind == .notFound)
        #expect(error.message == "NRCS AWDB has no data for the station 791:WA:SNTL (it answered an empty list)")
    }

    @Test func htmlWith200IsABadResponse() async throws {
        let data = try await error("snowpack:stevens", try november([Path.dataURL("791:WA:SNTL"): .htmlPage]))
        #expect(data.kind == .badResponse)
        #expect(data.message.hasSuffix("NRCS AWDB answered HTTP 200 with an HTML page, not JSON, for the data of 791:WA:SNTL"))
        let list = try await error("snowpack:stevens", try november([Path.stations: .htmlPage]))
        #expect(list.kind == .badResponse)
        #expect(list.message.hasSuffix("NRCS AWDB answered HTTP 200 with an HTML page, not JSON, for the SNTL station list of WA"))
        // HTML sent as JSON is still HTML.
        let disguised = try await error("snowpack:stevens", try november([Path.dataURL("791:WA:SNTL"): .json("  <html><body>Error</body></html>")]))
        #expect(disguised.kind == .badResponse)
    }

    @Test func malformedBodies() async throws {
        for body in ["{\"error\": \"no\"}", "not json", "[{\"stationTriplet\": \"791:WA:SNTL\", \"data\": 7}]"] {
            let error = try await error("snowpack:stevens", try november([Path.dataURL("791:WA:SNTL"): .json(body)]))
            #expect(error.kind == .badResponse, "\(body)")
        }
        let list = try await error("snowpack:stevens", try november([Path.stations: .json("{\"stations\": []}")]))
        #expect(list.kind == .badResponse)
        #expect(list.message.contains("the station list is object, not an array of stations"))
        // Another station's entry only: not this one's data.
        let other = try await error("snowpack:stevens", try november([Path.dataURL("791:WA:SNTL"): try .jsonFixture(Body.olallie)]))
        #expect(other.kind == .notFound)
    }

    @Test func errorStatusesAndAFailedListIsNotKept() async throws {
        let http = RecordingHTTPClient(inOrder: [.status(503), try .jsonFixture(Body.stationsWA), try .jsonFixture(Body.stevens)])
        let source = try makeSource()
        let memory = FreshValues<JSONValue>()
        #expect(await source.error(resolving: "snowpack:stevens", context: context(http, memory: memory)) != nil)
        _ = try await source.resolve("snowpack:stevens", context: context(http, memory: memory))
        #expect(http.requests(to: Path.stations).count == 2)
    }
}
