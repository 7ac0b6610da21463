import ConditionsKit
import Logging

/// One configured source: an instance of a module under its id, with the HTTP limits that apply to it.
struct SourceInstance: Sendable {
    let id: String
    let module: String
    let source: any ConditionsSource
    let http: HTTPLimits
    let logger: Logger
}
