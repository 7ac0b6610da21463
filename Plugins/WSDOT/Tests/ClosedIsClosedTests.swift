import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// Closed is closed: every field read, safety first, in every mode. The record that made the
/// rule: WSDOT's Traveler API of 2025-11-15 (ws-dottie's sample data; Resources/real/SOURCES.md)
/// for North Cascade Hwy, its travel advisory off, "Pass Closed" both ways and a road condition
/// saying the highway is temporarily closed between milepost 134 and 171. It read `unknown`.
@Suite("Closed is closed")
struct ClosedIsClosedTests {
    static let apiURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"
    static let feedURL = "https://data.wsdot.wa.gov/mobile/MountainPassConditions.json"
    /// 2025-11-15T16:00:00Z, the morning the capture was taken.
    static let capturedAt = Date(timeIntervalSince1970: 1_763_222_400)

    func api() throws -> (WSDOTPassSource, RecordingHTTPClient) {
        (try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#)),
         RecordingHTTPClient([Self.apiURL: .body(try realCapture("DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json"), contentType: "application/json")]))
    }

    func feed() throws -> (WSDOTPassSource, RecordingHTTPClient) {
        (try makeSource(.json(#"{"mode": "feed"}"#)), RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-15.json")]))
    }

    @Test("North Cascade on 2025-11-15 reads closed in api and feed modes, and says where from", arguments: ["api", "feed"])
    func northCascade(mode: String) async throws {
        let (source, http) = mode == "api" ? try api() : try feed()
        let pass = try await resolve("pass:north-cascade", with: source, http: http, now: Self.capturedAt)
        #expect(pass["status"] == "closed")
        #expect(pass["closedBy"] == ["restrictions", "conditions"])
        #expect(pass["travelAdvisory"] == false)
        // The words that closed it: the restriction once (both directions say it), the road
        // condition's one closing sentence of three.
        #expect(pass["closedByText"] == [
            "Pass Closed",
            "SR 20 North Cascades Highway is temporarily closed between milepost 134 and 171 (Ross Lake Dam to Silver Star gate) as of 5 p.m. Nov. 13, due to forecast snow and rain.",
        ])
        // The texts are still marked as WSDOT not vouching for them; their own word is closed.
        #expect(pass["restrictions"] == [
            ["direction": "Eastbound", "text": "Pass Closed", "status": "closed", "current": false],
            ["direction": "Westbound", "text": "Pass Closed", "status": "closed", "current": false],
        ])
        let text = PassPresentation.washington.render(pass, context: PresentationContext(urn: "pass:north-cascade", style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) })
        #expect(text[0] == "North Cascade Hwy SR 20  CLOSED")
        #expect(text.contains { $0.contains("Closed by") && $0.contains("the restriction texts and the road condition: “Pass Closed” · “SR 20 North Cascades Highway is temporarily closed") }, "\(text)")
        #expect(text.contains { $0.contains("temporarily closed between milepost 134 and 171") }, "the road condition still shows")
        let card = PassPresentation.washington.card(pass, context: PresentationContext(urn: "pass:north-cascade", style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) })
        #expect(card.rows.contains { $0.label == "Closed by" && $0.tone == .bad })
    }

    @Test("every pass of that morning, both modes alike", arguments: ["api", "feed"])
    func thatMorning(mode: String) async throws {
        let (source, http) = mode == "api" ? try api() : try feed()
        let all = try await resolve("pass:all", with: source, http: http, now: Self.capturedAt)
        let passes = try #require(all["passes"]?.arrayValue)
        let statuses = Dictionary(uniqueKeysWithValues: passes.map { ($0["id"]?.stringValue ?? "", $0["status"]?.stringValue ?? "") })
        #expect(statuses == [
            "blewett": "open", "cayuse": "closed", "chinook": "closed", "crystal-greenwater": "open",
            // "Traction Tires Advised, Oversize Vehicles Prohibited.": a class of vehicle, not the road.
            "mt-baker": "restricted",
            "north-cascade": "closed", "satus": "open", "sherman": "open", "stevens": "open", "snoqualmie": "open", "white": "open",
            "manastash": "open",
            // Advisory off and nothing closed: a leftover "No restrictions" proves nothing.
            "loup-loup": "unknown", "disautel": "unknown", "wauconda": "unknown",
            "tiger-mountain": "open",
        ])
        let cayuse = try #require(passes.first { $0["id"] == "cayuse" })
        #expect(cayuse["closedBy"] == ["restrictions", "conditions"])
        let open = try #require(passes.first { $0["id"] == "snoqualmie" })
        #expect(open["closedBy"] == nil)
    }

    @Test("the Mt. Baker of 2025-11-03: a section beyond the pass closed for the season leaves the pass restricted")
    func aSectionIsNotThePass() async throws {
        let source = try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#))
        let http = RecordingHTTPClient([Self.apiURL: .body(try realCapture("DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json"), contentType: "application/json")])
        let baker = try await resolve("pass:mt-baker", with: source, http: http)
        #expect(baker["status"] == "restricted")
        #expect(baker["closedBy"] == nil)
    }

    /// A page (html mode) has no travel advisory: its road condition row closes the pass too.
    @Test("html mode: the page's road condition closes a pass its restrictions call open")
    func page() {
        let pass = PassCatalog.pass(named: "north-cascade")!
        let report = PassReport(pass: pass, conditions: "SR 20 North Cascades Highway is temporarily closed between milepost 134 and 171.",
                                weather: nil, temperatureF: nil, elevationFt: nil,
                                restrictions: [Restriction(direction: "Eastbound", text: "No restrictions"), Restriction(direction: "Westbound", text: "No restrictions")],
                                updated: nil, url: URL(string: "https://wsdot.com/travel/real-time/mountainpasses/north-cascades")!, travelAdvisory: nil)
        #expect(report.reading == .init(status: .closed, directions: [.closed, .closed], closedBy: ["conditions"],
                                        closedByText: ["SR 20 North Cascades Highway is temporarily closed between milepost 134 and 171."]))
        #expect(report.json["restrictions"]?[index: 0]?["status"] == "closed")
    }

    /// Road conditions and the closure each tells of: nil none, [] the whole road.
    static let sentences: [(String, Set<String>?)] = [
        // The road itself: closed, in the directions named (none named: all).
        ("SR 20 North Cascades Highway is temporarily closed between milepost 134 and 171 (Ross Lake Dam to Silver Star gate) as of 5 p.m. Nov. 13.", []),
        ("Closed at the summit.", []),
        ("The pass is closed for avalanche control.", []),
        ("SR 123 northbound is closed at milepost 5, Stevens Canyon Rd, 11 miles south of the summit.", ["northbound"]),
        ("I-90 eastbound closed at North Bend.", ["eastbound"]),
        ("The highway is closed to all traffic.", []),
        ("The road is closed in both directions near the eastbound rest area.", []),
        ("In the Stevens area the highway is closed.", []),
        // Not the road: a class of vehicle, a lane, a rest area, a section, negated, reopened.
        ("The highway is closed to trucks over 10,000 GVW.", nil),
        ("Oversize vehicles prohibited.", nil),
        ("The right lane is closed near milepost 52.", nil),
        ("Eastbound rest area closed.", nil),
        ("Effective Oct. 15 the final 2.7-mile section of Mt. Baker Highway is closed for the season.", nil),
        ("The pass is not closed.", nil),
        ("The highway isn't closed.", nil),
        ("The highway is no longer closed.", nil),
        ("The highway closed earlier has reopened.", nil),
        ("Bare and wet.", nil),
        ("Hyak sno-park is closed.", nil),
    ]

    @Test("the rule, sentence by sentence", arguments: sentences)
    func roadCondition(text: String, expected: Set<String>?) {
        #expect(RoadClosure(in: text, isRestriction: false)?.directions == expected, "\(text)")
    }

    @Test("restriction texts", arguments: [
        ("Pass Closed", PassStatus.closed),
        ("pass closed", .closed),
        ("Closed for the season", .closed),
        ("Closed", .closed),
        ("Closed to trucks", .restricted),
        ("Traction Tires Advised, Oversize Vehicles Prohibited.", .restricted),
        ("Right lane closed, traction tires advised", .restricted),
        ("No restrictions", .open),
    ])
    func restriction(text: String, expected: PassStatus) {
        #expect(PassStatus(restriction: text) == expected)
    }

    @Test("a closure naming a direction closes that direction; one the pass lacks closes every direction")
    func directions() {
        let eastbound = RoadClosure(in: "SR 20 eastbound is closed at Rainy Pass.", isRestriction: false)
        #expect(eastbound?.covers("Eastbound", of: ["Eastbound", "Westbound"]) == true)
        #expect(eastbound?.covers("Westbound", of: ["Eastbound", "Westbound"]) == false)
        #expect(eastbound?.covers("Northbound", of: ["Northbound", "Southbound"]) == true)
    }
}
