import ConditionsText
import ConditionsJSON
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
    package init(_ record: ResultRecord, at: Date, catalog: SourceCatalog) {
        self.init(urn: record.urn, at: at, state: ResultState(record, catalog: catalog), result: record.json)
    }

    /// An observation as stored or spooled, its key already made.
    package init(urn: String, at: Date, status: String, key: [UInt8], result: JSONValue) {
        self.urn = urn
        self.at = at
        self.status = status
        self.key = key
        self.result = result
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
    /// Its row in the store: ids grow in the order changes are recorded, so an event stream
    /// sends it as the event's id and resumes after it (`Last-Event-ID`).
    package let id: Int64
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
    /// The result of the first observation, in full, as the store keeps it: JSON text this
    /// program wrote. Kept as text, so a query answering thousands of changes parses none
    /// (scenario 13 of docs/performance.md).
    package let resultText: String

    package init(id: Int64 = 0, urn: String, firstSeen: Date, lastSeen: Date, observations: Int, status: String, resultText: String) {
        self.id = id
        self.urn = urn
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.observations = observations
        self.status = status
        self.resultText = resultText
    }

    /// The result object, parsed.
    package var result: JSONValue { (try? JSONValue.parse(resultText)) ?? .null }

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

    /// `json` serialized on one line, the result spliced in as stored rather than parsed and
    /// written again.
    package var jsonText: String {
        var text = #"{"urn":"#
        text.reserveCapacity(resultText.utf8.count + urn.utf8.count + 120)
        text += JSONValue.string(urn).serialized()
        text += #","firstSeen":""# + Timestamp.string(from: firstSeen)
        text += #"","lastSeen":""# + Timestamp.string(from: lastSeen)
        text += #"","observations":"# + String(observations)
        text += #","status":"# + JSONValue.string(status).serialized()
        text += #","result":"# + resultText + "}"
        return text
    }
}

extension ResultState {
    /// A state of `status` and `detail` as a presentation's change key would give them.
    package init(status: String, detail: String = "") {
        self.status = status
        self.detail = detail
    }
}
