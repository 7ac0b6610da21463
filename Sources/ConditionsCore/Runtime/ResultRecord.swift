import ConditionsKit
import Foundation

/// The outcome for one requested URN: the unit every output format prints.
package struct ResultRecord: Sendable {
    /// A result or a failure.
    package enum Outcome: Sendable {
        /// `staleAge`: seconds since the fetch when the upstream failed and a cached result stands in.
        case success(route: String, source: String, fetchedAt: Date, data: JSONValue, staleAge: Double?)
        case failure(kind: String, message: String, suggestions: [String])
    }

    /// The URN as asked.
    package let urn: String
    /// What resolving it gave.
    package let outcome: Outcome
    /// What a successful result's data is, naming its presentation; not part of the output
    /// contract (see `json`).
    package var kind: ResultKind? = nil
    /// Seconds a successful result stays fresh from its `fetchedAt` (its instance's TTL, or the
    /// result's own); nil: its instance's TTL. Not part of the output contract.
    package var ttl: Double? = nil

    /// Whether the URN failed (exit status 1).
    package var failed: Bool { if case .failure = outcome { true } else { false } }

    /// The result object of the output contract:
    /// `{"urn", "route", "source", "fetchedAt", "data"}` or `{"urn", "error": {"kind", "message"}}`.
    package var json: JSONValue {
        var object = JSONObject()
        object["urn"] = .string(urn)
        switch outcome {
        case .success(let route, let source, let fetchedAt, let data, let staleAge):
            object["route"] = .string(route)
            object["source"] = .string(source)
            object["fetchedAt"] = JSONValue(fetchedAt)
            if let staleAge {
                object["stale"] = true
                object["age"] = .int(Int(staleAge.rounded()))
            }
            object["data"] = data
        case .failure(let kind, let message, let suggestions):
            var error: JSONObject = ["kind": .string(kind), "message": .string(message)]
            if !suggestions.isEmpty { error["suggestions"] = .array(suggestions.map(JSONValue.string)) }
            object["error"] = .object(error)
        }
        return .object(object)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
