import CCurlShims
import ConditionsHTTP
import Testing

/// libcurl is opened at run time (CCurlShims), not linked: what a missing or unsuitable
/// library reports, and that the installed one provides everything the shims call.
@Suite("Loading libcurl")
struct LoadingTests {
    /// `conditions_curl_probe(name)`: its result and message.
    private func probe(_ name: String) -> (status: Int32, message: String) {
        var buffer = [CChar](repeating: 0, count: 512)
        let status = conditions_curl_probe(name, &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (status, message)
    }

    @Test func aMissingLibraryIsReportedByName() {
        let result = probe("libcurl-missing.so.9")
        #expect(result.status == -1)
        #expect(result.message.hasPrefix("libcurl could not be loaded: "))
        #expect(result.message.contains("libcurl-missing.so.9"))
    }

    @Test func aLibraryWithoutCurlsFunctionsIsRejected() {
        let result = probe("libm.so.6")
        #expect(result.status == -1)
        #expect(result.message == "libcurl could not be loaded: libm.so.6 has no curl_global_init (libcurl 7.68 or later is needed)")
    }

    @Test func theInstalledLibcurlHasEveryFunction() {
        let result = probe(CONDITIONS_LIBCURL_NAME)
        #expect(result.status == 0)
        #expect(result.message.isEmpty)
    }

    @Test func makingAClientLoadsLibcurlOnce() throws {
        let client = try makeClient()
        defer { client.shutdown() }
        var message: UnsafePointer<CChar>?
        #expect(conditions_curl_load(&message) == 0)
        #expect(message == nil)
        #expect(conditions_curl_easy_strerror(CURLE_OK).map { String(cString: $0) } == "No error")
    }
}
