import ConditionsFigures
import ConditionsKit
import Foundation

/// A `BandChart` as the `bands` template draws it: under each group's caption a list, one item
/// per band, its label and then its value written on its fill. The fill is checked to be
/// `#RRGGBB` here (anything else becomes `fallback`), so no text of a module's reaches an
/// attribute or a stylesheet as a colour; the text on it is black or white, whichever
/// contrasts more with the fill (WCAG 2's relative luminance), so every fill that allows AA
/// text (4.5:1) gets it.
///
/// The page's policy allows no inline style, so the fill is drawn twice: as the `fill` of an
/// SVG rectangle behind the text (every browser), and as the value's `background-color` from
/// its `data-fill` attribute through the stylesheet's typed `attr()` (browsers that have it).
enum BandsShape {
    /// The fill of a band whose colour is not `#RRGGBB`: a neutral grey (avalanche.org's
    /// "no rating"), black text on it at 5.9:1.
    static let fallback = "#888888"
    static let black = "#000000"
    static let white = "#FFFFFF"

    /// The template context of `chart` as figure `id`.
    static func view(_ chart: BandChart, id: String) -> [String: Any] {
        let figureID = "\(id)-bands"
        let groups = chart.groups.enumerated().map { index, group -> [String: Any] in
            let bands = group.bands.map { band -> [String: Any] in
                let fill = colour(band.fill) ?? fallback
                return ["label": band.label, "value": band.value, "fill": fill, "ink": ink(on: fill) == black ? "dark" : "light"]
            }
            return ["id": "\(figureID)-\(index + 1)", "caption": group.caption, "bands": bands]
        }
        return ["id": figureID, "title": chart.title, "groups": groups]
    }

    /// `text` as `#RRGGBB` (upper case) when it is exactly `#` and six hex digits, else nil.
    static func colour(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy(isHexDigit) else { return nil }
        return text.uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Black or white: whichever has the higher contrast ratio with `fill` (`#RRGGBB`; black
    /// for anything else, as on `fallback`).
    static func ink(on fill: String) -> String {
        guard let luminance = luminance(fill) else { return black }
        // Against black the ratio is (L + 0.05) / 0.05, against white 1.05 / (L + 0.05).
        return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? black : white
    }

    /// WCAG 2's relative luminance of `#RRGGBB`, 0 (black) … 1 (white).
    static func luminance(_ colour: String) -> Double? {
        guard let valid = self.colour(colour), let value = UInt32(valid.dropFirst(), radix: 16) else { return nil }
        func channel(_ shift: UInt32) -> Double {
            let c = Double((value >> shift) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(16) + 0.7152 * channel(8) + 0.0722 * channel(0)
    }

    /// The contrast ratio of two `#RRGGBB` colours, 1 … 21.
    static func contrast(_ a: String, _ b: String) -> Double? {
        guard let x = luminance(a), let y = luminance(b) else { return nil }
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
