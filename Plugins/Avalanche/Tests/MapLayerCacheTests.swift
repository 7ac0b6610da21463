import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import Foundation
import Testing
@testable import Avalanche

/// The map layer is asked once for many URNs: kept a day (zone ids change once a season), in
/// the instance and in its memo (which the host keeps in the cache folder across runs), shared
/// by URNs resolved at once.
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
        #expect(http.forecastRequests.count == 10, "one per zone (four zones for the first six URNs, ten for all), kept until it expires")

        // Half an hour later (the default TTL) it is kept; a day later it is asked again.
        _ = try await source.resolve("avalanche:stevens", context: context(http, now: aprilMorning.addingTimeInterval(AvalancheSource.defaultTTL)))
        #expect(http.requests(to: Path.mapLayer).count == 1)
        _ = try await source.resolve("avalanche:stevens", context: context(http, now: aprilMorning.addingTimeInterval(ForecastDocuments.mapLayerLifetime)))
        #expect(http.requests(to: Path.mapLayer).count == 2)
        // Fresh data asked for (--refresh, --no-cache): asked every time.
        _ = try await source.resolve("avalanche:stevens", context: context(http, maxAge: 0))
        _ = try await source.resolve("avalanche:stevens", context: context(http, maxAge: 0))
        #expect(http.requests(to: Path.mapLayer).count == 4)
    }

    /// A new instance (the next run) with the memo the host kept in the cache folder asks no
    /// map layer and no forecast again; only the warning.
    @Test func theMemoOutlivesTheInstance() async throws {
        let http = try april()
        let memory = FreshValues<JSONValue>()
        let builder = SourceContextBuilder(now: aprilMorning, places: places, http: http, maxAge: AvalancheSource.defaultTTL).keepingValues(in: memory)
        _ = try await makeSource().resolve("avalanche:baker", context: builder.build())
        _ = try await makeSource().resolve("avalanche:baker", context: builder.build())
        #expect(http.requests(to: Path.mapLayer).count == 1)
        #expect(http.forecastRequests.count == 1)
        #expect(http.warningRequests.count == 2)
    }

    @Test func aFailedMapLayerIsNotKept() async throws {
        let layer = try fixture(Body.mapLayer2026)
        // The forecast and the warning are asked at once: each gets the same body.
        let forecast = RecordingHTTPClient.Reply.body(try fixture(Body.forecastWestSlopesNorth), contentType: "application/json")
        let http = RecordingHTTPClient(inOrder: [.status(503), .body(layer, contentType: "application/json"), forecast, forecast])
        let source = try makeSource()
        #expect(await source.error(resolving: "avalanche:baker", context: context(http)) != nil)
        _ = try await source.resolve("avalanche:baker", context: context(http))
        #expect(http.requests(to: Path.mapLayer).count == 2)
    }
}
