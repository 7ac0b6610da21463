// Fuzzes WSDOT's SnowFallData decoder (and the JSON parser under it), the snowfall summary and
// the snowfall presentation through resolve(): the input is the service's body.
import ConditionsKit
import Foundation
import WSDOT

private let source: WSDOTPassSource = {
    guard let source = try? WSDOTPassSource(configuration: FuzzSupport.configuration(#"{"snowfallURL": "http://127.0.0.1:1/snow/SnowFallData"}"#)) else {
        preconditionFailure("WSDOT options")
    }
    return source
}()

private let presentation: any ResultPresentation = {
    guard let snowfall = WSDOTPassSource.presentations.first(where: { $0.kind == .snowfall }) else { preconditionFailure("no snowfall presentation") }
    return snowfall
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWSDOTSnowfall(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let body = Data(UnsafeBufferPointer(start: bytes, count: count))
    // The season under way (2026-11-21: 2026–27) and a past one, whose months fall in other years.
    FuzzSupport.resolve(["snowfall:snoqualmie", "snowfall:stevens:2022"], with: source,
                        http: FuzzHTTPClient(body: body, headers: ["content-type": "application/json"])) { data in
        let context = PresentationContext(urn: "snowfall:snoqualmie", style: .plain, placeName: nil) { _, _ in "" }
        _ = presentation.render(data, context: context)
        _ = presentation.changeKey(data)
        _ = presentation.card(data, context: context)
    }
    return 0
}
