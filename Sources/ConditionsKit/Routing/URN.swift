/// A parsed Uniform Resource Name such as `pass:snoqualmie` or `moon:2026-12-04T00:00Z`:
/// segments separated by `:`, the first being the scheme.
///
/// Syntax is checked before routing: a URN must be non-empty, at most 1 KiB, with no empty
/// segment, no whitespace (a space may be written `%20`), no control or bidirectional-override
/// characters (raw or percent-encoded), and valid percent escapes.
///
/// ```swift
/// let urn = try URN("pass:snoqualmie")
/// urn.scheme    // "pass"
/// urn.segments  // ["pass", "snoqualmie"]
/// ```
public struct URN: Sendable, Hashable, CustomStringConvertible {
    /// The longest URN accepted, in UTF-8 bytes.
    public static let maximumLength = 1024
    /// The segment delimiter.
    public static let delimiter: Character = ":"

    /// The text as given.
    public let rawValue: String
    /// The segments, still percent-encoded (matching compares these; arguments are decoded).
    public let segments: [String]

    /// The first segment.
    public var scheme: String { segments[0] }
    /// The text as given.
    public var description: String { rawValue }

    /// Parses and validates `text`, throwing an `invalidURN` error that says what is wrong and where.
    public init(_ text: String) throws(ConditionsError) {
        guard !text.isEmpty else { throw Self.syntax("the URN is empty") }
        guard text.utf8.count <= Self.maximumLength else {
            throw Self.syntax("the URN is \(text.utf8.count) bytes long; the limit is \(Self.maximumLength)")
        }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if let problem = Self.forbidden(scalar) {
                throw Self.syntax("\(Self.quote(text)) contains \(problem) at character \(offset + 1)")
            }
        }
        let segments = text.split(separator: Self.delimiter, omittingEmptySubsequences: false).map(String.init)
        if let empty = segments.firstIndex(of: "") {
            throw Self.syntax("\(Self.quote(text)) has an empty segment (segment \(empty + 1)); segments are separated by a single ':'")
        }
        for segment in segments {
            guard let decoded = URN.percentDecode(segment) else {
                throw Self.syntax("\(Self.quote(text)) has an invalid percent escape in \(Self.quote(segment)); use %XX with two hex digits for UTF-8 bytes")
            }
            // A space may be percent-encoded (the message for a raw one says so); control and
            // bidirectional characters may not hide behind escapes.
            for scalar in decoded.unicodeScalars where scalar != " " {
                if let problem = Self.forbidden(scalar) {
                    throw Self.syntax("\(Self.quote(text)) contains percent-encoded \(problem) in \(Self.quote(segment))")
                }
            }
        }
        self.rawValue = text
        self.segments = segments
    }

    /// Decodes `%XX` escapes as UTF-8; nil when an escape is malformed or the bytes are not UTF-8.
    public static func percentDecode(_ segment: String) -> String? {
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }  // not Foundation's costly contains("%")
        var bytes: [UInt8] = []
        var iterator = Array(segment.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Why `scalar` may not appear in a URN, or nil when it may.
    private static func forbidden(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00: return "a NUL byte"
        case 0x01...0x1F, 0x7F, 0x80...0x9F: return "a control character (U+\(hex(scalar)))"
        case 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x3000: return "whitespace (percent-encode a space as %20)"
        case 0x200B...0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF:
            return "an invisible or bidirectional-control character (U+\(hex(scalar)))"
        default: return nil
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Quotes user text for a one-line message, escaping anything unprintable and eliding the middle of huge input.
    static func quote(_ text: String) -> String {
        let shown = text.count > 80 ? text.prefix(60) + "…" + text.suffix(10) : Substring(text)
        var out = "\""
        for scalar in shown.unicodeScalars {
            if forbidden(scalar) != nil && scalar != " " { out += "\\u{\(hex(scalar))}" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }

    private static func syntax(_ message: String) -> ConditionsError {
        ConditionsError(.invalidURN, "invalid URN: " + message)
    }
}
