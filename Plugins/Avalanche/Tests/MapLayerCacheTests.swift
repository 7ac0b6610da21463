import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// The map layer is asked once for many URNs: kept in the instance for as long as the host
/// keeps a result (`SourceContext.maxAge`), shared by URNs resolved at once.
@Suite struct MapLayerCacheTests {
    @Test func oneMapLayerRequestForSeveralURNs() async throws {
        let http = try april([Path.product(ZoneID.stevensPass): try .jsonFixture(Body.forecastWestSlopesNorth),
                              Path.product(ZoneID.snoqualmiePass): try .jsonFixture(Body.forecastWestSlopesNorth),
                              Path.product(ZoneID.westSlopesSouth): try .jsonFixture(Body.forecastWestSlopesNorth)])
        let source = try makeSource()
        // At once, as a report resolves them…
        async let stevens = source.resolve("avalanche:stevens", context: context(http))
        async let snoqualmie = source.resolve("avalanche:snoqualmie", context: context(http))
        async let white = source.resolve("avalanche:white:tomorrow", context: context(http))
        async let baker = source.resolve("avalanche:baker", context: context(http))
        _ = try await (stevens, snoqualmie, white, baker)
        // …and one after the other.
        _ = try await source.resolve("avalanche:west-slopes-north", context: context(http))
        _ = try await source.resolve("avalanche:47.41,-121.4058", context: context(http))
        _ = try await source.resolve("avalanche:all", context: context(http))
        #expect(http.requests(to: Path.mapLayer).count == 1)
        #expect(http.requests(to: "/v2/public/product").count == 16)

        // Half an hour later (the default TTL) it is asked again.
        _ = try await source.resolve("avalanche:stevens", context: context(http, now: aprilMorning.addingTimeInterval(AvalancheSource.defaultTTL)))
        #expect(http.requests(to: Path.mapLayer).count == 2)
        // Fresh data asked for (--refresh, --no-cache): asked every time.
        _ = try await source.resolve("avalanche:stevens", context: context(http, maxAge: 0))
        _ = try await source.resolve("avalanche:stevens", context: context(http, maxAge: 0))
        #expect(http.requests(to: Path.mapLayer).count == 4)
    }

    @Test func aFailedMapLayerIsNotKept() async throws {
        let layer = try fixture(Body.mapLayer2026)
        let http = RecordingHTTPClient(inOrder: [.status(503), .body(layer, contentType: "application/json"),
                                                 .body(try fixture(Body.forecastWestSlopesNorth), contentType: "application/json")])
        let source = try makeSource()
        #expect(await source.error(resolving: "avalanche:baker", context: context(http)) != nil)
        _ = try await source.resolve("avalanche:baker", context: context(http))
        #expect(http.requests(to: Path.mapLayer).count == 2)
    }
}
