import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import Avalanche

/// avalanche.org's traps and failures, each one line naming the problem.
@Suite struct ErrorTests {
    /// Some misses are HTTP 200 with an HTML page: unusable, so `badResponse` (the host may
    /// then try a route chain's next instance or a stale answer).
    @Test func anHTMLAnswerWithStatus200IsABadResponse() async throws {
        let http = try april([Path.product(ZoneID.westSlopesNorth): .htmlErrorPage])
        let error = try #require(await makeSource().error(resolving: "avalanche:baker", context: context(http)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message == "https://api.avalanche.org/v2/public/product?type=forecast&center_id=NWAC&zone_id=1646: avalanche.org answered HTTP 200 with an HTML page, not JSON, for the forecast of West Slopes North")
    }

    @Test func anHTMLPageCalledJSONIsABadResponseToo() async throws {
        let page = RecordingHTTPClient.Reply.text("  <html><body>Error</body></html>", contentType: "application/json")
        let http = RecordingHTTPClient([Path.mapLayer: page])
        let error = try #require(await makeSource().error(resolving: "avalanche:stevens", context: context(http)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasSuffix("answered HTTP 200 with an HTML page, not JSON, for the map layer of NWAC"))
    }

    @Test func anErrorStatusIsTheHostsHTTPError() async throws {
        let http = RecordingHTTPClient([Path.mapLayer: .status(502)])
        let error = try await makeSource().error(resolving: "avalanche:stevens", context: context(http))
        #expect(error as? HTTPError == .status(502, url: "https://api.avalanche.org/v2/public/products/map-layer/NWAC"))
    }

    @Test func bodiesThatAreNotTheDocumentedShape() async throws {
        let notJSON = RecordingHTTPClient([Path.mapLayer: .json("{\"type\": ")])
        let error = try #require(await makeSource().error(resolving: "avalanche:stevens", context: context(notJSON)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains("the map layer of NWAC is not JSON"))

        let noFeatures = RecordingHTTPClient([Path.mapLayer: .json(#"{"type": "FeatureCollection"}"#)])
        let missing = try #require(await makeSource().error(resolving: "avalanche:stevens", context: context(noFeatures)) as? ConditionsError)
        #expect(missing.message == "https://api.avalanche.org/v2/public/products/map-layer/NWAC: no \"features\" array in the map layer")

        let pointless = RecordingHTTPClient([Path.mapLayer: .json(#"{"features": [{"id": 1, "properties": {"name": "Nowhere"}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#)])
        let shape = try #require(await makeSource().error(resolving: "avalanche:stevens", context: context(pointless)) as? ConditionsError)
        #expect(shape.message.hasSuffix("the zone \"Nowhere\" has no Polygon or MultiPolygon geometry"))

        let dangerless = try april([Path.product(ZoneID.westSlopesNorth): .json(#"{"id": 7, "product_type": "forecast", "danger": "high"}"#)])
        let danger = try #require(await makeSource().error(resolving: "avalanche:baker", context: context(dangerless)) as? ConditionsError)
        #expect(danger.kind == .badResponse)
        #expect(danger.message.hasSuffix("zone_id=1646: the forecast's \"danger\" is not an array"))
    }

    @Test func aCenterWithoutZones() async throws {
        let http = RecordingHTTPClient(["/v2/public/products/map-layer/XYZ": .json(#"{"type": "FeatureCollection", "features": []}"#)])
        let error = try #require(await makeSource(["center": "xyz"]).error(resolving: "avalanche:all", context: context(http)) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message == "avalanche.org lists no forecast zones for the center \"XYZ\" (sources.avalanche.options.center)")
    }

    @Test func allIsForToday() async throws {
        let error = try #require(await makeSource().error(resolving: "avalanche:all:tomorrow", context: context(try april())) as? ConditionsError)
        #expect(error.kind == .invalidArguments)
    }

    @Test func options() throws {
        let source = try makeSource(["baseURL": "http://127.0.0.1:8080/mirror", "center": "snfac"])
        #expect(source.examples == ["avalanche:all", "avalanche:stevens", "avalanche:stevens:tomorrow"])
        for bad: JSONValue in [["baseURL": "ftp://example.org"], ["baseURL": "https://example.org/?key=1"], ["center": "N W"], ["center": ""],
                               ["centre": "NWAC"], ["center": 7]] {
            #expect(throws: ConditionsError.self) { try makeSource(bad) }
        }
        do {
            _ = try makeSource(["center": "N/A"])
        } catch let error as ConditionsError {
            #expect(error.message.hasPrefix("sources.avalanche.options.center: \"N/A\" is not an avalanche center id"))
        }
    }

    @Test func baseURLAndCenterMakeTheURLs() async throws {
        let http = RecordingHTTPClient(["/mirror/v2/public/products/map-layer/SNFAC": try .jsonFixture(Body.mapLayerSNFAC)], fallback: try .jsonFixture(Body.nullProduct))
        let source = try makeSource(["baseURL": "http://127.0.0.1:8080/mirror", "center": "snfac"])
        _ = try await source.resolve("avalanche:all", context: context(http))
        #expect(http.urls.first?.absoluteString == "http://127.0.0.1:8080/mirror/v2/public/products/map-layer/SNFAC")
        #expect(http.urls.dropFirst().map(\.absoluteString).sorted() == ["forecast", "warning"].flatMap { type in
            [2904, 2905, 2906, 2907].map { "http://127.0.0.1:8080/mirror/v2/public/product?type=\(type)&center_id=SNFAC&zone_id=\($0)" }
        })
    }
}
