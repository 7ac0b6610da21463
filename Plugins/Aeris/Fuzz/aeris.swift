// Fuzzes the Aeris envelope, sun/moon and moon-phase decoders through resolve(): the input is
// the response body for every endpoint; its first byte picks the HTTP status.
import Aeris
import ConditionsKit
import Foundation

private let source: AerisSource = {
    guard let source = try? AerisSource(configuration: FuzzSupport.configuration(#"{"clientId": "id", "clientSecret": "secret", "baseURL": "http://127.0.0.1:1/"}"#)) else {
        preconditionFailure("Aeris options")
    }
    return source
}()

private let statuses = [200, 200, 200, 200, 200, 200, 401, 429, 500, 204]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAeris(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let status = statuses[Int(bytes[0]) % statuses.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
    FuzzSupport.resolve(["moon:now", "moon:2026-12-04", "phases:5", "phases:100"], with: source,
                        http: FuzzHTTPClient(body: body, headers: ["content-type": "application/json", "retry-after": "5"], status: status))
    return 0
}
