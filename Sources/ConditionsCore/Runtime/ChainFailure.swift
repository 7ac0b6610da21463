import ConditionsKit

/// Every instance of a route chain failed upstream and none had a cached result: one line
/// naming each instance's failure in the order tried (`wsdot-feed: HTTP 500 from …;
/// wsdot-page: timed out …`). Its kind is the last failure's, so `serve` answers 502 or 504
/// as for a single source.
struct ChainFailure: ReportableError {
    /// Each instance tried and why it failed, in order.
    let failures: [(instance: String, error: any Error)]

    var kind: ErrorKind {
        failures.last.map { ConditionsError.report($0.error).kind } ?? .upstream
    }

    var message: String {
        failures.map { "\($0.instance): \(ConditionsError.report($0.error).message)" }.joined(separator: "; ")
    }
}
