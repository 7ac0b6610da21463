import CLibXML2
import Foundation

/// Decides which character encoding a page is decoded with, so libxml2 never has to guess.
///
/// Precedence follows the HTML standard: a byte order mark, then the transport encoding
/// (an HTTP `Content-Type` charset handed in by the caller), then a `<meta charset>` or
/// `<meta http-equiv="Content-Type">` declaration near the top of the page, then UTF-8.
/// Labels libxml2 cannot decode are skipped, as browsers skip unknown labels.
enum CharacterEncoding {
    /// How many leading bytes are searched for a `<meta>` charset declaration. The standard
    /// says 1024; real pages often put long scripts first, so look a little further.
    static let prescanLimit = 4096

    /// The page bytes to hand to libxml2 (without a byte order mark, and for UTF-8 with every
    /// invalid sequence replaced by U+FFFD) and the encoding name to decode them with.
    static func prepare(_ data: Data, explicit: String?) -> (bytes: [UInt8], encoding: String) {
        let bytes = [UInt8](data)
        if let (bomLength, encoding) = byteOrderMark(bytes) {
            return finish(Array(bytes.dropFirst(bomLength)), encoding: encoding)
        }
        if let label = explicit.flatMap(label(fromDeclaration:)), let encoding = supported(label) {
            return finish(bytes, encoding: encoding)
        }
        if let label = metaCharset(in: bytes.prefix(prescanLimit)), var encoding = supported(label) {
            // A declaration readable as ASCII cannot be UTF-16: the standard says to use UTF-8.
            if encoding.hasPrefix("UTF-16") { encoding = "UTF-8" }
            return finish(bytes, encoding: encoding)
        }
        return finish(bytes, encoding: "UTF-8")
    }

    /// libxml2 (2.9) silently switches to Latin-1 on the first invalid UTF-8 byte; repairing the
    /// bytes first keeps the rest of the page decoded as the UTF-8 it claims to be.
    private static func finish(_ bytes: [UInt8], encoding: String) -> (bytes: [UInt8], encoding: String) {
        guard encoding == "UTF-8", String(validating: bytes, as: UTF8.self) == nil else {
            return (bytes, encoding)
        }
        return (Array(String(decoding: bytes, as: UTF8.self).utf8), encoding)
    }

    private static func byteOrderMark(_ bytes: [UInt8]) -> (length: Int, encoding: String)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (3, "UTF-8") }
        if bytes.starts(with: [0xFF, 0xFE]) { return (2, "UTF-16LE") }
        if bytes.starts(with: [0xFE, 0xFF]) { return (2, "UTF-16BE") }
        return nil
    }

    /// The charset label in a `Content-Type` value (`text/html; charset="windows-1252"`),
    /// or the value itself when it is already a bare label (`windows-1252`).
    static func label(fromDeclaration declaration: String) -> String? {
        let lowered = Array(declaration.lowercased().utf8)
        if let value = charsetParameter(in: lowered[...]) { return value }
        // A media type without a charset parameter declares no encoding.
        if lowered.contains(UInt8(ascii: "/")) || lowered.contains(UInt8(ascii: ";")) { return nil }
        let bare = declaration.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\"'")))
        return bare.isEmpty ? nil : bare.lowercased()
    }

    /// The libxml2 encoding name for a label, or nil when libxml2 cannot decode it.
    static func supported(_ label: String) -> String? {
        let name = whatwgAliases[label] ?? label
        _ = libxml2Initialized
        // Asking libxml2 itself is the only reliable test: it accepts its built-in names plus
        // whatever iconv knows. The handler may be freshly allocated (iconv), so close it.
        guard let handler = xmlFindCharEncodingHandler(name) else { return nil }
        xmlCharEncCloseFunc(handler)
        return name
    }

    /// Labels the HTML standard decodes differently from their literal meaning: pages that
    /// say ISO-8859-1 or ASCII are really windows-1252 (smart quotes in 0x80–0x9F).
    private static let whatwgAliases: [String: String] = [
        "utf-8": "UTF-8", "utf8": "UTF-8", "unicode-1-1-utf-8": "UTF-8",
        "iso-8859-1": "WINDOWS-1252", "iso8859-1": "WINDOWS-1252", "iso_8859-1": "WINDOWS-1252",
        "latin1": "WINDOWS-1252", "l1": "WINDOWS-1252", "us-ascii": "WINDOWS-1252",
        "ascii": "WINDOWS-1252", "cp1252": "WINDOWS-1252", "x-cp1252": "WINDOWS-1252",
        "windows-1252": "WINDOWS-1252", "cp819": "WINDOWS-1252", "ibm819": "WINDOWS-1252",
    ]

    /// The charset declared by the first `<meta>` tag that declares one, skipping comments.
    static func metaCharset(in prefix: ArraySlice<UInt8>) -> String? {
        let lowered = prefix.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var index = 0
        while index < lowered.count {
            if lowered[index...].starts(with: commentOpen) {
                guard let end = find(commentClose, in: lowered, from: index + 4) else { return nil }
                index = end + 3
            } else if lowered[index...].starts(with: metaOpen),
                      index + 5 < lowered.count, isTagNameEnd(lowered[index + 5]) {
                let end = lowered[index...].firstIndex(of: UInt8(ascii: ">")) ?? lowered.count
                if let value = charsetParameter(in: lowered[index..<end]) { return value }
                index = end
            } else {
                index += 1
            }
        }
        return nil
    }

    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)
    private static let metaOpen = Array("<meta".utf8)
    private static let charsetKey = Array("charset".utf8)

    /// The value after the first `charset` followed by `=` (quotes and whitespace allowed).
    private static func charsetParameter(in text: ArraySlice<UInt8>) -> String? {
        let key = charsetKey
        var start = text.startIndex
        while let found = find(key, in: text, from: start) {
            var index = found + key.count
            while index < text.endIndex, isSpace(text[index]) { index += 1 }
            guard index < text.endIndex, text[index] == UInt8(ascii: "=") else { start = found + 1; continue }
            index += 1
            while index < text.endIndex, isSpace(text[index]) || isQuote(text[index]) { index += 1 }
            var end = index
            while end < text.endIndex, !isSpace(text[end]), !isQuote(text[end]),
                  text[end] != UInt8(ascii: ";"), text[end] != UInt8(ascii: ">"), text[end] != UInt8(ascii: "/") {
                end += 1
            }
            return end > index ? String(decoding: text[index..<end], as: UTF8.self) : nil
        }
        return nil
    }

    private static func find<C: Collection>(_ needle: [UInt8], in haystack: C, from start: C.Index) -> C.Index?
    where C.Element == UInt8, C.Index == Int {
        guard !needle.isEmpty else { return nil }
        var index = start
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func isTagNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }
}
