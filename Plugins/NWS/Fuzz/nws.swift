// Fuzzes the NWS decoders through resolve(): `/points` (the grid and the URLs it gives),
// `/forecast` and `/forecast/hourly` periods, `/alerts/active` features, the raw grid's layers
// (`sky:`: run-length intervals, ISO 8601 durations) and problem+json errors, then each
// result's presentation (text, change key, card). The first byte picks the
// HTTP status; the second's low bit whether `/points` answers with a valid grid (so the
// forecast decoders see the fuzz bytes) or with the fuzz bytes too. The rest is the body.
import ConditionsText
import ConditionsKit
import Foundation
import NWS

private let source: NWSSource = {
    guard let source = try? NWSSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1"}"#)) else {
        preconditionFailure("NWS options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 301, 400, 403, 404, 500, 503]

// Text, made into `Data` per request: a global `Data` is reported by LeakSanitizer at exit
// (its tagged storage pointer is not seen as a root). No `forecastGridData`: `sky:` builds the
// grid's URL from the office and cell, as for a memo entry kept before it existed.
private let grid = #"""
    {"properties": {"forecast": "http://127.0.0.1:1/gridpoints/SEW/163,68/forecast", "forecastHourly": "http://127.0.0.1:1/gridpoints/SEW/163,68/forecast/hourly",
     "gridId": "SEW", "gridX": 163, "gridY": 68, "timeZone": "America/Los_Angeles", "relativeLocation": {"properties": {"city": "Skykomish", "state": "WA"}}}}
    """#

/// The fuzz body for every request, but a valid grid for `/points` when asked to.
private struct NWSFuzzHTTPClient: HTTPClient {
    let body: Data
    let status: Int
    let validGrid: Bool

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if validGrid, request.url.path.hasPrefix("/points/") {
            return HTTPResponse(status: 200, headers: ["content-type": "application/geo+json", "cache-control": "public, max-age=3600"], body: Data(grid.utf8), url: request.url)
        }
        return HTTPResponse(status: status, headers: ["content-type": "application/geo+json", "cache-control": "public, max-age=900", "retry-after": "5", "age": "3"],
                            body: body, url: request.url)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNWS(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 1 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 2, count: count - 2))
    let results = FuzzSupport.resolveAll(["forecast:here", "forecast:47.745,-121.0933:hourly", "alerts:here", "sky:here"], with: source,
                                         http: NWSFuzzHTTPClient(body: body, status: status, validGrid: bytes[1] & 1 == 1))
    for (urn, result) in results {
        let presentation = NWSSource.presentations.first { $0.kind == result.kind }
        let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        _ = presentation?.render(result.data, context: context)
        _ = presentation?.changeKey(result.data)
        _ = presentation?.card(result.data, context: context)
    }
    return 0
}
