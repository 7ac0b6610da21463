import CCurl
import ConditionsKit
import LazyLibcurl

/// libcurl's process-wide setup: opening the library (LazyLibcurl, on the first client, so
/// that local answers never load it and its TLS dependencies) and `curl_global_init`, done once
/// before the first handle is made.
enum CurlGlobal {
    /// Why libcurl is unusable, or nil once it is open and initialised. A lazily initialised
    /// global runs exactly once per process, and `curl_global_init` is not thread-safe on
    /// every build.
    private static let failure: String? = {
        if let reason = conditions_libcurl_open() { return String(cString: reason) }
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard code != CURLE_OK else { return nil }
        return "libcurl could not initialise: " + String(cString: curl_easy_strerror(code))
    }()

    /// Opens and initialises libcurl on the first call; throws `ConditionsError` of kind
    /// `internal` ("libcurl.so.4 could not be loaded: …") if that failed.
    static func ensureLoaded() throws(ConditionsError) {
        if let failure { throw ConditionsError(.internal, failure) }
    }
}
