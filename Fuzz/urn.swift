// Fuzzes URN syntax checking, percent-decoding and Compass routing (ConditionsKit).
import ConditionsKit
import Foundation

private let router: Router<String> = {
    var router = Router<String>()
    for pattern: RoutePattern in ["pass:{name}", "pass:all", "moon:now", "moon:{date}", "phases:{count}", "{scheme}:{name}", "a:b:{c}:d"] {
        try? router.register(pattern, pattern.text, examples: ["pass:snoqualmie", "moon:now", "phases:5"])
    }
    return router
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURN(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    if let urn = try? URN(text) {
        for segment in urn.segments { _ = URN.percentDecode(segment) }
        do {
            let (location, _) = try router.match(urn)
            for (name, _) in location.arguments { _ = try? location.argument(name) }
        } catch {
            _ = error.description
        }
    } else {
        _ = URN.percentDecode(text)
    }
    // The input as a route pattern: registering and matching must never trap either.
    var patterns = Router<Int>()
    if (try? patterns.register(RoutePattern(text), 1)) != nil, let urn = try? URN("pass:snoqualmie") {
        _ = try? patterns.match(urn)
    }
    return 0
}
