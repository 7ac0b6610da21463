import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMoon
import Foundation
import Testing

@testable import Aeris

@Suite("Decoding Aeris responses")
struct AerisDecodingTests {
    let secrets = [AerisHarness.secret, AerisHarness.clientId]

    func moon(_ document: JSONValue) throws -> AerisMoon {
        try AerisMoon(element: AerisEnvelope.elements(of: document.body, secrets: secrets)[0])
    }

    func phases(_ count: Int, _ document: JSONValue) throws -> [AerisPhase] {
        try AerisPhase.decodeNext(count, from: AerisEnvelope.elements(of: document.body, secrets: secrets))
    }

    /// The error decoding `document` as a moon fails with.
    func moonError(_ document: JSONValue) -> ConditionsError? {
        #expect(throws: ConditionsError.self) { try moon(document) }
    }

    @Test func realSunMoonResponse() throws {
        let moon = try moon(AerisFixture.sunMoon)
        #expect(moon.phase == "waning crescent")
        #expect(moon.illumination == 31)
        #expect(moon.age == 24.02)
        #expect(moon.cycle == 0.8134)
        #expect(moon.rise == Date(timeIntervalSince1970: 1_428_908_400))
        #expect(moon.set == Date(timeIntervalSince1970: 1_428_949_920))
        #expect(moon.json(place: Place.seattle).serialized() == """
            {"phase":"waning crescent","illumination":31,"age":24.02,"cycle":0.8134,\
            "rise":"2015-04-13T07:00:00Z","set":"2015-04-13T18:32:00Z",\
            "location":{"name":"Seattle","latitude":47.6097,"longitude":-122.3331,"timeZone":"America/Los_Angeles"}}
            """)
    }

    @Test func realMoonPhasesResponse() throws {
        let phases = try phases(5, AerisFixture.moonPhases)
        #expect(MoonData.phases(phases.map { ($0.name, $0.date) })["phases"]?.serialized() == """
            [{"name":"new moon","date":"2015-04-18T18:59:19Z"},\
            {"name":"first quarter","date":"2015-04-25T23:56:49Z"},\
            {"name":"full moon","date":"2015-05-04T03:44:47Z"},\
            {"name":"last quarter","date":"2015-05-11T10:36:53Z"},\
            {"name":"new moon","date":"2015-05-18T04:15:43Z"}]
            """)
    }

    @Test func phasesAreSortedByTimeBeforeTruncating() throws {
        guard case .array(let elements)? = try AerisFixture.moonPhases["response"] else {
            Issue.record("fixture has no response array"); return
        }
        let shuffled = try AerisFixture.moonPhases.replacing(["response"], with: .array(elements.reversed()))
        let phases = try phases(2, shuffled)
        #expect(phases.map(\.name) == ["new moon", "first quarter"])
        #expect(phases.map(\.date) == [Date(timeIntervalSince1970: 1_429_383_559), Date(timeIntervalSince1970: 1_430_006_209)])
    }

    @Test func phaseNamesAreLowerCased() throws {
        let shouting = try AerisFixture.moonPhases.replacing(["response", 0, "name"], with: "New Moon")
        #expect(try phases(1, shouting).first?.name == "new moon")
    }

    @Test func fewerPhasesThanAskedIsAnError() throws {
        #expect(throws: ConditionsError.badResponse("Aeris response: asked for 8 phases, received 7")) {
            try phases(8, AerisFixture.moonPhases)
        }
    }

    @Test func oneUnreadablePhaseFailsTheList() throws {
        let broken = try AerisFixture.moonPhases.replacing(["response", 2, "timestamp"], with: "1430711087")
        #expect(throws: ConditionsError.badResponse("Aeris response: response[2].timestamp: expected a number, found string")) {
            try phases(3, broken)
        }
        let nameless = try AerisFixture.moonPhases.replacing(["response", 4, "name"], with: nil)
        #expect(throws: ConditionsError.badResponse("Aeris response: response[4].name: expected a string, but it is missing")) {
            try phases(3, nameless)
        }
    }

    @Test(arguments: ["rise", "set"])
    func nullRiseOrSetIsNull(_ key: String) throws {
        let document = try AerisFixture.sunMoon.replacing(["response", 0, "moon", .key(key)], with: .null)
        let json = try moon(document).json(place: Place.seattle)
        #expect(json[key] == .null)
        #expect(json[key == "rise" ? "set" : "rise"]?.stringValue != nil)
    }

    @Test(arguments: ["rise", "set"])
    func missingRiseOrSetIsNullNot1970(_ key: String) throws {
        let document = try AerisFixture.sunMoon.replacing(["response", 0, "moon", .key(key)], with: nil)
        let moon = try moon(document)
        #expect((key == "rise" ? moon.rise : moon.set) == nil)
        #expect(moon.json(place: Place.seattle)[key] == .null)
    }

    @Test(arguments: [
        (["moon", "phase", "illum"], JSONValue.string("31"), "response[0].moon.phase.illum: expected a number, found string"),
        (["moon", "phase", "illum"], nil, "response[0].moon.phase.illum: expected a number, but it is missing"),
        (["moon", "phase", "illum"], 131, "response[0].moon.phase.illum: 131 is outside 0…100"),
        (["moon", "phase", "name"], 5, "response[0].moon.phase.name: expected a string, found number"),
        (["moon", "phase", "name"], nil, "response[0].moon.phase.name: expected a string, but it is missing"),
        (["moon", "phase", "age"], nil, "response[0].moon.phase.age: expected a number, but it is missing"),
        (["moon", "phase", "age"], -1, "response[0].moon.phase.age: -1 is outside 0…30"),
        (["moon", "phase", "phase"], 1.5, "response[0].moon.phase.phase: 1.5 is outside 0…1"),
        (["moon", "phase", "phase"], .null, "response[0].moon.phase.phase: expected a number, found null"),
        (["moon", "phase"], "waning crescent", "response[0].moon.phase: expected an object, found string"),
        (["moon"], nil, "response[0].moon: expected an object, but it is missing"),
        (["moon", "rise"], "03:00", "response[0].moon.rise: expected a number, found string"),
        (["moon", "set"], false, "response[0].moon.set: expected a number, found boolean"),
    ] as [([String], JSONValue?, String)])
    func wrongOrMissingMoonFieldsNameTheirPath(_ path: [String], _ value: JSONValue?, _ message: String) throws {
        let document = try AerisFixture.sunMoon.replacing([.key("response"), .index(0)] + path.map(JSONStep.key), with: value)
        #expect(moonError(document) == .badResponse("Aeris response: " + message))
    }

    @Test(arguments: [
        (["response"], JSONValue.object(JSONObject()), "Aeris response: response: expected an array, found object"),
        (["response"], nil, "Aeris response: response: expected an array, but it is missing"),
        (["response"], [], "Aeris response: response is empty (no data for this place and time)"),
        (["success"], "yes", "Aeris response: success: expected true or false, found string"),
        (["success"], nil, "Aeris response: success: expected true or false, but it is missing"),
    ] as [([String], JSONValue?, String)])
    func brokenEnvelopesAreBadResponses(_ path: [String], _ value: JSONValue?, _ message: String) throws {
        let document = try AerisFixture.sunMoon.replacing(path.map(JSONStep.key), with: value)
        #expect(moonError(document) == .badResponse(message))
    }

    @Test func nonObjectDocumentIsABadResponse() {
        #expect(moonError([1, 2]) == .badResponse("Aeris response: the document: expected an object, found array"))
    }

    @Test func nonJSONIsABadResponse() {
        let error = #expect(throws: ConditionsError.self) {
            try AerisEnvelope.elements(of: Data("<html>Bad gateway</html>".utf8), secrets: secrets)
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.message.hasPrefix("Aeris response is not JSON: line 1, column 1") == true)
    }

    @Test func failedEnvelopeCarriesAerisCodeAndDescription() throws {
        let document: JSONValue = [
            "success": false,
            "error": ["code": "invalid_client", "description": "The client provided is invalid"],
            "response": [],
        ]
        // Real servers reject a key with HTTP 200 as well as 401: the same hint either way.
        #expect(moonError(document) == .upstream("Aeris rejected the credentials (HTTP 200, success: false): Aeris error invalid_client: The client provided is invalid; check options.clientId and options.clientSecret"))
        let location: JSONValue = [
            "success": false,
            "error": ["code": "invalid_location", "description": "The requested location was not found."],
            "response": [],
        ]
        #expect(moonError(location) == .upstream("Aeris error invalid_location: The requested location was not found."))
    }

    @Test func anErrorWithSuccessTrueIsStillAnError() throws {
        // Aeris answers "no data" warnings with success: true, a non-null error and no response.
        let document: JSONValue = [
            "success": true,
            "error": ["code": "warn_no_data", "description": "Valid request. No results available based on your query parameters."],
            "response": [],
        ]
        #expect(moonError(document) == .upstream("Aeris error warn_no_data: Valid request. No results available based on your query parameters."))
    }

    @Test func aWarningWithDataIsNotAFailure() throws {
        let document = try AerisFixture.sunMoon.replacing(["error"], with: ["code": "warn_partial", "description": "Some fields are unavailable."])
        #expect(try moon(document).phase == "waning crescent")
    }

    @Test func failureWithoutAnErrorObjectIsStillAnError() {
        let document: JSONValue = ["success": false, "error": nil, "response": []]
        #expect(moonError(document) == .upstream("Aeris reported a failure without saying why (success: false, error: null)"))
    }

    @Test func partialErrorObjectsAreDescribedWithWhatTheyHave() {
        #expect(AerisEnvelope.describe(["code": "maxhits_daily"]) == "Aeris error maxhits_daily")
        #expect(AerisEnvelope.describe(["description": "Daily limit reached"]) == "Aeris error: Daily limit reached")
        #expect(AerisEnvelope.describe("Server busy") == "Aeris error: Server busy")
        #expect(AerisEnvelope.describe([:]) == "Aeris reported an error without a code or description")
    }

    @Test func errorDescriptionsEchoingCredentialsAreScrubbed() {
        let document: JSONValue = [
            "success": false,
            "error": ["code": "invalid_client", "description": "client aeris-ID-4711 with secret s3cr3t-VALUE is unknown"],
            "response": [],
        ]
        #expect(moonError(document) == .upstream("Aeris rejected the credentials (HTTP 200, success: false): Aeris error invalid_client: client REDACTED with secret REDACTED is unknown; check options.clientId and options.clientSecret"))
    }
}
