import ConditionsFigures
import ConditionsKit
import Foundation
import Testing
@testable import ConditionsServer

/// The `bands` figure as the server writes it: the text colour it picks on each fill gives at
/// least 4.5:1 (worked out here from the HTML and the stylesheet, not by the server's own
/// arithmetic), a fill that is not `#RRGGBB` becomes grey and never reaches the page, and
/// every text is escaped.
@Suite struct BandsFigureTests {
    /// The North American avalanche danger scale's five colours and avalanche.org's "no rating" grey.
    static let fills = ["#50B848", "#FFF200", "#F7941E", "#ED1C24", "#231F20", "#888888"]

    static func render(_ chart: BandChart, id: String = "card-test") throws -> String {
        let resources = try DashboardResources.load()
        return try #require(resources.templates.render(BandsShape.view(chart, id: id), withTemplate: "bands"))
    }

    /// One rendered band: its label and value text, the fill of its rectangle and its
    /// `data-fill`, and the text colour its class gets from the stylesheet.
    struct Rendered {
        let label: String, value: String, rectFill: String, dataFill: String, ink: String
    }

    static func bands(in html: String) throws -> [Rendered] {
        let stylesheet = String(decoding: PackageResources.dashboard_css, as: UTF8.self)
        func colour(ofClass name: String) throws -> String {
            let match = try #require(stylesheet.firstMatch(of: try Regex(#"\.band__value--"# + name + #" \{ color: (#[0-9a-fA-F]{6}); \}"#)))
            return String(try #require(match.output[1].substring)).uppercased()
        }
        let pattern = #/<li class="band"><span class="band__label" dir="auto"><bdi>(.*?)</bdi><span class="visually-hidden">: </span></span><span class="band__value band__value--(dark|light)" data-fill="([^"]*)"><svg class="band__fill" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect width="1" height="1" fill="([^"]*)"/></svg><bdi class="band__text" dir="auto">(.*?)</bdi></span></li>/#
        return try html.matches(of: pattern).map { match in
            Rendered(label: String(match.output.1), value: String(match.output.5), rectFill: String(match.output.4),
                     dataFill: String(match.output.3), ink: try colour(ofClass: String(match.output.2)))
        }
    }

    /// WCAG 2's contrast ratio of two `#RRGGBB` colours, written out independently of the server's.
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

    @Test func theTextOnEveryScaleColourMeetsAA() throws {
        let chart = BandChart(title: "Avalanche danger", groups: [
            .init(caption: "Today", bands: Self.fills.enumerated().map { .init(label: "Band \($0.offset + 1)", value: "Level \($0.offset + 1)", fill: $0.element) }),
        ])
        let bands = try Self.bands(in: try Self.render(chart))
        #expect(bands.count == Self.fills.count)
        for (band, fill) in zip(bands, Self.fills) {
            #expect(band.rectFill == fill && band.dataFill == fill, "the fill is drawn as given: \(band)")
            let contrast = Self.ratio(band.ink, fill)
            #expect(contrast >= 4.5, "\(band.value): \(band.ink) on \(fill) is \(contrast):1")
        }
        // Red is the close one: black on #ED1C24 is 4.8:1, white only 4.4:1.
        #expect(bands[3].ink == "#000000")
        #expect(bands[4].ink == "#FFFFFF", "white on Extreme's black")
        #expect(bands.map(\.label) == (1...6).map { "Band \($0)" })
    }

    /// For any fill the host picks the better of black and white: checked on a sweep of greys
    /// and colours against the independent ratio.
    @Test func theInkIsAlwaysTheBetterOfBlackAndWhite() {
        for value in stride(from: 0, through: 0xFFFFFF, by: 0x0F0F0F / 3) {
            let fill = String(format: "#%06X", value)
            let ink = BandsShape.ink(on: fill)
            let other = ink == BandsShape.black ? BandsShape.white : BandsShape.black
            #expect(Self.ratio(ink, fill) + 0.01 >= Self.ratio(other, fill), "\(fill)")
        }
    }

    @Test func aBadColourFallsBackToGreyAndNeverReachesThePage() throws {
        let hostile = [#"red"#, #"#F7941"#, #"#F7941EE"#, #"#GGGGGG"#, #"" onload="alert(1)"#, #"#000000" style="x"#,
                       "url(javascript:alert(1))", "", "#ＦＦＦＦＦＦ", "#12345\u{0}"]
        let chart = BandChart(title: "t", groups: [.init(caption: "c", bands: hostile.map { .init(label: "l", value: "v", fill: $0) })])
        let html = try Self.render(chart)
        let bands = try Self.bands(in: html)
        #expect(bands.count == hostile.count)
        #expect(bands.allSatisfy { $0.rectFill == BandsShape.fallback && $0.dataFill == BandsShape.fallback })
        #expect(bands.allSatisfy { Self.ratio($0.ink, BandsShape.fallback) >= 4.5 })
        #expect(!html.contains("alert") && !html.contains("onload") && !html.contains("style="))
        // Lower case is accepted and written upper case.
        #expect(BandsShape.colour("#f7941e") == "#F7941E")
    }

    @Test func everyTextIsEscaped() throws {
        let chart = BandChart(title: "<script>alert(1)</script>", groups: [
            .init(caption: "To\"day", bands: [.init(label: "<b>Above</b>", value: "3 & 'Considerable'", fill: "#F7941E")]),
        ])
        let html = try Self.render(chart)
        #expect(!html.contains("<script>") && !html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("To&quot;day"))
        let band = try #require(try Self.bands(in: html).first)
        #expect(band.label == "&lt;b&gt;Above&lt;/b&gt;")
        #expect(band.value == "3 &amp; &#39;Considerable&#39;" || band.value == "3 &amp; &#x27;Considerable&#x27;", "\(band.value)")
        // The figure is named by its caption, and each list by its group's caption.
        #expect(html.contains(#"<figure class="bands" id="card-test-bands" aria-labelledby="card-test-bands-title">"#))
        #expect(html.contains(#"<p class="bands__caption" id="card-test-bands-1" dir="auto"><bdi>To&quot;day</bdi></p><ul class="bands__list" aria-labelledby="card-test-bands-1">"#))
    }
}
