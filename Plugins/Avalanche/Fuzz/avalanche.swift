// Fuzzes the Avalanche decoders through resolve(): the map layer (zones, ids, Polygon and
// MultiPolygon outlines, point-in-polygon and distance to an edge), the forecast product
// (danger by band, problems, sizes as strings, HTML bottom lines) and the warning product,
// then each result's presentation (text, change key, card). The first byte picks the HTTP
// status; the second's low bit whether the map layer is a valid one (so the product decoders
// see the fuzz bytes) or the fuzz bytes too. The rest is the body.
import Avalanche
import ConditionsKit
import ConditionsText
import Foundation

private let source: AvalancheSource = {
    guard let source = try? AvalancheSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1", "center": "NWAC"}"#)) else {
        preconditionFailure("Avalanche options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 404, 500, 503]

// Two zones in the map layer's shape (derived/nwac_map_layer_2026-04-01.json): Stevens Pass, and
// a MultiPolygon around Seattle with a hole. Text, made into `Data` per request (see nws.swift).
private let layer = #"""
    {"type": "FeatureCollection", "features": [
     {"type": "Feature", "id": 1649, "properties": {"name": "Stevens Pass", "off_season": false, "link": "https://nwac.us/avalanche-forecast/#/stevens-pass", "warning": {"product": null}},
      "geometry": {"type": "Polygon", "coordinates": [[[-121.3, 47.65], [-120.9, 47.65], [-120.9, 47.85], [-121.3, 47.85], [-121.3, 47.65]]]}},
     {"type": "Feature", "id": 1700, "properties": {"name": "Puget Sound", "off_season": true, "warning": {"product": {"id": 1}}},
      "geometry": {"type": "MultiPolygon", "coordinates": [[[[-122.6, 47.4], [-122.0, 47.4], [-122.0, 47.8], [-122.6, 47.8], [-122.6, 47.4]],
                                                           [[-122.4, 47.5], [-122.3, 47.5], [-122.3, 47.55], [-122.4, 47.5]]]]}}]}
    """#

/// The fuzz body for every request, but a valid map layer when asked to.
private struct AvalancheFuzzHTTPClient: HTTPClient {
    let body: Data
    let status: Int
    let validLayer: Bool

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if validLayer, request.url.path.contains("/map-layer/") {
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(layer.utf8), url: request.url)
        }
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: body, url: request.url)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAvalanche(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 1 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 2, count: count - 2))
    let results = FuzzSupport.resolveAll(["avalanche:here", "avalanche:47.745,-121.0933:tomorrow", "avalanche:stevens-pass", "avalanche:all"], with: source,
                                         http: AvalancheFuzzHTTPClient(body: body, status: status, validLayer: bytes[1] & 1 == 1))
    for (urn, result) in results {
        let presentation = AvalancheSource.presentations.first { $0.kind == result.kind }
        let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        _ = presentation?.render(result.data, context: context)
        _ = presentation?.changeKey(result.data)
        _ = presentation?.card(result.data, context: context)
    }
    return 0
}
