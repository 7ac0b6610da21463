// Fuzzes the Snowpack decoders through resolve(): AWDB's `/stations` list and `/data` hourly
// values (elements, ordinals, dates in PST, values, quality flags), then each result's
// presentation (text, change key, card). The first byte picks the HTTP status; the second's
// low bit whether `/stations` answers with a valid list (so the `/data` decoder sees the fuzz
// bytes) or with the fuzz bytes too. The rest is the body.
import ConditionsText
import ConditionsKit
import Foundation
import Snowpack

private let source: SnowpackSource = {
    guard let source = try? SnowpackSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1"}"#)) else {
        preconditionFailure("Snowpack options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 301, 400, 403, 404, 500, 503]

// Text, made into `Data` per request (a global `Data` is reported by LeakSanitizer at exit).
private let stations = #"""
    [{"stationTriplet": "791:WA:SNTL", "stationId": "791", "stateCode": "WA", "networkCode": "SNTL", "name": "Stevens Pass",
      "elevation": 3940, "latitude": 47.74, "longitude": -121.09, "dataTimeZone": -8, "beginDate": "1979-10-01 00:00", "endDate": "2100-01-01 00:00"}]
    """#

/// The fuzz body for every request, but a valid station list for `/stations` when asked to.
private struct SnowpackFuzzHTTPClient: HTTPClient {
    let body: Data
    let status: Int
    let validStations: Bool

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if validStations, request.url.path.hasSuffix("/stations") {
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(stations.utf8), url: request.url)
        }
        return HTTPResponse(status: status, headers: ["content-type": "application/json", "cache-control": "max-age=900"], body: body, url: request.url)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSnowpack(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 1 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 2, count: count - 2))
    let results = FuzzSupport.resolveAll(["snowpack:here", "snowpack:station:791:WA:SNTL"], with: source,
                                         http: SnowpackFuzzHTTPClient(body: body, status: status, validStations: bytes[1] & 1 == 1))
    for (urn, result) in results {
        let presentation = SnowpackSource.presentations.first { $0.kind == result.kind }
        let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        _ = presentation?.render(result.data, context: context)
        _ = presentation?.changeKey(result.data)
        _ = presentation?.card(result.data, context: context)
    }
    return 0
}
