import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// `avalanche:all`: every zone of the center, today, in the map layer's order.
@Suite struct AllZonesTests {
    @Test func everyZoneToday() async throws {
        let http = try april()
        let result = try await makeSource().resolve("avalanche:all", context: context(http))
        #expect(result.kind == AvalancheSource.kind)
        #expect(result.data["center"] == "NWAC")
        #expect(result.data["day"] == "today")
        let zones = try #require(result.data["zones"]?.arrayValue)
        #expect(zones.compactMap { $0["zone"]?["name"]?.stringValue } == [
            "Olympics", "West Slopes North", "West Slopes Central", "West Slopes South", "Stevens Pass", "Snoqualmie Pass",
            "East Slopes North", "East Slopes Central", "East Slopes South", "Mt Hood",
        ])
        // The real forecast and summary; the other zones are in season with the real null product.
        #expect(zones.compactMap { $0["status"]?.stringValue } == ["off-season", "forecast"] + Array(repeating: "no forecast", count: 8))
        #expect(zones[1]["rating"]?["name"] == "Considerable")
        #expect(zones[1]["problems"]?.arrayValue?.count == 2)
        #expect(zones.allSatisfy { $0["day"] == "today" && $0["place"] == .null })
        // One map layer, one product per zone.
        #expect(http.requests(to: Path.mapLayer).count == 1)
        #expect(http.forecastRequests.count == 10)
        #expect(http.warningRequests.count == 10)
    }

    /// A zone that cannot be read fails the whole, naming it: a list quietly missing a zone
    /// would read as complete.
    @Test func aZoneThatCannotBeReadFailsTheWholeNamingIt() async throws {
        let http = try april([Path.product(ZoneID.stevensPass): .htmlErrorPage, Path.product(ZoneID.snoqualmiePass): .status(500)])
        let error = try #require(await makeSource().error(resolving: "avalanche:all", context: context(http)) as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message.hasPrefix("2 of 10 NWAC zones could not be read: Stevens Pass: "))
        #expect(error.message.contains("HTML page"))
        #expect(error.message.contains("; Snoqualmie Pass: HTTP 500"))
    }
}
