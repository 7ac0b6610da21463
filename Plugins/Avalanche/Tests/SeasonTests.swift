import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Avalanche

/// Off-season and unrated zones answer plainly; only a zone in season without a product is
/// `notFound`.
@Suite struct SeasonTests {
    /// NWAC's real summary of 2026-03-30: forecasts had ended for the Olympics.
    @Test func anOffSeasonSummaryIsAPlainResult() async throws {
        let http = try april()
        let result = try await makeSource().resolve("avalanche:hurricane", context: context(http))
        #expect(result.data["zone"]?["name"] == "Olympics")
        #expect(result.data["status"] == "off-season")
        #expect(result.data["rating"] == .null)
        #expect(result.data["danger"] == ["today": .null, "tomorrow": .null])
        #expect(result.data["problems"] == [])
        let summary = try #require(result.data["summary"]?.stringValue)
        #expect(summary.hasPrefix("Avalanche forecasts have ended for the 2025-26 season in the Olympic Mountains."))
        #expect(!summary.contains("<"))
        #expect(result.data["forecaster"] == "Sam Clairmont")
        #expect(result.data["published"] == "2026-03-30T01:30:00Z")
        #expect(result.data["url"] == "http://www.nwac.us/avalanche-forecast/#/olympics")
        #expect(http.urls.last?.query == "type=forecast&center_id=NWAC&zone_id=1645")
    }

    /// The real null product for a zone the map layer marks `off_season`: the same plain answer.
    @Test func aNullProductOffSeasonIsTheSamePlainResult() async throws {
        let http = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayerSummer)], fallback: try .jsonFixture(Body.nullProduct))
        let result = try await makeSource().resolve("avalanche:stevens", context: context(http))
        #expect(result.data["zone"]?["name"] == "Stevens Pass")
        #expect(result.data["status"] == "off-season")
        #expect(result.data["summary"] == .null)
        #expect(result.data["published"] == .null)
        // The map layer's link stands in for the product's.
        #expect(result.data["url"] == "https://nwac.us/avalanche-forecast/#/stevens-pass")
        // A literal JSON null reads the same.
        let literal = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayerSummer)], fallback: .json("null"))
        #expect(try await makeSource().resolve("avalanche:stevens", context: context(literal)).data["status"] == "off-season")
    }

    @Test func aNullProductInSeasonIsNotFound() async throws {
        let source = try makeSource()
        let error = try #require(await source.error(resolving: "avalanche:stevens", context: context(try april())) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message == "avalanche.org has no current NWAC forecast for Stevens Pass, though its map layer says the zone is in season")
    }

    /// A real NWAC forecast of 2023-01-24 with every band null ("The next avalanche forecast will
    /// be issued on Thursday"): no rating, said so, not an error.
    @Test func noRatingIsSaidPlainly() async throws {
        let list = try JSONValue.parse(try fixture(Body.productsList2023))
        let olympics = try #require(list.arrayValue?.first { $0["forecast_zone"]?.arrayValue?.first?["name"] == "Olympics" })
        #expect(olympics["danger"]?.arrayValue?.count == 2)
        let http = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayer2023), Path.product(1128): .json(olympics),
                                        Path.warning(1128): try .jsonFixture(Body.warningNone)])
        let result = try await makeSource().resolve("avalanche:olympics", context: context(http, now: try #require(Timestamp.parse("2023-01-24T18:00:00Z"))))
        #expect(result.data["status"] == "no rating")
        #expect(result.data["rating"] == ["level": .null, "name": "No rating", "advice": .string(DangerScale.noRatingAdvice)])
        #expect(result.levels("today") == [nil, nil, nil])
        #expect(result.data["danger"]?["today"]?["above"]?["name"] == "No rating")
        #expect(result.data["bottomLine"] == "The next avalanche forecast will be issued on Thursday, January 27th at 6 PM.")
        #expect(result.data["forecaster"] == "Robert Hahn")
    }

    /// -1 ("no rating") and 0 are not on the scale either.
    @Test func levelsOffTheScaleAreNoRating() {
        #expect(DangerScale.json(-1)["name"] == "No rating")
        #expect(DangerScale.json(-1)["level"] == -1)
        #expect(DangerScale.json(0)["name"] == "No rating")
        #expect(DangerScale.json(5)["name"] == "Extreme")
        #expect(DangerScale.json(5)["advice"] == "Avoid all avalanche terrain.")
        #expect(DangerScale.json(6)["name"] == "No rating")
    }
}
