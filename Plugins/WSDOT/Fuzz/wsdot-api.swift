// Fuzzes WSDOT's Traveler Information API decoder (and the JSON parser under it) through
// resolve(): the input is the feed body.
import ConditionsKit
import Foundation
import WSDOT

private let source: WSDOTPassSource = {
    guard let source = try? WSDOTPassSource(configuration: FuzzSupport.configuration(#"{"mode": "api", "baseURL": "http://127.0.0.1:1/api", "accessCode": "fuzz-code"}"#)) else {
        preconditionFailure("WSDOT options")
    }
    return source
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWSDOTAPI(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let body = Data(UnsafeBufferPointer(start: bytes, count: count))
    FuzzSupport.resolve(["pass:all", "pass:snoqualmie", "pass:blewett"], with: source,
                        http: FuzzHTTPClient(body: body, headers: ["content-type": "application/json"]))
    return 0
}
