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

    private func expand(_ text: String, path: String, key: String, into outcome: inout Outcome) -> String {
        // A byte first: `contains("${")` is Foundation's substring search, and every string
        // of the configuration comes through here at every start (scenario 1, issue 45).
        guard text.utf8.contains(UInt8(ascii: "$")), text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                result += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            result += rest[..<start.lowerBound]
            let name = String(rest[start.upperBound..<end])
            if let value = environment[name] {
                result += value
                if !value.isEmpty, Redaction.isSensitive(name) || Redaction.isSensitive(key) { outcome.secrets.insert(value) }
            } else {
                outcome.missing.append((name, path))
                result += "${\(name)}"
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
