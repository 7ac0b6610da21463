import ConditionsHTML
import Foundation
import Testing

@Suite struct EncodingTests {
    @Test func declaredISO88591CharsetDecodesLatin1Bytes() throws {
        let data = try fixture("latin1-page")
        #expect(data.contains(0xE9))
        let page = try HTMLDocument(data: data)
        #expect(try page.text("//span[@id='PassInfoConditions']") == "Route dégagée, température 2°C")
    }

    @Test func metaCharsetAttributeIsHonoured() throws {
        var data = utf8("<!doctype html><html><head><meta charset=\"windows-1252\"></head><body><p>")
        data.append(contentsOf: [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94])  // “Café”
        data.append(utf8("</p></body></html>"))
        let page = try HTMLDocument(data: data)
        #expect(try page.text("//p") == "\u{201C}Café\u{201D}")
    }

    @Test func explicitWindows1252EncodingDecodesUndeclaredBytes() throws {
        var data = utf8("<html><body><span id='r'>Chains required ")
        data.append(contentsOf: [0x96, 0x20, 0x93, 0x6F, 0x6B, 0x94, 0x20, 0xE9])  // – “ok” é
        data.append(utf8("</span></body></html>"))
        let expected = "Chains required \u{2013} \u{201C}ok\u{201D} é"
        #expect(try HTMLDocument(data: data, encoding: "windows-1252").text("//span") == expected)
        #expect(try HTMLDocument(data: data, encoding: "text/html; charset=Windows-1252").text("//span") == expected)
        #expect(try HTMLDocument(data: data, encoding: "text/html;charset=\"cp1252\"").text("//span") == expected)
    }

    @Test func explicitEncodingOverridesTheMetaDeclaration() throws {
        let data = utf8("<html><head><meta charset='iso-8859-1'></head><body><p>Café – 5°</p></body></html>")
        #expect(try HTMLDocument(data: data, encoding: "utf-8").text("//p") == "Café – 5°")
        // Without the transport encoding the page's (wrong) declaration wins, as in a browser.
        #expect(try HTMLDocument(data: data).text("//p") == "CafÃ© â€“ 5Â°")
    }

    @Test func defaultIsUTF8AndAContentTypeWithoutCharsetDeclaresNothing() throws {
        let data = utf8("<p>Snoqualmie – 3022 ft, café</p>")
        #expect(try HTMLDocument(data: data).text("//p") == "Snoqualmie – 3022 ft, café")
        #expect(try HTMLDocument(data: data, encoding: "text/html").text("//p") == "Snoqualmie – 3022 ft, café")
    }

    @Test func unknownEncodingLabelsAreSkipped() throws {
        let data = utf8("<html><head><meta charset='x-made-up'></head><body><p>Café</p></body></html>")
        #expect(try HTMLDocument(data: data, encoding: "also-made-up").text("//p") == "Café")
    }

    @Test func invalidUTF8BytesBecomeReplacementCharacters() throws {
        var data = utf8("<html><body><p>caf")
        data.append(contentsOf: [0xFF, 0xC3])
        data.append(utf8(" – open</p><p>é</p></body></html>"))
        let page = try HTMLDocument(data: data)
        #expect(try page.nodes("//p").map(\.text) == ["caf\u{FFFD}\u{FFFD} – open", "é"])
    }

    @Test func byteOrderMarkWins() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(utf8("<html><head><meta charset='iso-8859-1'></head><body><p>Café</p></body></html>"))
        #expect(try HTMLDocument(data: data, encoding: "windows-1252").text("//p") == "Café")

        var utf16 = Data([0xFF, 0xFE])
        utf16.append("<html><body><p>Pass – café</p></body></html>".data(using: .utf16LittleEndian) ?? Data())
        #expect(try HTMLDocument(data: utf16).text("//p") == "Pass – café")
    }
}
