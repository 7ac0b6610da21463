import Foundation

/// Colours a drawing takes from its data (`Ink.fill`), checked before they reach a page, and
/// the text colour that reads on one: a danger level's colour with its level written on it.
extension Drawing {
    /// What a page draws for a data colour that is not `#RRGGBB`: a neutral grey
    /// (avalanche.org's "no rating"), black text on it at 5.9:1.
    public static let fallbackFill = "#888888"

    /// `text` as `#RRGGBB` (upper case) when it is exactly `#` and six hex digits, else nil: no
    /// other text of a module's reaches a page as a colour.
    public static func colour(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHexDigit) else { return nil }
        return text.uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// WCAG 2's relative luminance of `#RRGGBB`, 0 (black) … 1 (white); nil for anything else.
    public static func luminance(_ colour: String) -> Double? {
        guard let valid = self.colour(colour), let value = UInt32(valid.dropFirst(), radix: 16) else { return nil }
        func channel(_ shift: UInt32) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    /// WCAG 2's contrast ratio of two `#RRGGBB` colours, 1 … 21.
    public static func contrast(_ a: String, _ b: String) -> Double? {
        guard let x = luminance(a), let y = luminance(b) else { return nil }
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}

extension Drawing.Ink {
    /// Black or white, whichever contrasts more with `fill` (a page's grey when `fill` is not
    /// `#RRGGBB`), so words written on any fill that allows WCAG AA text (4.5:1) get it.
    public static func contrasting(with fill: String) -> Drawing.Ink {
        let luminance = Drawing.luminance(fill) ?? Drawing.luminance(Drawing.fallbackFill) ?? 0
        // Against black the ratio is (L + 0.05) / 0.05, against white 1.05 / (L + 0.05).
        return .fill((luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#FFFFFF")
    }
}
