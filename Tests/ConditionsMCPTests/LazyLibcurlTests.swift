import LazyLibcurlProbe
import Testing

/// conditions-mcp's own definitions of the libcurl functions FoundationNetworking calls: each
/// reaches the real libcurl, opened on first use, with its arguments intact (the variadic
/// setters read one argument of the type the option number names). The calls are made from C
/// (`LazyLibcurlProbe`), as FoundationNetworking makes them.
@Suite struct LazyLibcurlTests {
    @Test func everyFunctionForwardsToLibcurl() {
        let failed = lazy_libcurl_probe().map { String(cString: $0) }
        #expect(failed == nil, "check failed: \(failed ?? "")")
    }
}
