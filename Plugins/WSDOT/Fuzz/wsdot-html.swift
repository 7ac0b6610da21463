// Fuzzes the HTML toolkit (libxml2) and WSDOT's pass-page extraction through resolve(): the
// input is the page body; its first byte picks the Content-Type charset label.
import ConditionsHTML
import ConditionsKit
import Foundation
import WSDOT

private let source: WSDOTPassSource = {
    guard let source = try? WSDOTPassSource(configuration: FuzzSupport.configuration(#"{"baseURL": "http://127.0.0.1:1/passes"}"#)) else {
        preconditionFailure("WSDOT options")
    }
    return source
}()

private let contentTypes: [String?] = [nil, "text/html; charset=utf-8", "text/html; charset=windows-1252", "text/html; charset=iso-8859-1",
                                       "text/html; charset=utf-16", "text/html; charset=shift_jis", "text/html; charset=bogus", "application/json"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWSDOTHTML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let contentType = contentTypes[Int(bytes[0]) % contentTypes.count]
    let body = Data(UnsafeBufferPointer(start: bytes + 1, count: count - 1))
    // The toolkit on its own: parse, walk every element, read text and attributes.
    if let document = try? HTMLDocument(data: body, url: "http://127.0.0.1/", encoding: contentType) {
        for node in (try? document.nodes("//*"))?.prefix(2000) ?? [] {
            _ = node.name
            _ = node.text
            _ = node.attribute("id")
        }
    }
    FuzzSupport.resolve(["pass:snoqualmie"], with: source, http: FuzzHTTPClient(body: body, headers: contentType.map { ["content-type": $0] } ?? [:]))
    return 0
}
