import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import WSDOT

@Suite("API mode: the Traveler Information feed")
struct FeedTests {
    static let feedURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=s3cr3t-code"

    func apiSource(_ extra: String = "") throws -> WSDOTPassSource {
        try makeSource(.json(#"{"mode": "api", "accessCode": "s3cr3t-code""# + extra + "}"))
    }

    @Test("WCF dates: milliseconds since the epoch, with or without an offset that does not shift the instant", arguments: [
        ("/Date(1765784463873-0800)/", 1_765_784_463.873),
        ("/Date(1765784463873+0000)/", 1_765_784_463.873),
        ("/Date(1765784463873)/", 1_765_784_463.873),
        ("\\/Date(1784323800000-0700)\\/", 1_784_323_800),
        ("/Date(-86400000)/", -86_400),
    ])
    func wcfDates(text: String, seconds: Double) throws {
        let date = try #require(FeedDate.wcf(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test("malformed WCF dates are refused", arguments: [
        "", "Date(1765784463873)", "/Date()/", "/Date(17657844a3873)/", "/Date(1765784463873-08)/", "/Date(1765784463873-0875)/", "2025-12-15T07:41:03Z",
    ])
    func badWCFDates(text: String) {
        #expect(FeedDate.wcf(text) == nil)
    }

    @Test("a winter feed: one pass, matched by id, all fields")
    func winterPass() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("api-winter.json")])
        let data = try await resolve("pass:snoqualmie", with: try apiSource(), http: http)
        let expected: JSONValue = [
            "id": "snoqualmie",
            "name": "Snoqualmie Pass I-90",
            "status": "restricted",
            "conditions": "Compact snow and ice on the roadway.",
            "weather": "Snowing",
            "temperatureF": 27,
            "elevationFt": 3022,
            "restrictions": [
                ["direction": "Eastbound", "text": "Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW", "status": "restricted"],
                ["direction": "Westbound", "text": "Traction tires advised, oversize vehicles prohibited.", "status": "restricted"],
            ],
            "updated": "2025-12-15T07:41:03Z",
            "reportAge": 536,
            "url": "https://wsdot.com/travel/real-time/mountainpasses/snoqualmie",
            "travelAdvisory": true,
        ]
        #expect(data == expected)
    }

    @Test("pass:all is one request and lists every pass in catalog order with the right statuses")
    func winterAll() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("api-winter.json")])
        let data = try await resolve("pass:all", with: try apiSource(), http: http)
        let passes = try #require(data["passes"]?.arrayValue)
        // Passes come from the feed: this 2025 winter capture predates Tiger Mountain (id 17).
        #expect(passes.compactMap { $0["id"]?.stringValue } == PassCatalog.slugs.filter { $0 != "tiger-mountain" })
        let statuses = Dictionary(uniqueKeysWithValues: passes.map { ($0["id"]?.stringValue ?? "", $0["status"]?.stringValue ?? "") })
        #expect(statuses == [
            "blewett": "restricted", "cayuse": "closed", "chinook": "closed", "crystal-greenwater": "open",
            "mt-baker": "restricted", "north-cascade": "closed", "satus": "open", "sherman": "restricted",
            "stevens": "restricted", "snoqualmie": "restricted", "white": "closed", "manastash": "unknown",
            // Disautel: TravelAdvisoryActive false, so its restriction text is not current.
            "loup-loup": "restricted", "disautel": "unknown", "wauconda": "restricted",
        ])
        #expect(http.urls.count == 1)
    }

    @Test("names with odd spacing, null restrictions, temperatures and directions, and dates without offsets")
    func winterQuirks() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("api-winter.json")])
        let data = try await resolve("pass:all", with: try apiSource(), http: http)
        let passes = try #require(data["passes"]?.arrayValue)
        func pass(_ slug: String) -> JSONValue? { passes.first { $0["id"]?.stringValue == slug } }

        #expect(pass("blewett")?["name"] == "Blewett Pass US 97")  // feed says "US97"
        #expect(pass("blewett")?["restrictions"]?[index: 0]?["direction"] == "Northbound")
        #expect(pass("crystal-greenwater")?["updated"] == "2025-12-15T06:45:00Z")  // no offset
        #expect(pass("cayuse")?["temperatureF"] == .null)
        #expect(pass("cayuse")?["weather"] == .null)
        #expect(pass("north-cascade")?["weather"] == .null)
        #expect(pass("stevens")?["temperatureF"] == 24.5)
        #expect(pass("wauconda")?["temperatureF"] == -3)
        #expect(pass("manastash")?["restrictions"] == [])
        #expect(pass("mt-baker")?["restrictions"]?[index: 1]?["direction"] == "Westbound")  // null direction: catalog's
        #expect(pass("loup-loup")?["restrictions"] == [["direction": "Eastbound", "text": "Traction tires advised.", "status": "restricted"]])
        #expect(pass("disautel")?["restrictions"] == [["direction": "Northbound", "text": "No restrictions", "status": "open", "current": false]])  // one direction only
        #expect(pass("disautel")?["status"] == "unknown", "WSDOT's travel advisory is off: the text is not current")
        #expect(pass("white")?["travelAdvisory"] == true)
        #expect(pass("disautel")?["travelAdvisory"] == false)
    }

    @Test("a summer feed with -0700 offsets, configured subset and order")
    func summerSubset() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("api-summer.json")])
        let source = try apiSource(#", "passes": ["stevens", "snoqualmie", "satus"]"#)
        let data = try await resolve("pass:all", with: source, http: http)
        let passes = try #require(data["passes"]?.arrayValue)
        #expect(passes.compactMap { $0["id"]?.stringValue } == ["stevens", "snoqualmie", "satus"])
        #expect(passes.map { $0["status"] } == ["open", "restricted", "open"])
        #expect(passes[0]["updated"] == "2026-07-17T21:20:00Z")
        #expect(passes[0]["temperatureF"] == 64.5)
        #expect(passes[2]["name"] == "Satus Pass US 97")
        #expect(passes[2]["temperatureF"] == .null)
    }

    @Test("the access code is sent but never appears in errors")
    func secretStaysSecret() async throws {
        let http = RecordingHTTPClient([Self.feedURL: .errorPage(401)])
        let error = await resolveError("pass:stevens", with: try apiSource(), http: http)
        let httpError = try #require(error as? HTTPError)
        #expect(httpError.message.contains("AccessCode=REDACTED"))
        #expect(!httpError.message.contains("s3cr3t"))
        #expect(http.urls.first?.absoluteString == Self.feedURL)
    }

    @Test("the service's own error message is an upstream error, scrubbed of the code")
    func upstreamMessage() async throws {
        let body = Data(#"{"Message":"Invalid AccessCode s3cr3t-code. Register at wsdot.wa.gov/traffic/api"}"#.utf8)
        let http = RecordingHTTPClient([Self.feedURL: .body(body, contentType: "application/json")])
        let error = try #require(await resolveError("pass:stevens", with: try apiSource(), http: http) as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message == "WSDOT feed: Invalid AccessCode REDACTED. Register at wsdot.wa.gov/traffic/api")
    }

    @Test("decode errors name the field path", arguments: [
        (#"[{"MountainPassId": 10, "DateUpdated": 1765784463873, "RestrictionOne": null, "RestrictionTwo": null, "RoadCondition": "x"}]"#,
         "WSDOT feed [0].DateUpdated: expected a string or null, found number"),
        (#"[{"MountainPassId": 1}, {"MountainPassId": 10, "DateUpdated": "yesterday", "RestrictionOne": null, "RestrictionTwo": null, "RoadCondition": "x"}]"#,
         #"WSDOT feed [1].DateUpdated: expected a date like "/Date(1765784463873-0800)/", found "yesterday""#),
        (#"[{"MountainPassId": 10, "DateUpdated": null, "RestrictionOne": {"RestrictionText": 5}, "RestrictionTwo": null, "RoadCondition": "x"}]"#,
         "WSDOT feed [0].RestrictionOne.RestrictionText: expected a string or null, found number"),
        (#"[{"MountainPassId": 10, "DateUpdated": null, "RestrictionTwo": null, "RoadCondition": "x"}]"#,
         "WSDOT feed [0].RestrictionOne: missing"),
        (#"[{"MountainPassId": 10, "DateUpdated": null, "RestrictionOne": null, "RestrictionTwo": null, "RoadCondition": "x", "TemperatureInFahrenheit": "cold"}]"#,
         "WSDOT feed [0].TemperatureInFahrenheit: expected a number or null, found string"),
        (#"[{"MountainPassId": "10"}]"#, "WSDOT feed [0].MountainPassId: expected a whole number, found string"),
        (#"[{"MountainPassId": 11}]"#, "WSDOT feed has no entry with MountainPassId 10 (stevens)"),
        (#"{"passes": []}"#, "WSDOT feed: expected an array of passes, found object"),
        ("<html>Service Unavailable</html>", "WSDOT feed is not JSON: line 1, column 1: unexpected '<', expected a value"),
    ])
    func decodeErrors(body: String, message: String) async throws {
        let http = RecordingHTTPClient([Self.feedURL: .body(Data(body.utf8), contentType: "application/json")])
        let error = try #require(await resolveError("pass:stevens", with: try apiSource(), http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message == message)
    }

    @Test("a malformed entry for another pass does not break this one")
    func otherEntryBroken() async throws {
        let body = #"[{"MountainPassId": 1, "DateUpdated": "garbage"}, {"MountainPassId": 10, "DateUpdated": "\/Date(1765784100000-0800)\/", "RestrictionOne": null, "RestrictionTwo": null, "RoadCondition": "Bare"}]"#
        let http = RecordingHTTPClient([Self.feedURL: .body(Data(body.utf8), contentType: "application/json")])
        let data = try await resolve("pass:stevens", with: try apiSource(), http: http)
        #expect(data["status"] == "unknown")
        #expect(data["updated"] == "2025-12-15T07:35:00Z")
        #expect(data["elevationFt"] == 4061)
    }

    @Test("a custom API base and page override shape the request and the url")
    func customBase() async throws {
        let source = try apiSource(#", "baseURL": "http://127.0.0.1:8080/svc/", "pages": {"stevens": "https://example.org/stevens"}"#)
        let http = RecordingHTTPClient(["http://127.0.0.1:8080/svc/GetMountainPassConditionsAsJson?AccessCode=s3cr3t-code": try .jsonFixture("api-winter.json")])
        let data = try await resolve("pass:stevens", with: source, http: http)
        #expect(data["url"] == "https://example.org/stevens")
        #expect(data["status"] == "restricted")
    }
}

extension JSONValue {
    /// The element at `index` when this is an array.
    subscript(index index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
