import ConditionsKit
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
    /// Identifies the instance's configuration in cache keys, so editing its options
    /// never serves results cached under the old ones.
    let fingerprint: String
}
