import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// The module as the host runs it, through ConditionsKitTesting: configurations made as from
/// `sources.json`, URNs routed through the module's patterns, and contexts with a pinned clock
/// (2026-11-21T14:05:00Z) in Seattle whose HTTP client records every request.
@Suite struct AvalancheTests {
    func makeSource(_ options: JSONValue = [:]) throws -> AvalancheSource {
        try AvalancheSource(configuration: .testing(instance: "avalanche", options: options))
    }

    @Test func answersItsRoute() async throws {
        let http = RecordingHTTPClient(.status(503))
        let result = try await makeSource(["greeting": "hi"]).resolve("avalanche:harbor-7", context: SourceContextBuilder(http: http).build())
        #expect(result.data["id"] == "harbor-7")
        #expect(result.data["message"] == "hi, harbor-7")
        #expect(result.data["length"] == 8)
        #expect(result.data["place"] == "Seattle")
        #expect(result.data["asOf"] == "2026-11-21T14:05:00Z")
        #expect(http.requests.isEmpty, "answered without the network")
    }

    @Test func rejectsAnIdItCannotServe() async throws {
        let source = try makeSource()
        await #expect(throws: ConditionsError.invalidArguments(argument: "id", value: "a.b", allowed: "1 to 64 letters, digits or '-'")) {
            try await source.resolve("avalanche:a.b", context: SourceContextBuilder().build())
        }
    }

    @Test func rejectsUnknownOptions() throws {
        #expect(throws: ConditionsError.self) { try makeSource(["greting": "hi"]) }
    }

    @Test func readsThroughItsPresentation() async throws {
        let result = try await makeSource().resolve("avalanche:harbor-7", context: SourceContextBuilder().build())
        #expect(result.kind == AvalancheSource.kind)
        let presentation = try #require(AvalancheSource.presentations.first { $0.kind == result.kind })
        let context = PresentationContext(urn: "avalanche:harbor-7", style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        #expect(presentation.render(result.data, context: context) == ["avalanche:harbor-7  hello, harbor-7 (as of 2026-11-21T14:05:00Z)"])
        // A later poll with the same message is no change; another message is.
        let later: JSONValue = ["id": "harbor-7", "message": "hello, harbor-7", "asOf": "2026-11-21T15:00:00Z"]
        #expect(presentation.changeKey(later) == presentation.changeKey(result.data))
        let other: JSONValue = ["id": "harbor-7", "message": "goodbye, harbor-7", "asOf": "2026-11-21T14:05:00Z"]
        #expect(presentation.changeKey(other) != presentation.changeKey(result.data))
    }
}
