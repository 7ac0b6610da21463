import Testing
@testable import ConditionsKit

/// URN syntax is checked before routing; every violation is an `invalidURN` error whose
/// message is one printable line.
@Suite struct URNSyntaxTests {
    /// Parses `text` expecting failure and checks the message is safe to print.
    @discardableResult
    private func rejected(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConditionsError? {
        let error = #expect(throws: ConditionsError.self, sourceLocation: sourceLocation) { try URN(text) }
        guard let error else { return nil }
        #expect(error.kind == .invalidURN, sourceLocation: sourceLocation)
        #expect(error.message.hasPrefix("invalid URN: "), sourceLocation: sourceLocation)
        #expect(isOnePrintableLine(error.message), "message: \(error.message.debugDescription)", sourceLocation: sourceLocation)
        return error
    }

    private func isOnePrintableLine(_ message: String) -> Bool {
        !message.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x2028, 0x2029, 0x200E, 0x200F, 0xFEFF].contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
        }
    }

    @Test func validURNKeepsTextAndSegments() throws {
        let urn = try URN("pass:snoqualmie")
        #expect(urn.rawValue == "pass:snoqualmie")
        #expect(urn.scheme == "pass")
        #expect(urn.segments == ["pass", "snoqualmie"])
        #expect(try URN("moon:2026-12-04T00%3A00Z").segments == ["moon", "2026-12-04T00%3A00Z"])
        #expect(try URN("pass").segments == ["pass"])
        #expect(try URN("pass:café").segments == ["pass", "café"])
    }

    @Test func empty() {
        #expect(rejected("")?.message.contains("empty") == true)
    }

    @Test(arguments: [("pass:", 2), (":pass", 1), ("a::b", 2), (":", 1)])
    func emptySegments(text: String, segment: Int) {
        #expect(rejected(text)?.message.contains("empty segment (segment \(segment))") == true)
    }

    @Test func lengthLimitIsInUTF8Bytes() throws {
        let exact = "pass:" + String(repeating: "a", count: URN.maximumLength - 5)
        #expect(exact.utf8.count == 1024)
        #expect(try URN(exact).rawValue == exact)

        let error = rejected(exact + "a")
        #expect(error?.message.contains("1025 bytes") == true)
        #expect(error?.message.contains("1024") == true)

        // The limit counts bytes, not characters: 5 ASCII bytes and 509 two-byte characters are 1023 bytes.
        let multiByte = "pass:" + String(repeating: "é", count: 509)
        #expect(multiByte.count == 514)
        #expect(multiByte.utf8.count == 1023)
        #expect(throws: Never.self) { try URN(multiByte) }
        rejected(multiByte + "é")
    }

    @Test(arguments: ["pass:a\u{0}b", "pass:a\u{1}b", "pass:a\u{1F}b", "pass:a\u{7F}b", "pass:a\nb", "pass:a\rb", "pass:a\tb", "pass:a\u{85}b", "pass:a\u{1B}[31mb"])
    func rawControlCharacters(text: String) {
        let error = rejected(text)
        #expect(error?.message.contains("at character 7") == true)
    }

    @Test func nulIsNamed() {
        #expect(rejected("pass:\u{0}")?.message.contains("NUL") == true)
    }

    @Test(arguments: ["pass:a%00b", "pass:%1F", "pass:%7F", "pass:%0A", "pass:%0d%0a", "pass:%C2%85"])
    func percentEncodedControlCharacters(text: String) {
        #expect(rejected(text)?.message.contains("percent-encoded") == true)
    }

    @Test(arguments: ["pass:white pass", " pass:white", "pass:white ", "pass:a\u{A0}b", "pass:a\u{3000}b", "pass:a\u{2003}b"])
    func whitespace(text: String) {
        #expect(rejected(text)?.message.contains("whitespace") == true)
    }

    @Test func percentEncodedSpaceIsAllowed() throws {
        #expect(try URN("pass:white%20pass").segments == ["pass", "white%20pass"])
    }

    @Test(arguments: ["pass:abc\u{202E}gpj.exe", "pass:\u{2066}x", "pass:\u{202A}x", "pass:\u{200B}x", "pass:\u{FEFF}x", "pass:a\u{2028}b"])
    func rawBidiAndInvisibleCharacters(text: String) {
        let error = rejected(text)
        #expect(error?.message.contains("bidirectional") == true)
        // The message names the character by code point instead of embedding it.
        #expect(error?.message.contains("U+") == true)
    }

    @Test(arguments: ["pass:%E2%80%AE", "pass:abc%e2%80%aegpj", "pass:%E2%81%A6x", "pass:%E2%80%8B", "pass:%EF%BB%BF"])
    func percentEncodedBidiCharacters(text: String) {
        let error = rejected(text)
        #expect(error?.message.contains("percent-encoded") == true)
        #expect(error?.message.contains("bidirectional") == true)
    }

    @Test(arguments: ["pass:%zz", "pass:%4", "pass:abc%", "pass:%", "pass:%FF", "pass:%C3", "pass:%C3%28", "pass:%G0", "pass:%%41", "pass:%80"])
    func invalidPercentEscapes(text: String) {
        #expect(rejected(text)?.message.contains("invalid percent escape") == true)
    }

    @Test func messageQuotesOffendingInputWithEscapes() {
        let error = rejected("pass:evil\u{202E}txt\nnext")
        #expect(error?.message.contains(#""pass:evil\u{202E}txt\u{000A}next""#) == true)
    }

    @Test func messageElidesHugeInput() {
        let huge = "pass:" + String(repeating: "x", count: 500) + ":"
        let error = rejected(huge)
        #expect(error?.message.contains("…") == true)
        #expect((error?.message.count ?? .max) < 200)
    }

    @Test func percentDecode() {
        #expect(URN.percentDecode("white%20pass") == "white pass")
        #expect(URN.percentDecode("caf%C3%A9") == "café")
        #expect(URN.percentDecode("plain") == "plain")
        #expect(URN.percentDecode("%F0%9F%8C%95") == "🌕")
        #expect(URN.percentDecode("%zz") == nil)
        #expect(URN.percentDecode("%FF") == nil)
        #expect(URN.percentDecode("a%2") == nil)
    }
}
