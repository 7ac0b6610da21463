import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import DocCTides

/// NOAA's answer, as recorded: the tests never touch the network.
let noaa = #"{"predictions": [{"t": "2026-11-21 09:58", "v": "11.204", "type": "H"}, {"t": "2026-11-21 16:41", "v": "3.912", "type": "L"}]}"#

@Suite struct TidesSourceTests {
    @Test func answersTheNextTide() async throws {
        let source = try TidesSource(configuration: .testing(instance: "tides"))
        let http = RecordingHTTPClient(["/api/prod/datagetter": .response(headers: ["Cache-Control": "max-age=600"], body: Data(noaa.utf8))])
        let result = try await source.resolve("tide:9447130", context: SourceContextBuilder(http: http).build())
        #expect(result.kind == TidesSource.kind)
        #expect(result.data == ["station": "9447130", "tide": "low", "at": "2026-11-21T16:41:00Z", "height": 3.912, "unit": "ft"])
        #expect(result.ttl == 600)
        // One request, for the station, from the start of the report's day (2026-11-21T14:05:00Z).
        let query = try #require(http.requests.first?.url.query)
        #expect(http.requests.count == 1 && query.contains("station=9447130") && query.contains("begin_date=20261121"))
    }

    @Test func saysWhatFailed() async throws {
        let source = try TidesSource(configuration: .testing(instance: "tides"))
        let http = RecordingHTTPClient(.json(#"{"error": {"message": "No Predictions data was found."}}"#))
        let error = try #require(await source.error(resolving: "tide:9447130", context: SourceContextBuilder(http: http).build()) as? ConditionsError)
        #expect(error.kind == .notFound)
        // A station id that is not one is refused before any request.
        let refused = try #require(await source.error(resolving: "tide:seattle", context: SourceContextBuilder(http: http).build()) as? ConditionsError)
        #expect(refused == .invalidArguments(argument: "station", value: "seattle", allowed: "a 7-digit NOAA station id"))
        #expect(http.requests.count == 1)
    }

    @Test func refusesAnUnknownOption() {
        #expect(throws: ConditionsError.self) { try TidesSource(configuration: .testing(instance: "tides", json: #"{"unit": "metres"}"#)) }
    }

    @Test func readsThroughItsPresentation() async throws {
        let source = try TidesSource(configuration: .testing(instance: "tides"))
        let http = RecordingHTTPClient(.json(noaa))
        let result = try await source.resolve("tide:9447130", context: SourceContextBuilder(http: http).build())
        let presentation = try #require(TidesSource.presentations.first { $0.kind == result.kind })
        let context = PresentationContext(urn: "tide:9447130", style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        #expect(presentation.render(result.data, context: context) == ["tide:9447130  low 3.912 ft at 2026-11-21T16:41:00Z"])
        #expect(presentation.card(result.data, context: context).status == .init("low", tone: .neutral))
        // Once the low has passed, the next tide is a change for `watch`.
        let later: JSONValue = ["station": "9447130", "tide": "high", "at": "2026-11-21T23:02:00Z", "height": 10.5, "unit": "ft"]
        #expect(presentation.changeKey(later) != presentation.changeKey(result.data))
    }
}
