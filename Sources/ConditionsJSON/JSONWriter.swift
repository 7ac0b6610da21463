import Foundation

extension JSONValue {
    /// The JSON text of this value: compact on one line, or indented by two spaces when `pretty`.
    /// Non-finite doubles (which JSON cannot hold) are written as `null`.
    public func serialized(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .int(let i): output += String(i)
        case .double(let d): output += d.isFinite ? Self.format(d) : "null"
        case .string(let s): Self.writeString(s, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let object):
            guard object.count > 0 else { output += "{}"; return }
            output += "{"
            for (i, entry) in object.members.enumerated() {
                if i > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                Self.writeString(entry.key, to: &output)
                output += pretty ? ": " : ":"
                entry.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    /// Integral doubles print without a fraction ("31" rather than "31.0") so values read as
    /// people expect; everything else uses Swift's shortest round-tripping form.
    package static func format(_ d: Double) -> String {
        if d.rounded() == d, abs(d) < 1e15 { return String(Int(d)) }
        return "\(d)"
    }

    static func writeString(_ s: String, to output: inout String) {
        output += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{2028}", "\u{2029}": output += String(format: "\\u%04X", scalar.value)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    output += String(format: "\\u%04X", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}
