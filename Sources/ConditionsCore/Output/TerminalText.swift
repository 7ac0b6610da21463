import ConditionsJSON
import ConditionsKit

/// Makes text from URNs and upstreams harmless on a terminal before text output or a log line
/// prints it: control characters (C0 other than tab and line feed, DEL, C1) become visible
/// `\u{1B}` escapes, so an upstream or a URN cannot move the cursor, clear the screen, retitle
/// the window or hide part of a line with escape sequences or carriage returns. Lines that
/// must stay one line (errors, logs) escape tabs and line feeds too.
package enum TerminalText {
    /// `text` without terminal control sequences; `oneLine` also replaces line breaks.
    package static func sanitized(_ text: String, oneLine: Bool = false) -> String {
        let escaped = { (scalar: Unicode.Scalar) in isControl(scalar) || (oneLine && (scalar == "\t" || scalar == "\n")) }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escaped(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `value` with every string (keys included) sanitized.
    package static func sanitized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(sanitized(text))
        case .array(let elements): return .array(elements.map(sanitized))
        case .object(let object): return .object(JSONObject(object.map { (sanitized($0.key), sanitized($0.value)) }))
        default: return value
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }
}
