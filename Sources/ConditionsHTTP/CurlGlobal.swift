import CCurlShims
import ConditionsKit

/// libcurl's process-wide setup: opening the library (it is not linked, so that local answers
/// never load it and its TLS dependencies) and `curl_global_init`, done once before the first
/// handle is made.
enum CurlGlobal {
    /// Why libcurl is unusable, or nil once it is loaded and initialised. The lazily initialised
    /// global and the C side's `pthread_once` both make this happen exactly once per process.
    private static let failure: String? = {
        var message: UnsafePointer<CChar>?
        guard conditions_curl_load(&message) != 0 else { return nil }
        return message.map { String(cString: $0) } ?? "libcurl could not be loaded"
    }()

    /// Loads and initialises libcurl on the first call; throws `ConditionsError` of kind
    /// `internal` ("libcurl could not be loaded: …") if that failed.
    static func ensureLoaded() throws(ConditionsError) {
        if let failure { throw ConditionsError(.internal, failure) }
    }
}
