// Fuzzes the decoder of WSDOT's key-less mobile feed (and the JSON parser under it) through
// resolve(): the input is the feed body. Covers the wrapper, DateUpdated's local time parts,
// and the tolerant reading of Cameras, Forecast and Alerts.
import ConditionsKit
import Foundation
import WSDOT

private let source: WSDOTPassSource = {
    guard let source = try? WSDOTPassSource(configuration: FuzzSupport.configuration(#"{"mode": "feed", "baseURL": "http://127.0.0.1:1/mobile"}"#)) else {
        preconditionFailure("WSDOT options")
    }
    return source
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWSDOTFeed(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let body = Data(UnsafeBufferPointer(start: bytes, count: count))
    FuzzSupport.resolve(["pass:all", "pass:snoqualmie", "pass:tiger-mountain"], with: source,
                        http: FuzzHTTPClient(body: body, headers: ["content-type": "application/json"]))
    return 0
}
