import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// Feed mode: WSDOT's key-less mobile feed, read from a fixture in its published shape built
/// from the real values of the 2025-11-03 Traveler API capture (Resources/derived/SOURCES.md).
@Suite("Feed mode: the key-less mobile feed")
struct MobileFeedTests {
    static let feedURL = "https://data.wsdot.wa.gov/mobile/MountainPassConditions.json"

    func feedSource(_ extra: String = "") throws -> WSDOTPassSource {
        try makeSource(.json(#"{"mode": "feed""# + extra + "}"))
    }

    /// The fixture's document, for tests that bend it.
    func document() throws -> JSONValue {
        try JSONValue.parse(try fixture("derived/mobile-feed-2025-11-03.json"))
    }

    /// The fixture's pass entries, changed by `edit`, as a feed body.
    func edited(_ edit: (inout [JSONValue]) -> Void) throws -> RecordingHTTPClient.Reply {
        var passes = try #require(try document()["GetMountainPassConditionsResult"]?["PassCondition"]?.arrayValue)
        edit(&passes)
        let body: JSONValue = ["GetMountainPassConditionsResult": ["PassCondition": .array(passes)]]
        return .body(Data(body.serialized().utf8), contentType: "application/json")
    }

    @Test("the default URL, no access code, and every pass of the feed in id order, Tiger Mountain included")
    func everyPass() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let data = try await resolve("pass:all", with: try feedSource(), http: http)
        let passes = try #require(data["passes"]?.arrayValue)
        #expect(passes.compactMap { $0["id"]?.stringValue } == PassCatalog.slugs)
        #expect(http.urls.map(\.absoluteString) == [Self.feedURL])
        let statuses = Dictionary(uniqueKeysWithValues: passes.map { ($0["id"]?.stringValue ?? "", $0["status"]?.stringValue ?? "") })
        // Disautel, Loup Loup, North Cascade and Wauconda: TravelAdvisoryActive false, so
        // their "No restrictions" is not WSDOT's current word and the status is unknown.
        #expect(statuses == [
            "blewett": "open", "cayuse": "closed", "chinook": "closed", "crystal-greenwater": "open", "mt-baker": "restricted",
            "north-cascade": "unknown", "satus": "open", "sherman": "open", "stevens": "open", "snoqualmie": "open",
            "white": "restricted", "manastash": "open", "loup-loup": "unknown", "disautel": "unknown", "wauconda": "unknown",
            "tiger-mountain": "open",
        ])
        let disautel = try #require(passes.first { $0["id"] == "disautel" })
        #expect(disautel["restrictions"]?[index: 0] == ["direction": "Northbound", "text": "No restrictions", "status": "open", "current": false])
        #expect(disautel["travelAdvisory"] == false)
    }

    @Test("one pass carries its cameras, forecast and alerts; DateUpdated's Pacific parts are the capture's instant")
    func snoqualmie() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let data = try await resolve("pass:snoqualmie", with: try feedSource(), http: http)
        // The Traveler API capture says /Date(1762196869233-0800)/ for Snoqualmie.
        #expect(data["updated"] == "2025-11-03T19:07:49Z")
        #expect(data["status"] == "open")
        #expect(data["weather"] == "Occasional rain")
        #expect(data["temperatureF"] == 37)
        #expect(data["cameras"] == [[
            "id": 9026, "title": "I-90 at MP 52: Snoqualmie Summit", "imageURL": "https://images.wsdot.wa.gov/sc/090VC05200.jpg",
            "latitude": 47.4263, "longitude": -121.4137,
        ]])
        #expect(data["forecast"]?.arrayValue?.count == 3)
        #expect(data["forecast"]?[index: 0] == ["period": "Tonight", "text": "Rain. Snow level 4500 feet. Low around 35. South wind 5 to 10 mph. Chance of precipitation is 90%."])
        #expect(data["alerts"] == [[
            "id": 551234, "headline": "Overnight lane closures eastbound between North Bend and the summit for rock scaling.",
            "category": "Maintenance", "road": "090", "direction": "Eastbound", "created": "2025-11-03T16:00:00Z",
            "latitude": 47.43, "longitude": -121.45,
        ]])
        #expect(data["url"] == "https://wsdot.com/travel/real-time/mountainpasses/snoqualmie")
    }

    @Test("the instants agree with the Traveler API capture for every pass")
    func instantsAgreeWithTheRealCapture() async throws {
        let api = try #require(try JSONValue.parse(try fixture("real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json")).arrayValue)
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let passes = try #require(try await resolve("pass:all", with: try feedSource(), http: http)["passes"]?.arrayValue)
        for entry in api {
            let id = try #require(entry["MountainPassId"]?.intValue)
            let slug = try #require(PassCatalog.pass(id: id)?.slug)
            let expected = try #require(entry["DateUpdated"]?.stringValue.flatMap(FeedDate.wcf))
            let pass = try #require(passes.first { $0["id"]?.stringValue == slug })
            // The parts carry milliseconds; the contract's instants are whole seconds.
            #expect(pass["updated"] == JSONValue(expected), "\(slug)")
        }
    }

    @Test("conformance: feed mode and API mode read the same real values into the same reports, the feed adding only its extras")
    func agreesWithAPIMode() async throws {
        let apiURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"
        let api = try makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#))
        let apiHTTP = RecordingHTTPClient([apiURL: try .jsonFixture("real/DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json")])
        let fromAPI = try #require(try await resolve("pass:all", with: api, http: apiHTTP)["passes"]?.arrayValue)
        let feedHTTP = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let fromFeed = try #require(try await resolve("pass:all", with: try feedSource(), http: feedHTTP)["passes"]?.arrayValue)
        #expect(fromFeed.count == 16)
        let stripped = fromFeed.map { pass -> JSONValue in
            guard case .object(var object) = pass else { return pass }
            for key in ["cameras", "forecast", "alerts"] { object[key] = nil }
            return .object(object)
        }
        #expect(stripped == fromAPI)
    }

    @Test("pass:all and every pass:{name} share one request while it is fresh, in sequence and at once")
    func oneRequest() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let source = try feedSource()
        let start = Date(timeIntervalSince1970: 1_765_785_000)
        _ = try await resolve("pass:all", with: source, http: http, now: start, maxAge: 300)
        _ = try await resolve("pass:stevens", with: source, http: http, now: start + 120, maxAge: 300)
        async let one = resolve("pass:white", with: source, http: http, now: start + 299, maxAge: 300)
        async let two = resolve("pass:tiger-mountain", with: source, http: http, now: start + 299, maxAge: 300)
        #expect(try await one["status"] == "restricted")
        #expect(try await two["name"] == "Tiger Mountain SR18")
        #expect(http.urls.count == 1)
        // As old as the host's TTL: fetched again; nothing may be shared when the host allows no age.
        _ = try await resolve("pass:white", with: source, http: http, now: start + 300, maxAge: 300)
        #expect(http.urls.count == 2)
        _ = try await resolve("pass:white", with: source, http: http, now: start + 301, maxAge: 0)
        _ = try await resolve("pass:white", with: source, http: http, now: start + 301, maxAge: 0)
        #expect(http.urls.count == 4)
    }

    @Test("a failed fetch is not kept: the next URN asks again")
    func failureIsNotKept() async throws {
        let source = try feedSource()
        let failing = RecordingHTTPClient([Self.feedURL: .errorPage(503)])
        let error = try #require(await resolveError("pass:stevens", with: source, http: failing, maxAge: 300) as? HTTPError)
        #expect(error.kind == .http)
        let working = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        #expect(try await resolve("pass:stevens", with: source, http: working, maxAge: 300)["status"] == "open")
        #expect(working.urls.count == 1)
    }

    @Test("read tolerantly: no Cameras, Forecast or Alerts, a null temperature, unknown fields, a WCF date string")
    func tolerant() async throws {
        let reply = try edited { passes in
            for index in passes.indices {
                guard case .object(var entry) = passes[index] else { continue }
                entry["Cameras"] = nil
                entry["Forecast"] = nil
                entry["Alerts"] = nil
                entry["TemperatureInFahrenheit"] = .null
                entry["SnowDepthInches"] = 41
                entry["NewField"] = ["nested": [1, 2]]
                if entry["MountainPassId"] == 10 { entry["DateUpdated"] = "/Date(1762184692990-0800)/" }
                passes[index] = .object(entry)
            }
        }
        let http = RecordingHTTPClient([Self.feedURL: reply])
        let data = try await resolve("pass:stevens", with: try feedSource(), http: http)
        #expect(data["updated"] == "2025-11-03T15:44:52Z")
        #expect(data["temperatureF"] == .null)
        #expect(data["cameras"] == nil && data["forecast"] == nil && data["alerts"] == nil, "absent means not given, not an empty list")
        #expect(data["status"] == "open")
    }

    @Test("items without what they are for are left out; members of another type mean none given")
    func oddItems() async throws {
        let reply = try edited { passes in
            for index in passes.indices where passes[index]["MountainPassId"] == 11 {
                guard case .object(var entry) = passes[index] else { continue }
                entry["Cameras"] = [
                    ["id": "A1", "title": "No picture", "url": .null],
                    ["id": 2, "title": "Script", "url": "javascript:alert(1)"],
                    ["id": 3, "title": "  Summit  ", "url": "https://images.wsdot.wa.gov/sc/090VC05200.jpg", "lat": "x", "lon": 0],
                    "not an object",
                ]
                entry["Forecast"] = [["Day": "Tonight"], ["Day": .null, "ForecastText": "Snow."]]
                entry["Alerts"] = "none"
                passes[index] = .object(entry)
            }
        }
        let data = try await resolve("pass:snoqualmie", with: try feedSource(), http: RecordingHTTPClient([Self.feedURL: reply]))
        #expect(data["cameras"] == [["id": 3, "title": "Summit", "imageURL": "https://images.wsdot.wa.gov/sc/090VC05200.jpg", "latitude": nil, "longitude": nil]])
        #expect(data["forecast"] == [["period": "", "text": "Snow."]])
        #expect(data["alerts"] == nil)
    }

    @Test("a body that is not the feed is a bad response naming the URL", arguments: [
        ("<!DOCTYPE html><html><body>Down for maintenance</body></html>", "the body is HTML, not JSON"),
        (#"{"GetMountainPassConditionsResult": {"PassCondition": [{"MountainPassId": 1, "#, "the body is not JSON"),
        ("", "the body is empty"),
        (#"{"passes": []}"#, #"expected an object with "GetMountainPassConditionsResult", found an object with "passes""#),
        ("[]", #"expected an object with "GetMountainPassConditionsResult", found array"#),
        (#"{"GetMountainPassConditionsResult": {"PassCondition": {}}}"#, "GetMountainPassConditionsResult.PassCondition: expected an array of passes, found object"),
        (#"{"GetMountainPassConditionsResult": {"PassCondition": [{"MountainPassId": 10, "DateUpdated": [2025, 13, 1, 0, 0], "RoadCondition": "", "RestrictionOne": null, "RestrictionTwo": null}]}}"#,
         "PassCondition[0].DateUpdated: expected local time parts like [2025, 11, 3, 11, 30, 43, 853, 0, 0] or a date like \"/Date(1765784463873-0800)/\", found [2025,13,1,0,0]"),
    ])
    func notTheFeed(body: String, problem: String) async throws {
        let http = RecordingHTTPClient([Self.feedURL: .body(Data(body.utf8), contentType: "text/html")])
        let error = try #require(await resolveError("pass:stevens", with: try feedSource(), http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasPrefix(Self.feedURL + ": "), "\(error.message)")
        #expect(error.message.contains(problem), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test("local time parts: Pacific, daylight saving aware, the repeated hour read as the earlier instant", arguments: [
        ([2025, 11, 3, 11, 30, 43, 853, 0, 0], "2025-11-03T19:30:43Z"),
        ([2025, 7, 1, 12, 0, 0, 0, 0, 0], "2025-07-01T19:00:00Z"),
        ([2025, 11, 2, 1, 30, 0, 0, 0, 0], "2025-11-02T08:30:00Z"),
        ([2025, 11, 3, 11, 30], "2025-11-03T19:30:00Z"),
    ])
    func localParts(parts: [Int], expected: String) throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let date = try #require(FeedDate.localParts(parts.map(JSONValue.int), timeZone: zone))
        #expect(Timestamp.string(from: date) == expected)
    }

    @Test("local time parts that are no time are refused", arguments: [
        [2025, 11, 3, 11], [2025, 0, 3, 11, 30], [2025, 2, 30, 11, 30], [2025, 11, 3, 24, 0], [99999, 1, 1, 0, 0], [2025, 11, 3, 11, 60],
    ])
    func badLocalParts(parts: [Int]) throws {
        let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
        #expect(FeedDate.localParts(parts.map(JSONValue.int), timeZone: zone) == nil)
    }

    @Test("baseURL moves the feed; feed mode takes no access code")
    func options() async throws {
        let http = RecordingHTTPClient(["http://127.0.0.1:9/mobile/MountainPassConditions.json": try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let source = try feedSource(#", "baseURL": "http://127.0.0.1:9/mobile", "passes": ["stevens", "tiger-mountain"]"#)
        let data = try await resolve("pass:all", with: source, http: http)
        #expect(data["passes"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["stevens", "tiger-mountain"])
        #expect(configurationError(try .json(#"{"mode": "feed"}"#)) == nil)
        #expect(configurationError(try .json(#"{"mode": "mobile"}"#))?.message == #"sources.wsdot.options.mode: "mobile" is not one of "html", "api", "feed""#)
    }

    @Test("the card shows the first camera lazily and the forecast; text shows alerts and two periods")
    func presentation() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let data = try await resolve("pass:snoqualmie", with: try feedSource(), http: http)
        let context = PresentationContext(urn: "pass:snoqualmie", style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) }
        let card = PassPresentation.washington.card(data, context: context)
        #expect(card.image == .init(url: URL(string: "https://images.wsdot.wa.gov/sc/090VC05200.jpg")!, alt: "I-90 at MP 52: Snoqualmie Summit"))
        #expect(card.rows.first == .init("Alert", "Overnight lane closures eastbound between North Bend and the summit for rock scaling. (Maintenance, 090 Eastbound)", tone: .caution))
        #expect(card.rows.suffix(2).map(\.label) == ["Tonight", "Tuesday"])
        let lines = PassPresentation.washington.render(data, context: context)
        #expect(lines[0] == "Snoqualmie Pass I-90  OPEN")
        #expect(lines[1] == "  ⚠ Overnight lane closures eastbound between North Bend and the summit for rock scaling. (Maintenance, 090 Eastbound)")
        #expect(lines.contains { $0.hasPrefix("  Tonight ") && $0.hasSuffix("Rain. Snow level 4500 feet. Low around 35. South wind 5 to 10 mph. Chance of precipitation is 90%.") })
        #expect(lines.contains { $0.hasPrefix("  Tuesday ") })
        #expect(!lines.contains { $0.contains("Tuesday Night") }, "two periods, not three")
    }

    @Test("watch: a new or lifted alert is a change; a new forecast is not")
    func changeKey() async throws {
        let http = RecordingHTTPClient([Self.feedURL: try .jsonFixture("derived/mobile-feed-2025-11-03.json")])
        let data = try await resolve("pass:snoqualmie", with: try feedSource(), http: http)
        let presentation = PassPresentation.washington
        guard case .object(var changed) = data else { Issue.record("not an object"); return }
        changed["forecast"] = [["period": "Tonight", "text": "Clear."]]
        #expect(presentation.changeKey(.object(changed)) == presentation.changeKey(data))
        changed["alerts"] = []
        #expect(presentation.changeKey(.object(changed)) != presentation.changeKey(data))
    }
}
