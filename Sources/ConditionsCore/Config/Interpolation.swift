import ConditionsJSON
import ConditionsKit
import ConditionsText

/// Substitutes `${NAME}` references in config strings with environment variables, so secrets
/// live in the environment rather than in `sources.json`. `$${` writes a literal `${`.
struct Interpolation {
    let environment: [String: String]

    struct Outcome {
        var value: JSONValue
        /// Variables referenced but not set, with the JSON path that referenced each.
        var missing: [(variable: String, path: String)] = []
        /// Substituted values that are secrets (by variable or key name), for redaction.
        var secrets: Set<String> = []
    }

    /// Whether `text` holds `${`, looked for as bytes (Foundation's substring search has a
    /// first use at every start: scenario 1, docs/performance.md, "Issue 45").
    static func containsReference(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "$"), byte == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    func apply(_ value: JSONValue, path: String) -> Outcome {
        var outcome = Outcome(value: value)
        outcome.value = substitute(value, path: path, key: "", into: &outcome)
        return outcome
    }

    private func substitute(_ value: JSONValue, path: String, key: String, into outcome: inout Outcome) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(expand(text, path: path, key: key, into: &outcome))
        case .array(let elements):
            return .array(elements.enumerated().map { substitute($1, path: "\(path)[\($0)]", key: key, into: &outcome) })
        case .object(let object):
            var result = JSONObject()
            for (name, member) in object { result[name] = substitute(member, path: "\(path).\(name)", key: name, into: &outcome) }
            return .object(result)
        default:
            return value
        }
    }

    /// `text` with its references substituted, read as UTF-8 bytes (`$`, `{` and `}` are
    /// ASCII): every string of the configuration comes through here at every start, and the
    /// Substring and Foundation searches this replaced cost ~0.1 ms of a local answer in
    /// generic lookups (scenario 1, docs/performance.md, "Issue 45").
    private func expand(_ text: String, path: String, key: String, into outcome: inout Outcome) -> String {
        let (dollar, open, close) = (UInt8(ascii: "$"), UInt8(ascii: "{"), UInt8(ascii: "}"))
        guard text.utf8.contains(dollar) else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var rest = 0, scan = 0
        while scan + 1 < bytes.count {
            guard bytes[scan] == dollar, bytes[scan + 1] == open else { scan += 1; continue }
            if scan > rest, bytes[scan - 1] == dollar {
                // `$${`: a literal `${`.
                result += bytes[rest..<scan - 1] + [dollar, open]
                rest = scan + 2
                scan = rest
                continue
            }
            guard let end = bytes[(scan + 2)...].firstIndex(of: close) else { break }
            result += bytes[rest..<scan]
            let name = String(decoding: bytes[(scan + 2)..<end], as: UTF8.self)
            if let value = environment[name] {
                result += value.utf8
                if !value.isEmpty, Redaction.isSensitive(name) || Redaction.isSensitive(key) { outcome.secrets.insert(value) }
            } else {
                outcome.missing.append((name, path))
                result += bytes[scan...end]
            }
            rest = end + 1
            scan = rest
        }
        guard rest > 0 else { return text }
        result += bytes[rest...]
        return String(decoding: result, as: UTF8.self)
    }
}
