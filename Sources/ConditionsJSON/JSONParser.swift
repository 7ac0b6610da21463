import Foundation

/// Why a JSON text could not be read, and where (1-based line and column).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong ("expected ',' or '}'").
    public let reason: String
    /// The 1-based line of the offending byte.
    public let line: Int
    /// The 1-based column (in bytes) of the offending byte.
    public let column: Int

    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// What the parser does when an object names the same member twice. RFC 8259 leaves it to
/// the reader ("names within an object SHOULD be unique").
public enum JSONDuplicateKeys: Sendable, Equatable {
    /// The member keeps its first position and takes the last value, as most readers do; right
    /// for upstream data, which a client cannot correct.
    case keepLast
    /// The document is rejected at the repeated name, with its line and column; right for
    /// files people write, where the repetition is a mistake (`sources.json` naming one
    /// source twice would otherwise silently lose the first).
    case reject
}

extension JSONValue {
    /// The deepest nesting accepted; deeper documents are rejected instead of exhausting the stack.
    public static let maximumDepth = 256

    /// Parses a complete JSON text (RFC 8259). Errors carry the line and column.
    ///
    /// ```swift
    /// let config = try JSONValue.parse(data, duplicateKeys: .reject)  // {"a": 1, "a": 2} fails at 1:10
    /// ```
    public static func parse(_ data: Data, duplicateKeys: JSONDuplicateKeys = .keepLast) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), duplicateKeys: duplicateKeys)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    /// Parses a complete JSON text held in a string.
    public static func parse(_ text: String, duplicateKeys: JSONDuplicateKeys = .keepLast) throws(JSONParseError) -> JSONValue {
        try parse(Data(text.utf8), duplicateKeys: duplicateKeys)
    }
}

/// A byte-level recursive-descent parser; hand-written so errors name line and column,
/// object key order survives, and hostile nesting is bounded.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let duplicateKeys: JSONDuplicateKeys
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, duplicateKeys: JSONDuplicateKeys = .keepLast) {
        self.bytes = bytes
        self.duplicateKeys = duplicateKeys
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated at the start.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected \(describeCurrent()) after the end of the document") }
        return value
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        let end = min(offset ?? index, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") { line += 1; lineStart = i + 1 }
        return JSONParseError(reason: reason, line: line, column: end - lineStart + 1)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal, expected '\(word)'", at: start) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal, expected '\(word)'", at: start)
        }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumDepth { throw error("nesting deeper than \(JSONValue.maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var object = JSONObject()
        // Where each name was first seen, kept only when repeats are errors, so the message can
        // point at both places.
        var seen: [String: Int] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let keyStart = index
            let key = try parseString()
            if duplicateKeys == .reject {
                if let first = seen[key] {
                    let firstError = error("", at: first)
                    throw error("duplicate member name \"\(key)\" (first at line \(firstError.line), column \(firstError.column))", at: keyStart)
                }
                seen[key] = keyStart
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(array) }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        guard isDigit(index) else { throw error("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("invalid number: leading zero", at: start) }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else { throw error("invalid number: no digits after '.'", at: start) }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw error("invalid number: no digits in exponent", at: start) }
            while isDigit(index) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else { throw error("number out of range", at: start) }
        return .double(double)
    }

    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ parser: JSONParser, into scalars: inout String.UnicodeScalarView) throws(JSONParseError) {
            guard runStart < parser.index else { return }
            let run = UnsafeBufferPointer(rebasing: parser.bytes[runStart..<parser.index])
            guard let text = String(validating: run, as: UTF8.self) else {
                throw parser.error("invalid UTF-8 in string", at: runStart)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flushRun(self, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in string; escape it") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            try flushRun(self, into: &scalars)
            index += 1
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                scalars.append(scalar)
            default:
                throw error("invalid escape sequence", at: index - 2)
            }
            runStart = index
        }
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
