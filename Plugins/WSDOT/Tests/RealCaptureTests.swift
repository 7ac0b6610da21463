import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// A capture of the real site or feed, kept under Tests/Resources/real (provenance: its SOURCES.md).
func realCapture(_ name: String) throws -> Data {
    try fixture("real/" + name)
}

@Suite("Conformance with real WSDOT captures (Tests/Resources/real)")
struct RealCaptureTests {
    func html(_ name: String) throws -> RecordingHTTPClient.Reply { .body(try realCapture(name), contentType: "text/html; charset=utf-8") }

    @Test("the rendered 2025 page, the 2024 column fragment and the 2025 fragment parse with layout auto; the shell is diagnosed")
    func pages() async throws {
        let source = try makeSource(.json(#"{"passes": ["stevens", "snoqualmie", "white", "blewett"]}"#))
        let http = RecordingHTTPClient([
            "\(siteBase)/stevens": try html("wsdot_new_stevens_fullpage_rendered_2025-11-02.html"),
            "\(siteBase)/snoqualmie": try html("wsdot_new_stevens_column1_open_chains_2024-01-10.html"),
            "\(siteBase)/white": try html("wsdot_new_stevens_fragment_open_2025-11-02.html"),
            "\(siteBase)/blewett": try html("wsdot_new_stevens_fragment_NOT_YET_RENDERED_2025-11-02.html"),
        ])
        let rendered = try await resolve("pass:stevens", with: source, http: http)
        #expect(rendered["temperatureF"] == 34)
        #expect(rendered["elevationFt"] == 4061)
        #expect(rendered["updated"] == "2025-11-02T15:24:00Z")
        #expect(rendered["status"] == "restricted")
        #expect(rendered["restrictions"]?[index: 0]?["text"] == "Traction Tires Advised, Oversize Vehicles Prohibited.")
        #expect(rendered["restrictions"]?[index: 0]?["direction"] == "Eastbound")
        #expect(rendered["restrictions"]?[index: 1]?["direction"] == "Westbound")
        #expect(rendered["conditions"]?.stringValue?.isEmpty == false)

        let column = try await resolve("pass:snoqualmie", with: source, http: http)
        #expect(column["temperatureF"] == 28)
        #expect(column["status"] == "restricted")
        #expect(column["updated"] == "2024-01-11T04:45:00Z")
        #expect(column["conditions"] == "Compact snow and ice on the road.")

        let fragment = try await resolve("pass:white", with: source, http: http)
        #expect(fragment["updated"] == "2025-11-02T19:32:00Z")
        #expect(fragment["weather"] == "Snowing lightly.")

        let shell = try #require(await resolveError("pass:blewett", with: source, http: http) as? ConditionsError)
        #expect(shell.kind == .badResponse)
        #expect(shell.message.contains("filled in by JavaScript"))
    }

    /// Passengr's minimal fixture of the old layout, kept once as Resources/seed-minimal-pass-page.html.
    @Test("the classic minimal fixture still parses (classic layout)")
    func classicFixture() async throws {
        let source = try makeSource(.json(#"{"passes": ["stevens"]}"#))
        let http = RecordingHTTPClient(["\(siteBase)/stevens": .body(try fixture("seed-minimal-pass-page.html"), contentType: "text/html; charset=utf-8")])
        let data = try await resolve("pass:stevens", with: source, http: http)
        #expect(data["status"] == "open")
        #expect(data["conditions"] == "The roadway is bare and dry.")
    }

    @Test("the 2025 feed serves 16 passes, Tiger Mountain included, with months-old off-season reports aged")
    func feed() async throws {
        let source = try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#))
        let url = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"
        let http = RecordingHTTPClient([url: .body(try realCapture("DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json"), contentType: "application/json")])
        let all = try await resolve("pass:all", with: source, http: http)
        let passes = try #require(all["passes"]?.arrayValue)
        #expect(passes.count == 16)
        #expect(passes.last?["id"] == "tiger-mountain")
        let tiger = try await resolve("pass:tiger-mountain", with: source, http: http)
        #expect(tiger["elevationFt"] == 1377)
        #expect(tiger["name"] == "Tiger Mountain SR18")
        #expect(tiger["restrictions"]?[index: 0]?["direction"] == "Eastbound")
        for pass in passes { #expect(pass["reportAge"]?.intValue != nil) }
    }

    @Test("the catalog places every pass where WSDOT's feed does (the dashboard's map)")
    func coordinates() throws {
        let feed = try #require(try JSONValue.parse(realCapture("DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json")).arrayValue)
        #expect(feed.count == PassCatalog.all.count)
        for entry in feed {
            let id = try #require(entry["MountainPassId"]?.intValue)
            let pass = try #require(PassCatalog.pass(id: id), "pass \(id) is not in the catalog")
            let coordinate = try #require(pass.coordinate)
            #expect(abs(coordinate.latitude - (entry["Latitude"]?.doubleValue ?? .nan)) < 1e-5, "\(pass.slug) latitude")
            #expect(abs(coordinate.longitude - (entry["Longitude"]?.doubleValue ?? .nan)) < 1e-5, "\(pass.slug) longitude")
        }
    }

    @Test("single raw records of 2025 decode; their off-season reports are months old")
    func offSeasonRecords() async throws {
        for name in ["wsdot_api_pass1_raw_2025-04-14_offseason.json", "wsdot_api_pass1_raw_2025-08-22_offseason.json"] {
            var body = try realCapture(name)
            body = Data("[".utf8) + body + Data("]".utf8)
            let feed = try PassFeed(data: body)
            let pass = try #require(PassCatalog.pass(named: "blewett"))
            var report = try feed.report(for: pass, url: URL(string: "https://example.org")!)
            report.readAt = Date(timeIntervalSince1970: 1_765_785_000)
            #expect((report.reportAge ?? 0) > 90 * 86_400)
        }
    }
}

@Suite("API mode: every pass in the feed")
struct FeedPassesTests {
    static let url = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"

    /// The real 2025 feed plus an entry with an id no catalog knows.
    func feedWithANewPass() throws -> RecordingHTTPClient {
        var text = String(decoding: try realCapture("DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json"), as: UTF8.self)
        text = String(text.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + #"""
        ,{"DateUpdated":"\/Date(1762198243853-0800)\/","ElevationInFeet":3100,"MountainPassId":31,"MountainPassName":"Rattlesnake  Pass SR 821","RestrictionOne":{"RestrictionText":"No restrictions","TravelDirection":"Northbound"},"RestrictionTwo":{"RestrictionText":"Pass Closed","TravelDirection":"Southbound"},"RoadCondition":"Dry.","TemperatureInFahrenheit":40,"TravelAdvisoryActive":true,"WeatherCondition":""}]
        """#
        return RecordingHTTPClient([Self.url: .body(Data(text.utf8), contentType: "application/json")])
    }

    @Test("a pass with a new id is served under a slug from its name, listed in pass:all and suggested")
    func newPass() async throws {
        let http = try feedWithANewPass()
        let source = try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#))
        let data = try await resolve("pass:rattlesnake", with: source, http: http)
        #expect(data["name"] == "Rattlesnake Pass SR 821")
        #expect(data["elevationFt"] == 3100)
        #expect(data["status"] == "closed")
        #expect(data["restrictions"]?[index: 0]?["direction"] == "Northbound")
        let all = try await resolve("pass:all", with: source, http: http)
        #expect(all["passes"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }.suffix(2) == ["tiger-mountain", "rattlesnake"])
        let error = try #require(await resolveError("pass:rattlesnak", with: source, http: http) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.suggestions.contains("pass:rattlesnake"))
    }

    @Test("`passes` may name feed-only passes in API mode, not in HTML mode")
    func passesOption() async throws {
        let http = try feedWithANewPass()
        let source = try makeSource(.json(#"{"mode": "api", "accessCode": "k", "passes": ["rattlesnake", "tiger-mountain", "stevens"]}"#))
        let all = try await resolve("pass:all", with: source, http: http)
        #expect(all["passes"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" } == ["rattlesnake", "tiger-mountain", "stevens"])
        #expect(configurationError(try .json(#"{"passes": ["rattlesnake"]}"#))?.message.contains("unknown pass") == true)
        let unknown = try makeSource(.json(#"{"mode": "api", "accessCode": "k", "passes": ["nowhere"]}"#))
        let error = try #require(await resolveError("pass:all", with: unknown, http: http) as? ConditionsError)
        #expect(error.message.contains(#"no pass named "nowhere""#))
    }

    @Test("slugs from feed names")
    func slugs() {
        #expect(PassCatalog.slug(fromName: "Tiger Mountain SR18") == "tiger-mountain")
        #expect(PassCatalog.slug(fromName: "Blewett Pass US 97") == "blewett")
        #expect(PassCatalog.slug(fromName: "Mt. Baker Hwy SR 542") == "mt-baker")
        #expect(PassCatalog.slug(fromName: "Snoqualmie Pass I-90") == "snoqualmie")
        #expect(PassCatalog.slug(fromName: "Pass") == "pass")
        #expect(PassCatalog.feedPass(id: 40, name: "  ", elevationFt: nil, directions: nil).slug == "pass-40")
    }
}
