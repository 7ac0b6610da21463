// Fuzzes the Caltrans CWWP2 readers through resolve(): the chain-control file (checkpoints,
// levels, Pacific times, inService), the lane-closure file (full closures, 10-97/10-98/10-22,
// epochs, postmiles) and the camera file, then each result's presentation (text, change key,
// card). The first byte picks the HTTP status; the second which file gets the fuzz bytes (the
// others are small valid files in the real shape). The rest is the body.
import Caltrans
import ConditionsKit
import Foundation

private let source: CaltransSource = {
    guard let source = try? CaltransSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1", "districts": [10]}"#)) else {
        preconditionFailure("Caltrans options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 404, 500, 503]

// One checkpoint of Ebbetts Pass, one full closure over it, one camera: the real files' shapes.
private let valid: [String: String] = [
    "cc": #"""
    {"data": [{"cc": {"index": "10-ALP-4-3.2-E-1", "recordTimestamp": {"recordDate": "2026-09-29", "recordTime": "20:57:03"},
     "location": {"district": "10", "locationName": "MOUNT REBA ROAD - EBBETTS PASS", "latitude": "38.4912", "longitude": "-119.9707",
      "elevation": "7591", "direction": "East", "county": "Alpine", "route": "SR-4", "postmile": "3.20"},
     "inService": "true", "statusData": {"statusTimestamp": {"statusDate": "2026-05-05", "statusTime": "13:01:03"}, "status": "R-0",
      "statusDescription": "No chain controls are in effect at this time."}}}]}
    """#,
    "lcs": #"""
    {"data": [{"lcs": {"index": "C4JA-0002", "location": {"travelFlowDirection": "East / West",
      "begin": {"beginRoute": "SR-4", "beginCounty": "Alpine", "beginPostmile": "17.250", "beginFreeFormDescription": "400' east of Highland Lake Road"},
      "end": {"endCounty": "Alpine", "endPostmile": "19.000", "endFreeFormDescription": "near Ebetts pass"}},
     "closure": {"typeOfClosure": "Full", "lanesClosed": "All", "closureTimestamp": {"closureStartEpoch": "1790694060", "closureEndEpoch": "1790726340",
      "isClosureEndIndefinite": "false"}, "code1097": {"isCode1097": "true"}, "code1098": {"isCode1098": "false"}, "code1022": {"isCode1022": "false"}}}}]}
    """#,
    "cctv": #"""
    {"data": [{"cctv": {"index": "106", "inService": "true", "location": {"locationName": "Hwy 4 at Ebbetts", "latitude": "38.54", "longitude": "-119.81"},
     "imageData": {"static": {"currentImageURL": "https://cwwp2.dot.ca.gov/data/d10/cctv/image/x/x.jpg"}}}}]}
    """#,
]

/// The fuzz body for the chosen file, the valid ones for the others.
private struct CaltransFuzzHTTPClient: HTTPClient {
    let body: Data
    let status: Int
    let fuzzed: String

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let file = request.url.pathComponents.dropLast().last ?? ""
        if file != fuzzed, let text = valid[file] {
            return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(text.utf8), url: request.url)
        }
        return HTTPResponse(status: status, headers: ["content-type": "application/json"], body: body, url: request.url)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaltrans(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 1 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let fuzzed = ["cc", "lcs", "cctv"][Int(bytes[1]) % 3]
    let body = Data(UnsafeBufferPointer(start: bytes + 2, count: count - 2))
    let results = FuzzSupport.resolveAll(["pass:ebbetts", "pass:sonora", "pass:all"], with: source,
                                         http: CaltransFuzzHTTPClient(body: body, status: status, fuzzed: fuzzed))
    FuzzSupport.present(results, with: CaltransSource.presentations)
    return 0
}
