import ConditionsFigures
import Foundation
import Testing

/// Data colours and the words written on them: `Drawing.Ink.contrasting(with:)` gives at least
/// 4.5:1 on every colour of the avalanche danger scale (worked out here with WCAG's formula
/// written out again, not the toolkit's arithmetic), always the better of black and white, and
/// only `#RRGGBB` is a colour.
@Suite struct ColourTests {
    /// The North American avalanche danger scale's five colours and avalanche.org's "no rating" grey.
    static let fills = ["#50B848", "#FFF200", "#F7941E", "#ED1C24", "#231F20", "#888888"]

    /// WCAG 2's contrast ratio of two `#RRGGBB` colours.
    static func ratio(_ a: String, _ b: String) -> Double {
        func luminance(_ hex: String) -> Double {
            let digits = Array(hex.dropFirst())
            let channels = stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0...$0 + 1]), radix: 16)!) / 255 }
                .map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func colour(_ ink: Drawing.Ink) -> String? {
        if case .fill(let colour) = ink { colour } else { nil }
    }

    @Test func wordsOnEveryScaleColourMeetAA() throws {
        for fill in Self.fills {
            let ink = try #require(Self.colour(.contrasting(with: fill)))
            #expect(Self.ratio(ink, fill) >= 4.5, "\(ink) on \(fill): \(Self.ratio(ink, fill)):1")
        }
        // Red is the close one: black on #ED1C24 is 4.8:1, white only 4.4:1.
        #expect(Self.colour(.contrasting(with: "#ED1C24")) == "#000000")
        #expect(Self.colour(.contrasting(with: "#231F20")) == "#FFFFFF", "white on Extreme's black")
    }

    @Test func theBetterOfBlackAndWhiteOnAnyColour() throws {
        for value in stride(from: 0, through: 0xFFFFFF, by: 0x0F0F0F / 3) {
            let fill = String(format: "#%06X", value)
            let ink = try #require(Self.colour(.contrasting(with: fill)))
            let other = ink == "#000000" ? "#FFFFFF" : "#000000"
            #expect(Self.ratio(ink, fill) + 0.01 >= Self.ratio(other, fill), "\(fill)")
        }
        #expect(abs((Drawing.contrast("#000000", "#FFFFFF") ?? 0) - 21) < 1e-9)
    }

    @Test func onlySixHexDigitsAreAColour() throws {
        let hostile = [#"red"#, #"#F7941"#, #"#F7941EE"#, #"#GGGGGG"#, #"" onload="alert(1)"#, #"#000000" style="x"#,
                       "url(javascript:alert(1))", "", "#ＦＦＦＦＦＦ", "#12345\u{0}"]
        #expect(hostile.allSatisfy { Drawing.colour($0) == nil && Drawing.luminance($0) == nil })
        #expect(Drawing.colour("#f7941e") == "#F7941E", "lower case is taken, written upper case")
        // Words on a colour that is not one are written for the grey a page draws instead.
        let ink = try #require(Self.colour(.contrasting(with: "red")))
        #expect(Self.ratio(ink, Drawing.fallbackFill) >= 4.5)
    }
}
