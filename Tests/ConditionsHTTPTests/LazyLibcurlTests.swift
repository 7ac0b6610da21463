import LazyLibcurl
import LazyLibcurlProbe
import Testing

/// LazyLibcurl's definitions of libcurl's functions: libcurl.so.4 is opened on the first call,
/// and each function reaches the real libcurl with its arguments intact (the variadic setters
/// read one argument of the type the option number names). The calls are made from C
/// (`LazyLibcurlProbe`), as FoundationNetworking and ConditionsHTTP's wrappers make them.
@Suite struct LazyLibcurlTests {
    @Test func libcurlOpensAndEveryFunctionForwardsToIt() {
        #expect(conditions_libcurl_open() == nil, "\(conditions_libcurl_open().map { String(cString: $0) } ?? "")")
        let failed = lazy_libcurl_probe().map { String(cString: $0) }
        #expect(failed == nil, "check failed: \(failed ?? "")")
    }
}
