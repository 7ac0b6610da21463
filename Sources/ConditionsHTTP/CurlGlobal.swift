import CCurl
import CCurlShims

/// libcurl's process-wide setup, done once before the first handle is made.
///
/// A lazily initialised global runs exactly once even when several clients start at the same
/// time, which is what `curl_global_init` needs.
enum CurlGlobal {
    private static let initialised: Bool = conditions_curl_global_init() == CURLE_OK

    /// Whether libcurl initialised; the first call performs the initialisation.
    static func ensureInitialised() -> Bool { initialised }
}
