import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Logging

/// One configured source: an instance of a module under its id, with the HTTP limits that apply to it.
package struct SourceInstance: Sendable {
    /// The key under `sources`.
    package let id: String
    /// The module name.
    package let module: String
    let source: any ConditionsSource
    let http: HTTPLimits
    let logger: Logger
    /// Seconds a result stays fresh in the cache; 0 disables caching for this instance.
    package let ttl: Double
    /// The `ttl` written in `sources.json`, which wins over a result's own (`SourceResult.ttl`).
    var configuredTTL: Double? = nil
    /// The instance's configuration as written (id, module, options), the input of
    /// `fingerprint`.
    let configurationText: String

    /// Identifies the instance's configuration in cache keys, so editing its options
    /// never serves results cached under the old ones. Hashed when a result is cached or
    /// looked up, not when the instance is made: an answer from local sources only never
    /// runs SHA-256, whose code (BoringSSL) was ~0.9 MiB of the MCP server's start-up pages.
    var fingerprint: String { CacheKey.digest(configurationText) }

    /// What this instance keeps between URNs for the life of the process (its `SourceMemo`);
    /// the resolver puts the cache folder behind it (`memo(store:refresh:)`).
    let memory = FreshValues<JSONValue>()

    /// Seconds a result of this instance with its own `ttl` (nil: none) stays fresh.
    func freshness(of resultTTL: Double?) -> Double {
        configuredTTL ?? resultTTL ?? ttl
    }
}
