import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import ConditionsText
import Foundation
import Testing
@testable import WSDOT

/// The pass kind's Home Assistant entities on WSDOT's real reports, read by the module as it
/// reads them live: the Traveler API of 2025-11-15 (North Cascade closed, "Pass Closed" both
/// ways; Snoqualmie open; Loup Loup unknown, its advisory off), the page of 2024-01-10 (traction
/// tires and chains required), the rendered page of 2025-11-02, and the feed of 2025-11-03 with
/// its real camera URLs (Resources/real/SOURCES.md, Resources/derived/SOURCES.md).
@Suite("Pass entities (Home Assistant) on real WSDOT reports")
struct PassEntitiesTests {
    let presentation = WSDOTPassSource.presentations.first { $0.kind == .pass }!

    func entities(_ data: JSONValue, _ urn: String) -> [Entity] {
        presentation.entities(data, context: PresentationContext(urn: urn, style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) })
    }

    /// `pass:{name}` or `pass:all` from the Traveler API answer of 2025-11-15, as
    /// `ClosedIsClosedTests` reads it.
    func november15(_ urn: String) async throws -> JSONValue {
        let (source, http) = try ClosedIsClosedTests().api()
        return try await resolve(urn, with: source, http: http, now: ClosedIsClosedTests.capturedAt)
    }

    @Test("North Cascade of 2025-11-15: closed, by the words that closed it, each direction's text, 34 °F")
    func closedPass() async throws {
        let data = try await november15("pass:north-cascade")
        let all = entities(data, "pass:north-cascade")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "closed")
        let closed = try #require(entity("closed", in: all))
        #expect(closed.component == .binarySensor)
        #expect(closed.state == true)
        let words = try #require(closed.attributes["closedBy"]?.stringValue)
        #expect(words.hasPrefix("the restriction texts and the road condition: “Pass Closed”"), "\(words)")
        #expect(words.contains("temporarily closed between milepost 134 and 171"), "\(words)")
        #expect(entity("traction", in: all)?.state == false, "closed, but nothing says tires or chains")
        #expect(entity("traction", in: all)?.name == "Traction tires or chains required")
        let temperature = try #require(entity("temperature", in: all))
        #expect(temperature.state.doubleValue == 34 && temperature.unit == "°F")
        #expect(temperature.deviceClass == "temperature" && temperature.stateClass == "measurement")
        #expect(entity("eastbound", in: all)?.state == "Pass Closed")
        #expect(entity("westbound", in: all)?.state == "Pass Closed")
        #expect(entity("eastbound", in: all)?.attributes["current"] == false, "WSDOT's advisory was off")
        let report = try #require(entity("report_age", in: all))
        #expect(report.name == "Report time" && report.category == "diagnostic" && report.deviceClass == "timestamp")
        #expect(report.state == data["updated"] && report.state != .null)
        #expect(entity("status", in: all)?.attributes["camera"] == nil, "the Traveler API has no cameras")
    }

    @Test("Snoqualmie of 2025-11-15: open, not closed, no closedBy, 47 °F")
    func openPass() async throws {
        let all = entities(try await november15("pass:snoqualmie"), "pass:snoqualmie")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "open")
        #expect(entity("closed", in: all)?.state == false)
        #expect(entity("closed", in: all)?.attributes["closedBy"] == .null)
        #expect(entity("traction", in: all)?.state == false)
        #expect(entity("temperature", in: all)?.state.doubleValue == 47)
        #expect(entity("eastbound", in: all)?.state == "No restrictions")
    }

    @Test("Loup Loup of 2025-11-15, WSDOT's advisory off: unknown, so closed and traction are unknown too")
    func unknownPass() async throws {
        let all = entities(try await november15("pass:loup-loup"), "pass:loup-loup")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "unknown")
        #expect(entity("closed", in: all)?.state == .null)
        #expect(entity("traction", in: all)?.state == .null)
        #expect(entity("temperature", in: all)?.state.doubleValue == 39)
    }

    @Test("Blewett's directions are northbound and southbound; Mt. Baker's traction tires advised is not required")
    func otherDirectionsAndAdvice() async throws {
        let blewett = entities(try await november15("pass:blewett"), "pass:blewett")
        #expect(passEntityProblems(blewett, directions: ["northbound", "southbound"]) == [])
        #expect(entity("northbound", in: blewett)?.name == "Northbound")
        let baker = entities(try await november15("pass:mt-baker"), "pass:mt-baker")
        #expect(entity("status", in: baker)?.state == "restricted")
        #expect(entity("traction", in: baker)?.state == false)
        #expect(entity("eastbound", in: baker)?.state == "Traction Tires Advised, Oversize Vehicles Prohibited.")
    }

    @Test("pass:all of 2025-11-15 is its most urgent pass: the first closed one, named")
    func everyPass() async throws {
        let data = try await november15("pass:all")
        let passes = try #require(data["passes"]?.arrayValue)
        let firstClosed = try #require(passes.first { $0["status"] == "closed" })
        let all = entities(data, "pass:all")
        #expect(passEntityProblems(all, directions: ["northbound", "southbound"]) == [])
        #expect(entity("status", in: all)?.state == "closed")
        #expect(entity("status", in: all)?.attributes["pass"] == firstClosed["name"])
        #expect(entity("closed", in: all)?.state == true)
        // Each pass on its own: closed on exactly when its data says closed.
        for pass in passes {
            let one = entities(pass, "pass:all")
            #expect(passEntityProblems(one, directions: nil) == [])
            #expect((entity("closed", in: one)?.state == true) == (pass["status"] == "closed"), "\(pass["id"] ?? .null)")
            #expect(entity("status", in: one)?.state == pass["status"], "\(pass["id"] ?? .null)")
        }
    }

    @Test("the real page of 2024-01-10: traction tires and chains required, 28 °F, restricted")
    func tractionRequired() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/snoqualmie": .body(try realCapture("wsdot_new_stevens_column1_open_chains_2024-01-10.html"),
                                                                          contentType: "text/html; charset=utf-8")])
        let data = try await resolve("pass:snoqualmie", with: try makeSource(.json(#"{"passes": ["snoqualmie"]}"#)), http: http)
        let all = entities(data, "pass:snoqualmie")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("traction", in: all)?.state == true)
        #expect(entity("status", in: all)?.state == "restricted")
        #expect(entity("closed", in: all)?.state == false)
        #expect(entity("temperature", in: all)?.state.doubleValue == 28)
        #expect(entity("eastbound", in: all)?.state.stringValue?.hasPrefix("Traction Tires Required, Chains required") == true)
        #expect(entity("report_age", in: all)?.state == "2024-01-11T04:45:00Z")
    }

    @Test("the rendered page of 2025-11-02: 34 °F, its report time")
    func renderedPage() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/stevens": .body(try realCapture("wsdot_new_stevens_fullpage_rendered_2025-11-02.html"),
                                                                       contentType: "text/html; charset=utf-8")])
        let all = entities(try await resolve("pass:stevens", with: try makeSource(.json(#"{"passes": ["stevens"]}"#)), http: http), "pass:stevens")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("temperature", in: all)?.state.doubleValue == 34)
        #expect(entity("report_age", in: all)?.state == "2025-11-02T15:24:00Z")
        #expect(entity("traction", in: all)?.state == false, "traction tires advised")
    }

    @Test("the feed's first camera is the status's and closed's `camera`")
    func camera() async throws {
        let http = RecordingHTTPClient([ClosedIsClosedTests.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let all = entities(try await resolve("pass:snoqualmie", with: try makeSource(.json(#"{"mode": "feed"}"#)), http: http), "pass:snoqualmie")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.attributes["camera"] == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
        #expect(entity("closed", in: all)?.attributes["camera"] == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
        #expect(entity("temperature", in: all)?.attributes["camera"] == nil)
    }

    /// Data no module wrote: every state unknown, the same five keys, nothing traps.
    @Test("garbage: states unknown, keys intact", arguments: [
        JSONValue.null, "pass", 5, [], [:], ["status": 5, "restrictions": "x", "temperatureF": "cold", "updated": "yesterday"],
        ["passes": "x"], ["passes": []], ["passes": [1, "a", [:]]], ["restrictions": [1, [:]], "cameras": [["imageURL": 3]], "checkpoints": 9],
    ])
    func garbage(data: JSONValue) {
        let all = entities(data, "pass:odd")
        #expect(passEntityProblems(all, directions: nil) == [])
        for entity in all where ["status", "closed", "traction", "temperature", "report_age"].contains(entity.key) { #expect(entity.state == .null, "\(entity.key): \(entity.state)") }
        #expect(entity("status", in: all)?.attributes["camera"] == nil)
    }

    @Test("odd but readable data: closure words win over the status word, keys made safe and unique, long texts clipped")
    func oddData() {
        let closedByWords = entities(["status": "open", "restrictions": [["direction": "Eastbound", "text": "Pass closed"]]], "pass:odd")
        #expect(entity("status", in: closedByWords)?.state == "closed", "the closure reader wins over the status word")
        #expect(entity("closed", in: closedByWords)?.attributes["closedBy"] == "the restriction texts: “Pass closed”")
        let word = entities(["status": " Seasonal ", "restrictions": []], "pass:odd")
        #expect(entity("status", in: word)?.state == "unknown", "a word not among the options is unknown, never open")
        #expect(entity("closed", in: word)?.state == .null)
        let bare = entities(["status": "closed"], "pass:odd")
        #expect(entity("closed", in: bare)?.state == true && entity("closed", in: bare)?.attributes["closedBy"] == .null)
        let long = String(repeating: "é", count: 300)
        let odd = entities(["status": "restricted", "restrictions": [
            ["direction": "North-bound ✓", "text": .string(long)], ["direction": "Status", "text": 3], ["direction": 5, "text": "x"],
            ["direction": "Status", "text": "again"],
        ], "cameras": [["imageURL": "http://insecure.example/a.jpg"], ["imageURL": "https://cam.example/b.jpg"]]], "pass:odd")
        #expect(passEntityProblems(odd, directions: ["north_bound__", "status_2", "direction", "status_3"]) == [])
        #expect(entity("north_bound__", in: odd)?.state.stringValue?.unicodeScalars.count == 255)
        #expect(entity("north_bound__", in: odd)?.name == "North-bound ✓")
        #expect(entity("status_2", in: odd)?.state == .null, "a text that is not a string")
        #expect(entity("status", in: odd)?.attributes["camera"] == "https://cam.example/b.jpg", "the first https camera")
    }
}
