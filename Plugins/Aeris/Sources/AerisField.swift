import ConditionsJSON
import ConditionsKit

/// A value inside an Aeris response together with its JSON path, so every decoding error
/// names the exact field (`response[0].moon.phase.illum`) instead of defaulting silently.
struct AerisField {
    /// The value; nil when the member is absent.
    let value: JSONValue?
    /// `response[0].moon.rise`; empty for the document itself.
    let path: String

    init(_ value: JSONValue?, path: String = "") {
        self.value = value
        self.path = path
    }

    /// Whether the member is absent or `null`.
    var isAbsent: Bool { value == nil || value == .null }

    /// The member `key`, which may be absent; throws when this value is not an object.
    func member(_ key: String) throws(ConditionsError) -> AerisField {
        guard let object = value?.objectValue else { throw mismatch("an object") }
        return AerisField(object[key], path: path.isEmpty ? key : "\(path).\(key)")
    }

    /// The elements, each with its indexed path.
    func array() throws(ConditionsError) -> [AerisField] {
        guard let array = value?.arrayValue else { throw mismatch("an array") }
        return array.enumerated().map { AerisField($1, path: "\(path)[\($0)]") }
    }

    func string() throws(ConditionsError) -> String {
        guard let string = value?.stringValue else { throw mismatch("a string") }
        return string
    }

    func bool() throws(ConditionsError) -> Bool {
        guard let bool = value?.boolValue else { throw mismatch("true or false") }
        return bool
    }

    /// A finite number within `range`.
    func number(in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws(ConditionsError) -> Double {
        guard let number = value?.doubleValue, number.isFinite else { throw mismatch("a number") }
        guard range.contains(number) else {
            let bounds = "\(JSONValue.double(range.lowerBound))…\(JSONValue.double(range.upperBound))"
            throw ConditionsError.badResponse("Aeris response: \(label): \(JSONValue.double(number)) is outside \(bounds)")
        }
        return number
    }

    /// A number, or nil when absent or `null` (a moon that does not rise that day).
    func optionalNumber() throws(ConditionsError) -> Double? {
        isAbsent ? nil : try number()
    }

    /// The badResponse error for a value that is not `expected`.
    func mismatch(_ expected: String) -> ConditionsError {
        let found = value.map { "found \($0.typeName)" } ?? "but it is missing"
        return ConditionsError.badResponse("Aeris response: \(label): expected \(expected), \(found)")
    }

    private var label: String { path.isEmpty ? "the document" : path }
}
