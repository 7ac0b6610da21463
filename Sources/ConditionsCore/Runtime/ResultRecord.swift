import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation

/// The outcome for one requested URN: the unit every output format prints.
package struct ResultRecord: Sendable {
    /// A result or a failure.
    package enum Outcome: Sendable {
        /// `staleAge`: seconds since the fetch when the upstream failed and a cached result stands in.
        case success(route: String, source: String, fetchedAt: Date, data: JSONValue, staleAge: Double?)
        case failure(kind: ErrorKind, message: String, suggestions: [String])
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
    /// The URNs a combined result was made from, as its source named them.
    package var inputs: [SourceResult.Input] = []
    /// The later chains' answers when a joined route asks every chain (`pass:all`: Washington's
    /// passes, then California's), in order; this record is the first chain's. The host
    /// merges no data: lists print each answer as a result of its own (`answers`), and a
    /// single object carries them under `joined` (`json`). Empty for every other URN.
    package var joined: [ResultRecord] = []

    /// This record's answers in order: itself alone, or, for a URN several chains answered,
    /// the first chain's and each joined one's, each a record of its own.
    package var answers: [ResultRecord] {
        guard !joined.isEmpty else { return [self] }
        var first = self
        first.joined = []
        return [first] + joined
    }

    /// Whether the URN failed (exit status 1): it, or any chain's answer joined to it.
    package var failed: Bool {
        if case .failure = outcome { return true }
        return joined.contains(where: \.failed)
    }

    /// The result object of the output contract:
    /// `{"urn", "route", "source", "fetchedAt", "data"}` or `{"urn", "error": {"kind", "message"}}`,
    /// and `"joined": [result objects]` for a URN several chains answered, where one object
    /// stands for the URN (`/v1/urn/{urn}`, an event, a stored change).
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
            if !inputs.isEmpty { object["inputs"] = .array(inputs.map(Self.json)) }
            object["data"] = data
        case .failure(let kind, let message, let suggestions):
            var error: JSONObject = ["kind": .string(kind.rawValue), "message": .string(message)]
            if !suggestions.isEmpty { error["suggestions"] = .array(suggestions.map(JSONValue.string)) }
            object["error"] = .object(error)
        }
        if !joined.isEmpty { object["joined"] = .array(joined.map(\.json)) }
        return .object(object)
    }
}

extension ResultRecord {
    /// An input as the output contract names it: `{"urn", "source", "fetchedAt", "stale", "age", "failed"}`,
    /// members without a value left out.
    static func json(_ input: SourceResult.Input) -> JSONValue {
        var object: JSONObject = ["urn": .string(input.urn)]
        if let source = input.source { object["source"] = .string(source) }
        if let fetchedAt = input.fetchedAt { object["fetchedAt"] = JSONValue(fetchedAt) }
        if let staleAge = input.staleAge {
            object["stale"] = true
            object["age"] = .int(Int(staleAge.rounded()))
        }
        if input.failed { object["failed"] = true }
        return .object(object)
    }

    /// An input from its stored form (`json(_:)`); nil for anything else.
    static func input(_ value: JSONValue) -> SourceResult.Input? {
        guard let urn = value["urn"]?.stringValue else { return nil }
        return SourceResult.Input(urn: urn, source: value["source"]?.stringValue,
                                  fetchedAt: value["fetchedAt"]?.dateValue,
                                  staleAge: value["age"]?.doubleValue.flatMap { value["stale"]?.boolValue == true ? $0 : nil },
                                  failed: value["failed"]?.boolValue == true)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
