import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import WSDOT

@Suite("HTML mode: pass pages")
struct PageTests {
    /// A classic-site source serving `passes`, and a stub answering each page with `pages[slug]`.
    func classic(_ pages: [String: RecordingHTTPClient.Reply], passes: [String]? = nil, fields: String? = nil) throws -> (WSDOTPassSource, RecordingHTTPClient) {
        var options = "{\"baseURL\": \"\(classicBase)\""
        if let passes { options += ", \"passes\": [\(passes.map { "\"\($0)\"" }.joined(separator: ","))]" }
        if let fields { options += ", \"fields\": \(fields)" }
        options += "}"
        let source = try makeSource(.json(options))
        let replies = Dictionary(uniqueKeysWithValues: pages.map { ("\(classicBase)/\($0.key)", $0.value) })
        return (source, RecordingHTTPClient(replies))
    }

    @Test("a winter page: nested tags, entities, odd whitespace; decoys in scripts, comments and noscript ignored")
    func winterPage() async throws {
        let (source, http) = try classic(["snoqualmie": .htmlFixture("snoqualmie-winter.html")])
        let data = try await resolve("pass:snoqualmie", with: source, http: http)
        let expected: JSONValue = [
            "id": "snoqualmie",
            "name": "Snoqualmie Pass I-90",
            "status": "restricted",
            "conditions": "Snow and ice on the roadway. Compact snow in the center lanes & slush on the shoulders.",
            "weather": "Light snow, visibility ½ mile",
            "temperatureF": 28,
            "elevationFt": 3022,
            "restrictions": [
                ["direction": "Eastbound", "text": "Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW", "status": "restricted"],
                ["direction": "Westbound", "text": "Traction tires advised, oversize vehicles prohibited.", "status": "restricted"],
            ],
            "updated": "2026-01-10T13:42:00Z",
            "reportAge": -2267520,
            "url": "http://www.wsdot.com/traffic/passes/snoqualmie",
            "travelAdvisory": nil,
        ]
        #expect(data == expected)
        #expect(http.urls.map(\.absoluteString) == ["http://www.wsdot.com/traffic/passes/snoqualmie"])
    }

    @Test("a summer page of a north/south pass: directions come from the catalog, PDT applies, empty weather is null")
    func summerNorthSouthPage() async throws {
        let (source, http) = try classic(["blewett": .htmlFixture("blewett-summer.html")])
        let data = try await resolve("pass:blewett", with: source, http: http)
        #expect(data["status"] == "open")
        #expect(data["restrictions"] == [
            ["direction": "Northbound", "text": "NO RESTRICTIONS", "status": "open"],
            ["direction": "Southbound", "text": "No restrictions", "status": "open"],
        ])
        #expect(data["updated"] == "2026-07-17T21:15:00Z")
        #expect(data["temperatureF"] == 71)
        #expect(data["elevationFt"] == 4102)
        #expect(data["weather"] == .null)
        #expect(data["conditions"] == "The roadway is bare and dry.")
    }

    @Test("a closed pass in windows-1252: closed status, blank temperature is null, M/D/YYYY time in PST")
    func closedPage() async throws {
        let (source, http) = try classic(["chinook": .htmlFixture("chinook-closed.html", charset: "windows-1252")])
        let data = try await resolve("pass:chinook", with: source, http: http)
        #expect(data["status"] == "closed")
        #expect(data["restrictions"] == [
            ["direction": "Eastbound", "text": "Pass Closed", "status": "closed"],
            ["direction": "Westbound", "text": "PASS CLOSED", "status": "closed"],
        ])
        #expect(data["conditions"] == "The pass is closed for the season. Opening date depends on snowpack – and avalanche danger.")
        #expect(data["temperatureF"] == .null)
        #expect(data["elevationFt"] == 5430)
        #expect(data["updated"] == "2026-11-21T13:30:00Z")
    }

    @Test("the seed's own four-span page reads, with the catalog's elevation as fallback")
    func seedPage() async throws {
        let (source, http) = try classic(["satus": .htmlFixture("seed-minimal-pass-page.html")])
        let data = try await resolve("pass:satus", with: source, http: http)
        #expect(data["status"] == "open")
        #expect(data["updated"] == "1955-11-05T17:41:00Z")
        #expect(data["elevationFt"] == 3107)
        #expect(data["temperatureF"] == .null)
        #expect(data["weather"] == .null)
        #expect(data["restrictions"]?.arrayValue?.compactMap { $0["direction"]?.stringValue } == ["Northbound", "Southbound"])
    }

    @Test("a redesigned page with the default fields is an error naming the missing fields and the URL")
    func redesignWithoutFields() async throws {
        let (source, http) = try classic(["stevens": .htmlFixture("stevens-redesign.html")])
        let error = await resolveError("pass:stevens", with: source, http: http)
        let conditionsError = try #require(error as? ConditionsError)
        #expect(conditionsError.kind == .badResponse)
        #expect(conditionsError.message.hasPrefix("http://www.wsdot.com/traffic/passes/stevens: missing fields conditions, restrictionOne, restrictionTwo, updated (classic layout, XPath //span[@id='PassInfoConditions'], "))
    }

    static let redesignFields = """
        {
          "conditions": "//div[contains(@class,'field--conditions')]/div[@class='field__value']",
          "restrictionOne": "//div[@data-direction='east']/p[@class='restriction__text']",
          "restrictionTwo": "//div[@data-direction='west']/p[@class='restriction__text']",
          "updated": "//p[@class='mountain-pass__updated']/time",
          "temperature": "//div[contains(@class,'field--temperature')]/span[@class='field__value']",
          "elevation": "//p[@class='mountain-pass__elevation']/span[@class='value']",
          "weather": "//div[contains(@class,'field--weather')]/span[@class='field__value']"
        }
        """

    @Test("a redesigned page reads with custom fields: a config edit, not a code change")
    func redesignWithFields() async throws {
        let (source, http) = try classic(["stevens": .htmlFixture("stevens-redesign.html")], fields: Self.redesignFields)
        let data = try await resolve("pass:stevens", with: source, http: http)
        let required = "Traction tires required. Chains required on all vehicles except all wheel drive."
        let expected: JSONValue = [
            "id": "stevens",
            "name": "Stevens Pass US 2",
            "status": "restricted",
            "conditions": "Compact snow and ice on the roadway. Use caution.",
            "weather": "Snowing",
            "temperatureF": 24,
            "elevationFt": 4061,
            "restrictions": [
                ["direction": "Eastbound", "text": .string(required), "status": "restricted"],
                ["direction": "Westbound", "text": .string(required), "status": "restricted"],
            ],
            "updated": "2026-01-10T14:10:00Z",
            "reportAge": -2269200,
            "url": "http://www.wsdot.com/traffic/passes/stevens",
            "travelAdvisory": nil,
        ]
        #expect(data == expected)
    }

    @Test("fields may select attributes: an ISO datetime attribute is read with its offset")
    func attributeField() async throws {
        let fields = String(Self.redesignFields.dropLast().dropLast()) + ", \"updated\": \"//time/@datetime\"}"
        let (source, http) = try classic(["stevens": .htmlFixture("stevens-redesign.html")], fields: fields)
        let data = try await resolve("pass:stevens", with: source, http: http)
        #expect(data["updated"] == "2026-01-10T14:10:00Z")
    }

    @Test("a custom field overrides one rule and keeps the classic others")
    func partialFields() async throws {
        let (source, http) = try classic(["snoqualmie": .htmlFixture("snoqualmie-winter.html")], fields: #"{"weather": "//div[@class='alert-banner']"}"#)
        let data = try await resolve("pass:snoqualmie", with: source, http: http)
        #expect(data["weather"] == "Winter driving: carry chains & check conditions before you go.")
        #expect(data["status"] == "restricted")
    }

    @Test("an unreadable last-update time is an error quoting the text and the URL")
    func unreadableUpdate() async throws {
        let page = Data("""
            <html><body><span id="PassInfoConditions">Bare</span><span id="PassInfoRestrictionsOne">No restrictions</span>
            <span id="PassInfoRestrictionsTwo">No restrictions</span><span id="PassInfoLastUpdate">Not available</span></body></html>
            """.utf8)
        let (source, http) = try classic(["white": .body(page, contentType: "text/html")])
        let error = try #require(await resolveError("pass:white", with: source, http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message == "http://www.wsdot.com/traffic/passes/white: cannot read the last-update time \"Not available\" (field updated, XPath //span[@id='PassInfoLastUpdate'])")
    }

    @Test("empty restriction spans leave the status unknown")
    func emptyRestrictions() async throws {
        let page = Data("""
            <html><body><span id="PassInfoConditions">Seasonal reports have not started.</span><span id="PassInfoRestrictionsOne"> </span>
            <span id="PassInfoRestrictionsTwo"></span><span id="PassInfoLastUpdate">10/1/2026 8:00 AM</span></body></html>
            """.utf8)
        let (source, http) = try classic(["manastash": .body(page, contentType: "text/html")])
        let data = try await resolve("pass:manastash", with: source, http: http)
        #expect(data["status"] == "unknown")
        #expect(data["restrictions"] == [])
        #expect(data["updated"] == "2026-10-01T15:00:00Z")
    }

    @Test("an empty page is a bad response naming the URL")
    func emptyPage() async throws {
        let (source, http) = try classic(["white": .body(Data(), contentType: "text/html")])
        let error = try #require(await resolveError("pass:white", with: source, http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasPrefix("http://www.wsdot.com/traffic/passes/white: "))
    }

    @Test("secrets in a page override never reach the result")
    func redactedURL() async throws {
        let source = try makeSource(.json(#"{"pages": {"white": "https://mirror.example.org/white?token=abc123"}}"#))
        let http = RecordingHTTPClient(["https://mirror.example.org/white?token=abc123": try .htmlFixture("snoqualmie-winter.html")])
        let data = try await resolve("pass:white", with: source, http: http)
        #expect(data["url"] == "https://mirror.example.org/white?token=REDACTED")
    }

    @Test("a non-2xx page is an HTTP error")
    func httpError() async throws {
        let (source, http) = try classic(["white": .errorPage(503)])
        let error = await resolveError("pass:white", with: source, http: http)
        #expect(error as? HTTPError == .status(503, url: "http://www.wsdot.com/traffic/passes/white"))
    }

    @Test("a page URL override is fetched instead of {baseURL}/{slug}/")
    func pageOverride() async throws {
        let source = try makeSource(.json(#"{"pages": {"white": "https://mirror.example.org/white.html"}}"#))
        let http = RecordingHTTPClient(["https://mirror.example.org/white.html": try .htmlFixture("snoqualmie-winter.html")])
        let data = try await resolve("pass:white", with: source, http: http)
        #expect(data["id"] == "white")
        #expect(data["url"] == "https://mirror.example.org/white.html")
    }

    @Test("the default base is WSDOT's current site")
    func defaultBase() async throws {
        let source = try makeSource()
        let http = RecordingHTTPClient(["https://wsdot.com/travel/real-time/mountainpasses/snoqualmie": try .htmlFixture("snoqualmie-winter.html")])
        let data = try await resolve("pass:snoqualmie", with: source, http: http)
        #expect(data["url"] == "https://wsdot.com/travel/real-time/mountainpasses/snoqualmie")
    }
}
