// Fuzzes the SpaceWeather decoders through resolve(): the planetary K-index and its forecast
// in both of SWPC's forms (arrays with a header row and strings; objects with numbers, `Kp` or
// `kp`), Kp thirds and the G-scale, and the OVATION grid (points, cells, times), then each
// result's presentation (text, change key, card). The first byte picks the HTTP status; the
// second (mod 4) which documents are the fuzz bytes: all, or only the K-index, only the
// forecast, or only the OVATION grid (the others valid, so that decoder sees the fuzz bytes).
// The rest is the body.
import ConditionsKit
import ConditionsText
import Foundation
import SpaceWeather

private let source: SpaceWeatherSource = {
    guard let source = try? SpaceWeatherSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1"}"#)) else {
        preconditionFailure("SpaceWeather options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 404, 500, 503]

// Valid documents around FuzzSupport.now (2026-11-21 14:00 UTC), in SWPC's shapes. Text, made
// into `Data` per request (see nws.swift).
private let kp = #"[["time_tag","Kp","a_running","station_count"],["2026-11-21 09:00:00.000","2.33","9","8"],["2026-11-21 12:00:00.000","4.67","39","8"]]"#
private let forecast = #"""
    [{"time_tag":"2026-11-21T12:00:00","kp":4.67,"observed":"estimated","noaa_scale":"G1"},{"time_tag":"2026-11-21T15:00:00","kp":6.33,"observed":"predicted","noaa_scale":null},
     {"time_tag":"2026-11-23T00:00:00","kp":8.67,"observed":"predicted","noaa_scale":"G5"}]
    """#
private let ovation = #"{"Observation Time": "2026-11-21T13:50:00Z", "Forecast Time": "2026-11-21T14:30:00Z", "coordinates": [[0, 63, 9], [238, 48, 3], [359, 63, 10]]}"#

/// The fuzz body for the chosen documents, valid ones for the rest.
private struct SWPCFuzzHTTPClient: HTTPClient {
    let body: Data
    let status: Int
    let fuzzed: Int

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.url.path
        let which = path.hasSuffix("-forecast.json") ? 2 : path.hasSuffix("k-index.json") ? 1 : 3
        if fuzzed != 0, fuzzed != which {
            let valid = which == 1 ? kp : which == 2 ? forecast : ovation
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(valid.utf8), url: request.url)
        }
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: body, url: request.url)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSWPC(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 1 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 2, count: count - 2))
    let results = FuzzSupport.resolveAll(["aurora:now", "aurora:here", "aurora:63,-0.4"], with: source,
                                         http: SWPCFuzzHTTPClient(body: body, status: status, fuzzed: Int(bytes[1]) % 4))
    for (urn, result) in results {
        let presentation = SpaceWeatherSource.presentations.first { $0.kind == result.kind }
        let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        _ = presentation?.render(result.data, context: context)
        _ = presentation?.changeKey(result.data)
        _ = presentation?.card(result.data, context: context)
    }
    return 0
}
