import ConditionsKit
import Crypto
import Foundation

/// What `watch` or `serve` saw of one URN at one instant: the unit the store records.
package struct HistoryObservation: Sendable {
    /// The URN as asked.
    package let urn: String
    /// When it was observed.
    package let at: Date
    /// The change key's status: `closed`, `waxing gibbous`, `error: timeout`.
    package let status: String
    /// A digest of the whole change key (status and detail): observations with equal keys are
    /// not news and collapse into one stored change.
    package let key: [UInt8]
    /// The result object as every output format prints it.
    package let result: JSONValue

    /// The observation of `record` at `at`, keyed as `watch` compares (`ResultState`).
    package init(_ record: ResultRecord, at: Date) {
        self.init(urn: record.urn, at: at, state: ResultState(record), result: record.json)
    }

    /// An observation of `state` (what the bench and tests make without resolving).
    package init(urn: String, at: Date, state: ResultState, result: JSONValue) {
        self.urn = urn
        self.at = at
        status = state.status
        // 16 bytes of SHA-256: the detail can be the whole data (GenericPresentation), which the
        // row keeps anyway in `result`; the key only has to tell states apart.
        var hash = SHA256()
        hash.update(data: Data(state.status.utf8))
        hash.update(data: [0])
        hash.update(data: Data(state.detail.utf8))
        key = Array(hash.finalize().prefix(16))
        self.result = result
    }
}

/// One stored change: a state of a URN from the first observation that showed it to the last,
/// however many observations in between saw the same.
package struct HistoryChange: Sendable, Equatable {
    /// The URN as asked.
    package let urn: String
    /// The observation that first showed this state.
    package let firstSeen: Date
    /// The latest observation still showing it.
    package let lastSeen: Date
    /// How many observations showed it.
    package let observations: Int
    /// The change key's status.
    package let status: String
    /// The result of the first observation, in full.
    package let result: JSONValue

    /// `{"urn", "firstSeen", "lastSeen", "observations", "status", "result"}`.
    package var json: JSONValue {
        [
            "urn": .string(urn),
            "firstSeen": JSONValue(firstSeen),
            "lastSeen": JSONValue(lastSeen),
            "observations": .int(observations),
            "status": .string(status),
            "result": result,
        ]
    }
}

extension ResultState {
    /// A state of `status` and `detail` as a presentation's change key would give them.
    package init(status: String, detail: String = "") {
        self.status = status
        self.detail = detail
    }
}
