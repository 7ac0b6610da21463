import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// NWAC's real forecast for West Slopes North, published 2026-04-01 01:30 UTC (Tuesday
/// evening, Pacific): Considerable above treeline, two problems.
@Suite struct ForecastTests {
    @Test func theRealForecastByPlace() async throws {
        let http = try april()
        let result = try await makeSource().resolve("avalanche:baker", context: context(http))
        #expect(result.kind == AvalancheSource.kind)
        #expect(result.data["center"] == "NWAC")
        #expect(result.data["zone"] == ["id": 1646, "name": "West Slopes North", "slug": "west-slopes-north"])
        #expect(result.data["place"]?["id"] == "baker")
        #expect(result.data["place"]?["name"] == "Mt Baker")
        #expect(result.data["day"] == "today")
        #expect(result.data["status"] == "forecast")
        #expect(result.data["rating"]?["level"] == 3)
        #expect(result.data["rating"]?["name"] == "Considerable")
        #expect(result.data["rating"]?["advice"] == "Dangerous avalanche conditions. Careful snowpack evaluation, cautious route-finding and conservative decision-making essential.")
        #expect(result.levels("today") == [3, 2, 2])
        #expect(result.levels("tomorrow") == [2, 2, 1])
        #expect(result.data["danger"]?["today"]?["below"]?["name"] == "Moderate")
        #expect(result.data["danger"]?["tomorrow"]?["below"]?["name"] == "Low")
        #expect(result.data["danger"]?["tomorrow"]?["below"]?["advice"] == "Generally safe avalanche conditions. Watch for unstable snow on isolated terrain features.")
        #expect(result.data["published"] == "2026-04-01T01:30:00Z")
        #expect(result.data["expires"] == "2026-04-02T01:30:00Z")
        #expect(result.data["expired"] == false)
        #expect(result.data["forecaster"] == "Lee Lazzara")
        #expect(result.data["url"] == "http://www.nwac.us/avalanche-forecast/#/west-slopes-north")
        #expect(result.data["warning"] == .null)
        #expect(result.data["summary"] == .null)
        #expect(http.urls.map(\.path) == [Path.mapLayer, "/v2/public/product", "/v2/public/product"])
        #expect(Set(http.urls.dropFirst().compactMap(\.query)) == ["type=forecast&center_id=NWAC&zone_id=1646", "type=warning&center_id=NWAC&zone_id=1646"])
    }

    @Test func itsTwoProblemsWithLikelihoodAndSize() async throws {
        let result = try await makeSource().resolve("avalanche:west-slopes-north", context: context(try april()))
        let problems = try #require(result.data["problems"]?.arrayValue)
        #expect(problems.count == 2)
        let storm = problems[0], wet = problems[1]
        #expect(storm["name"] == "Storm Slab")
        #expect(storm["rank"] == 1)
        #expect(storm["likelihood"] == "likely")
        #expect(storm["aspects"] == ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"])
        #expect(storm["elevations"] == ["above treeline", "near treeline"])
        #expect(storm["size"]?["min"]?.doubleValue == 1)
        #expect(storm["size"]?["max"]?.doubleValue == 2)
        #expect(wet["name"] == "Wet Loose")
        #expect(wet["likelihood"] == "possible")
        #expect(wet["elevations"] == ["near treeline", "below treeline"])
        #expect(wet["size"]?["min"]?.doubleValue == 1)
        #expect(wet["size"]?["max"]?.doubleValue == 1.5)
        // Named directly, the zone has no place.
        #expect(result.data["place"] == .null)
    }

    @Test func theBottomLineIsPlainText() async throws {
        let result = try await makeSource().resolve("avalanche:West%20Slopes%20North", context: context(try april()))
        #expect(result.data["bottomLine"] == "Avalanche danger will rise through the day as a storm moves in and temperatures warm up. Shift to simpler, lower-angle terrain during stormy periods or if you see signs of instability like shooting cracks, rollerballs, or fresh avalanches.")
        #expect(PlainText.from(html: "<p>One&nbsp;&mdash; two</p>\n<p>&nbsp;</p><p>Three &amp; <b>four</b></p>") == "One — two\n\nThree & four")
        // libxml2 puts loose text before a block in a paragraph of its own.
        #expect(PlainText.from(html: "Loose <em>text</em> and <p>a paragraph</p>") == "Loose text and\n\na paragraph")
        #expect(PlainText.from(html: "Only <em>loose</em> text") == "Only loose text")
        #expect(PlainText.from(html: "<p>&nbsp;</p>") == nil)
        #expect(PlainText.from(html: nil) == nil)
    }

    @Test func tomorrowLeadsWithTomorrowsRating() async throws {
        let result = try await makeSource().resolve("avalanche:baker:tomorrow", context: context(try april()))
        #expect(result.data["day"] == "tomorrow")
        #expect(result.data["rating"]?["level"] == 2)
        #expect(result.data["rating"]?["name"] == "Moderate")
        // Both days are always there.
        #expect(result.levels("today") == [3, 2, 2])
        #expect(result.levels("tomorrow") == [2, 2, 1])
    }

    @Test func aForecastPastItsExpiryIsMarkedExpired() async throws {
        let later = aprilMorning.addingTimeInterval(2 * 86_400)
        let result = try await makeSource().resolve("avalanche:baker", context: context(try april(), now: later))
        #expect(result.data["status"] == "forecast")
        #expect(result.data["expired"] == true)
    }

    /// The forecast is kept until its `expires_time` (2026-04-02T01:30Z, 9.5 hours after the
    /// morning), the warning asked every time a result is made: a warning comes at any hour.
    @Test func theForecastIsKeptUntilItExpiresTheWarningIsAskedEachTime() async throws {
        let http = try april()
        let source = try makeSource()
        let result = try await source.resolve("avalanche:baker", context: context(http))
        #expect(result.ttl == nil, "the instance's TTL (30 minutes): how late a warning can show")
        _ = try await source.resolve("avalanche:baker", context: context(http, now: aprilMorning.addingTimeInterval(3_600)))
        _ = try await source.resolve("avalanche:baker", context: context(http, now: aprilMorning.addingTimeInterval(9 * 3_600)))
        #expect(http.forecastRequests.count == 1)
        #expect(http.warningRequests.count == 3)
        // Past its expiry it is asked again; a forecast already past its expiry is kept 10 minutes.
        _ = try await source.resolve("avalanche:baker", context: context(http, now: aprilMorning.addingTimeInterval(9.5 * 3_600)))
        #expect(http.forecastRequests.count == 2)
        _ = try await source.resolve("avalanche:baker", context: context(http, now: aprilMorning.addingTimeInterval(9.5 * 3_600 + 599)))
        #expect(http.forecastRequests.count == 2)
        _ = try await source.resolve("avalanche:baker", context: context(http, now: aprilMorning.addingTimeInterval(9.5 * 3_600 + 600)))
        #expect(http.forecastRequests.count == 3)
        // Fresh data asked for: asked every time.
        _ = try await source.resolve("avalanche:baker", context: context(http, maxAge: 0))
        #expect(http.forecastRequests.count == 4)
    }

    @Test func howLongAForecastIsKept() {
        let now = aprilMorning
        #expect(ForecastDocuments.keptUntil(expires: nil, now: now) == now.addingTimeInterval(600))
        #expect(ForecastDocuments.keptUntil(expires: now.addingTimeInterval(-60), now: now) == now.addingTimeInterval(600))
        #expect(ForecastDocuments.keptUntil(expires: now.addingTimeInterval(60), now: now) == now.addingTimeInterval(600))
        #expect(ForecastDocuments.keptUntil(expires: now.addingTimeInterval(7_200), now: now) == now.addingTimeInterval(7_200))
        #expect(ForecastDocuments.keptUntil(expires: now.addingTimeInterval(5 * 86_400), now: now) == now.addingTimeInterval(86_400))
    }

    /// A warning issued after the day's map layer was kept: the `type=warning` answer shows it,
    /// and it comes first in the text.
    @Test func aWarningFromTheWarningEndpoint() async throws {
        let warning: JSONValue = ["id": 184300, "product_type": "warning", "published_time": "2026-04-01T14:00:00+00:00",
                                  "bottom_line": "Very dangerous avalanche conditions."]
        let http = try april([Path.warning(ZoneID.westSlopesNorth): .json(warning)])
        let result = try await makeSource().resolve("avalanche:baker", context: context(http))
        #expect(result.data["warning"] == warning)
        let none = try await makeSource().resolve("avalanche:baker", context: context(try april([Path.warning(ZoneID.westSlopesNorth): try .jsonFixture(Body.warningNone)])))
        #expect(none.data["warning"] == .null)
    }
}
