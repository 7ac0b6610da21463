import CCurl
import ConditionsKit

/// libcurl's process-wide setup, `curl_global_init`, done once before the first handle is made.
enum CurlGlobal {
    /// Why libcurl is unusable, or nil once it is initialised. A lazily initialised global runs
    /// exactly once per process, and `curl_global_init` is not thread-safe on every build.
    private static let failure: String? = {
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard code != CURLE_OK else { return nil }
        return "libcurl could not initialise: " + String(cString: curl_easy_strerror(code))
    }()

    /// Initialises libcurl on the first call; throws `ConditionsError` of kind `internal`
    /// ("libcurl could not initialise: …") if that failed.
    static func ensureLoaded() throws(ConditionsError) {
        if let failure { throw ConditionsError(.internal, failure) }
    }
}
