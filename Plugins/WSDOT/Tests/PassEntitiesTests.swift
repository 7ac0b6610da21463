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
    static let apiURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"
    static let feedURL = "https://data.wsdot.wa.gov/mobile/MountainPassConditions.json"
    /// 2025-11-15T16:00:00Z, the morning the Traveler API capture was taken.
    static let capturedAt = Date(timeIntervalSince1970: 1_763_222_400)

    let presentation = WSDOTPassSource.presentations.first { $0.kind == .pass }!

    func entities(_ data: JSONValue, _ urn: String) -> [Entity] {
        presentation.entities(data, context: PresentationContext(urn: urn, style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) })
    }

    /// `pass:{name}` or `pass:all` from the Traveler API answer of 2025-11-15.
    func november15(_ urn: String) async throws -> JSONValue {
        let http = RecordingHTTPClient([Self.apiURL: .body(try realCapture("DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json"), contentType: "application/json")])
        return try await resolve(urn, with: try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#)), http: http, now: Self.capturedAt)
    }

    @Test("North Cascade of 2025-11-15: closed, by the words that closed it, each direction's text, 34 °F")
    func closedPass() async throws {
        let data = try await november15("pass:north-cascade")
        let all = entities(data, "pass:north-cascade")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "closed")
        let closed = try #require(all.of("closed"))
        #expect(closed.component == .binarySensor)
        #expect(closed.state == true)
        let words = try #require(closed.attributes["closedBy"]?.stringValue)
        #expect(words.hasPrefix("the restriction texts and the road condition: “Pass Closed”"), "\(words)")
        #expect(words.contains("temporarily closed between milepost 134 and 171"), "\(words)")
        #expect(all.of("traction")?.state == false, "closed, but nothing says tires or chains")
        #expect(all.of("traction")?.name == "Traction tires or chains required")
        let temperature = try #require(all.of("temperature"))
        #expect(temperature.state.doubleValue == 34 && temperature.unit == "°F")
        #expect(temperature.deviceClass == "temperature" && temperature.stateClass == "measurement")
        #expect(all.of("eastbound")?.state == "Pass Closed")
        #expect(all.of("westbound")?.state == "Pass Closed")
        #expect(all.of("eastbound")?.attributes["current"] == false, "WSDOT's advisory was off")
        let report = try #require(all.of("report_age"))
        #expect(report.name == "Report time" && report.category == "diagnostic" && report.deviceClass == "timestamp")
        #expect(report.state == data["updated"] && report.state != .null)
        #expect(all.of("status")?.attributes["camera"] == nil, "the Traveler API has no cameras")
    }

    @Test("Snoqualmie of 2025-11-15: open, not closed, no closedBy, 47 °F")
    func openPass() async throws {
        let all = entities(try await november15("pass:snoqualmie"), "pass:snoqualmie")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "open")
        #expect(all.of("closed")?.state == false)
        #expect(all.of("closed")?.attributes["closedBy"] == .null)
        #expect(all.of("traction")?.state == false)
        #expect(all.of("temperature")?.state.doubleValue == 47)
        #expect(all.of("eastbound")?.state == "No restrictions")
    }

    @Test("Loup Loup of 2025-11-15, WSDOT's advisory off: unknown, so closed and traction are unknown too")
    func unknownPass() async throws {
        let all = entities(try await november15("pass:loup-loup"), "pass:loup-loup")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "unknown")
        #expect(all.of("closed")?.state == .null)
        #expect(all.of("traction")?.state == .null)
        #expect(all.of("temperature")?.state.doubleValue == 39)
    }

    @Test("Blewett's directions are northbound and southbound; Mt. Baker's traction tires advised is not required")
    func otherDirectionsAndAdvice() async throws {
        let blewett = entities(try await november15("pass:blewett"), "pass:blewett")
        checkPassShape(blewett, directions: ["northbound", "southbound"])
        #expect(blewett.of("northbound")?.name == "Northbound")
        let baker = entities(try await november15("pass:mt-baker"), "pass:mt-baker")
        #expect(baker.of("status")?.state == "restricted")
        #expect(baker.of("traction")?.state == false)
        #expect(baker.of("eastbound")?.state == "Traction Tires Advised, Oversize Vehicles Prohibited.")
    }

    @Test("pass:all of 2025-11-15 is its most urgent pass: the first closed one, named")
    func everyPass() async throws {
        let data = try await november15("pass:all")
        let passes = try #require(data["passes"]?.arrayValue)
        let firstClosed = try #require(passes.first { $0["status"] == "closed" })
        let all = entities(data, "pass:all")
        checkPassShape(all, directions: ["northbound", "southbound"])
        #expect(all.of("status")?.state == "closed")
        #expect(all.of("status")?.attributes["pass"] == firstClosed["name"])
        #expect(all.of("closed")?.state == true)
        // Each pass on its own: closed on exactly when its data says closed.
        for pass in passes {
            let one = entities(pass, "pass:all")
            checkPassShape(one, directions: nil)
            #expect((one.of("closed")?.state == true) == (pass["status"] == "closed"), "\(pass["id"] ?? .null)")
            #expect(one.of("status")?.state == pass["status"], "\(pass["id"] ?? .null)")
        }
    }

    @Test("the real page of 2024-01-10: traction tires and chains required, 28 °F, restricted")
    func tractionRequired() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/snoqualmie": .body(try realCapture("wsdot_new_stevens_column1_open_chains_2024-01-10.html"),
                                                                          contentType: "text/html; charset=utf-8")])
        let data = try await resolve("pass:snoqualmie", with: try makeSource(.json(#"{"passes": ["snoqualmie"]}"#)), http: http)
        let all = entities(data, "pass:snoqualmie")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("traction")?.state == true)
        #expect(all.of("status")?.state == "restricted")
        #expect(all.of("closed")?.state == false)
        #expect(all.of("temperature")?.state.doubleValue == 28)
        #expect(all.of("eastbound")?.state.stringValue?.hasPrefix("Traction Tires Required, Chains required") == true)
        #expect(all.of("report_age")?.state == "2024-01-11T04:45:00Z")
    }

    @Test("the rendered page of 2025-11-02: 34 °F, its report time")
    func renderedPage() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/stevens": .body(try realCapture("wsdot_new_stevens_fullpage_rendered_2025-11-02.html"),
                                                                       contentType: "text/html; charset=utf-8")])
        let all = entities(try await resolve("pass:stevens", with: try makeSource(.json(#"{"passes": ["stevens"]}"#)), http: http), "pass:stevens")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("temperature")?.state.doubleValue == 34)
        #expect(all.of("report_age")?.state == "2025-11-02T15:24:00Z")
        #expect(all.of("traction")?.state == false, "traction tires advised")
    }

    @Test("the feed's first camera is the status's and closed's `camera`")
    func camera() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let all = entities(try await resolve("pass:snoqualmie", with: try makeSource(.json(#"{"mode": "feed"}"#)), http: http), "pass:snoqualmie")
        checkPassShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.attributes["camera"] == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
        #expect(all.of("closed")?.attributes["camera"] == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
        #expect(all.of("temperature")?.attributes["camera"] == nil)
    }

    /// Data no module wrote: every state unknown, the same five keys, nothing traps.
    @Test("garbage: states unknown, keys intact", arguments: [
        JSONValue.null, "pass", 5, [], [:], ["status": 5, "restrictions": "x", "temperatureF": "cold", "updated": "yesterday"],
        ["passes": "x"], ["passes": []], ["passes": [1, "a", [:]]], ["restrictions": [1, [:]], "cameras": [["imageURL": 3]], "checkpoints": 9],
    ])
    func garbage(data: JSONValue) {
        let all = entities(data, "pass:odd")
        checkPassShape(all, directions: nil)
        for entity in all where ["status", "closed", "traction", "temperature", "report_age"].contains(entity.key) { #expect(entity.state == .null, "\(entity.key): \(entity.state)") }
        #expect(all.of("status")?.attributes["camera"] == nil)
    }

    @Test("odd but readable data: closure words win over the status word, keys made safe and unique, long texts clipped")
    func oddData() {
        let closedByWords = entities(["status": "open", "restrictions": [["direction": "Eastbound", "text": "Pass closed"]]], "pass:odd")
        #expect(closedByWords.of("status")?.state == "closed", "the closure reader wins over the status word")
        #expect(closedByWords.of("closed")?.attributes["closedBy"] == "the restriction texts: “Pass closed”")
        let word = entities(["status": " Seasonal ", "restrictions": []], "pass:odd")
        #expect(word.of("status")?.state == "unknown", "a word not among the options is unknown, never open")
        #expect(word.of("closed")?.state == .null)
        let bare = entities(["status": "closed"], "pass:odd")
        #expect(bare.of("closed")?.state == true && bare.of("closed")?.attributes["closedBy"] == .null)
        let long = String(repeating: "é", count: 300)
        let odd = entities(["status": "restricted", "restrictions": [
            ["direction": "North-bound ✓", "text": .string(long)], ["direction": "Status", "text": 3], ["direction": 5, "text": "x"],
            ["direction": "Status", "text": "again"],
        ], "cameras": [["imageURL": "http://insecure.example/a.jpg"], ["imageURL": "https://cam.example/b.jpg"]]], "pass:odd")
        checkPassShape(odd, directions: ["north_bound__", "status_2", "direction", "status_3"])
        #expect(odd.of("north_bound__")?.state.stringValue?.unicodeScalars.count == 255)
        #expect(odd.of("north_bound__")?.name == "North-bound ✓")
        #expect(odd.of("status_2")?.state == .null, "a text that is not a string")
        #expect(odd.of("status")?.attributes["camera"] == "https://cam.example/b.jpg", "the first https camera")
    }
}

extension [Entity] {
    /// The entity keyed `key`.
    fileprivate func of(_ key: String) -> Entity? { first { $0.key == key } }
}

/// What every pass entity list must be: each key once and `[a-z0-9_]`, the five fixed keys, the
/// status an enum of exactly the four words with its state one of them or unknown, and (when
/// given) the direction keys, in order, between temperature and the report time.
private func checkPassShape(_ entities: [Entity], directions: [String]?, sourceLocation: SourceLocation = #_sourceLocation) {
    let middle = directions ?? Array(entities.map(\.key).dropFirst(4).dropLast())
    #expect(entityProblems(entities, keys: ["status", "closed", "traction", "temperature"] + middle + ["report_age"]) == [],
            sourceLocation: sourceLocation)
    #expect(entities.first { $0.key == "status" }?.options == ["open", "restricted", "closed", "unknown"], sourceLocation: sourceLocation)
}
