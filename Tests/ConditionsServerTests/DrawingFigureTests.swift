import ConditionsFigures
import ConditionsKit
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ConditionsServer

/// A module's `Drawing` as the server writes it: each mark at its place on the axes (worked out
/// here from the values, not by the server's arithmetic), inks as classes, data colours
/// checked, text escaped, and nothing a module gives (not finite, a reversed axis, hostile
/// path data or colours) able to put markup of its own on the page or break the SVG.
@Suite struct DrawingFigureTests {
    static func render(_ drawing: Drawing) throws -> String {
        let resources = try DashboardResources.load()
        return try #require(resources.templates.render(DrawingShape.view(drawing, id: "card-test"), withTemplate: "drawing"))
    }

    static func tags(_ element: String, in html: String) throws -> [[String: String]] {
        html.matches(of: try Regex("<\(element) [^>]*>")).map { match in
            let tag = String(html[match.range])
            return Dictionary(tag.matches(of: #/ ([a-z0-9-]+)="([^"]*)"/#).map { (String($0.output.1), String($0.output.2)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static func wellFormed(_ html: String) -> Bool { XMLParser(data: Data(html.utf8)).parse() }

    @Test func aStripPlacesMarksAtTheirValues() throws {
        // x 0…10 over 1000 units; y 0…100 over 80 px, up.
        let drawing = Drawing(title: "Tide", summary: "High at 3", frame: .strip(height: 80), x: 0...10, y: 0...100, marks: [
            .init(.rect(x: 2...3, y: 0...50), ink: .accent, label: "2–3: 50"),
            .init(.line([.init(x: 0, y: 100), .init(x: 5, y: 25), .init(x: 10, y: 0)]), ink: .muted),
            .init(.rule(.init(x: 0, y: 50), .init(x: 10, y: 50)), ink: .fill("#00ff00")),
            .init(.text("high", at: .init(x: 3, y: 75), anchor: .middle), ink: .text),
        ])
        let html = try Self.render(drawing)
        #expect(Self.wellFormed(html), "\(html)")
        let rect = try #require(try Self.tags("rect", in: html).first)
        #expect(rect["x"] == "200" && rect["width"] == "100" && rect["y"] == "40" && rect["height"] == "40", "\(rect)")
        #expect(rect["class"] == "drawing__fill ink--accent" && rect["fill"] == nil)
        #expect(try Self.tags("polyline", in: html).first?["points"] == "0,0 500,60 1000,80")
        let rule = try #require(try Self.tags("line", in: html).first)
        #expect(rule["stroke"] == "#00FF00" && rule["class"] == "drawing__stroke ink--data" && rule["y1"] == "40", "\(rule)")
        // Text in the outer SVG: at a percentage of the width, so words keep their size.
        let text = try #require(try Self.tags("text", in: html).first)
        #expect(text["x"] == "30%" && text["y"] == "20" && text["text-anchor"] == "middle", "\(text)")
        #expect(html.contains("<title id=\"card-test-drawing-title\">Tide</title>"))
        #expect(html.contains("<title>2–3: 50</title>"))
    }

    /// Marks keep their order across the server's layers (a path between two discs is drawn
    /// between them); a hatched rectangle in a strip sits at percentages of the outer SVG with
    /// the figure's own pattern, its key swatch hatched too; the caption, the notes and the key
    /// are words under the drawing.
    @Test func orderHatchingAndWordsUnderTheDrawing() throws {
        let square = try Self.render(Drawing(title: "Moon", summary: "half", frame: .square(rem: 9), x: -50...50, y: -50...50, marks: [
            .init(.circle(.init(x: 0, y: 0), radius: 48), ink: .dark),
            .init(.path("M0.5,0.02A0.48,0.48 0 0 1 0.5,0.98Z"), ink: .lit),
            .init(.arc(center: .init(x: 0, y: 0), radii: 47...49, degrees: 0...360), ink: .rim),
        ]))
        #expect(Self.wellFormed(square), "\(square)")
        let order = ["ink--dark", "ink--lit", "ink--rim"].map { square.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order[0]! < order[1]! && order[1]! < order[2]!, "the rim over the lit part over the disc")
        #expect(square.contains(#"<figure class="drawing drawing--square" id="card-test-drawing">"#))

        let strip = try Self.render(Drawing(title: "Clouds", summary: "one hour unknown", frame: .strip(height: 50), x: 0...4, y: 0...100, marks: [
            .init(.rect(x: 0...1, y: 0...40), ink: .accent, label: "h0: 40%"),
            .init(.rect(x: 1...2, y: 0...100), ink: .unknown, label: "h1: unknown"),
        ], caption: "Tonight", notes: ["Clouds", "h0 – h3", "top 100 %"], key: [.init("Clouds", ink: .accent), .init("Clouds unknown", ink: .unknown)]))
        #expect(Self.wellFormed(strip), "\(strip)")
        #expect(strip.contains(#"<pattern id="card-test-drawing-hatch""#))
        let hatched = try #require(try Self.tags("rect", in: strip).first { $0["class"] == "drawing__fill ink--unknown" && $0["x"]?.hasSuffix("%") == true })
        #expect(hatched["x"] == "25%" && hatched["width"] == "25%" && hatched["y"] == "0" && hatched["height"] == "50", "\(hatched)")
        #expect(hatched["fill"] == "url(#card-test-drawing-hatch)")
        #expect(try Self.tags("rect", in: strip).filter { $0["fill"] == "url(#card-test-drawing-hatch)" }.count == 2, "the bar and its key swatch")
        #expect(strip.contains(#"<figcaption class="drawing__caption"><bdi class="drawing__title">Tonight</bdi><p class="drawing__notes"><bdi>Clouds</bdi> <bdi>h0 – h3</bdi> <bdi>top 100 %</bdi></p><ul class="drawing__key">"#), "\(strip)")
    }

    /// A box inset by pixels from its values and rounded: drawn at percentages of the outer
    /// SVG, moved right by its leading inset and cut off by a clip of itself moved left by its
    /// trailing one (the browser test of the avalanche card measures where it lands). Words in
    /// a role's type, moved by pixels. Insets below zero or not finite are none.
    @Test func insetRoundedBoxesAndWordsInTheirRoles() throws {
        let html = try Self.render(Drawing(title: "Danger", summary: "s", frame: .strip(height: 60), x: 0...4, y: 0...60, marks: [
            .init(.rect(x: 1...4, y: 10...40, inset: .init(leading: 114.25, trailing: 1), corner: 3), ink: .fill("#f7941e"), label: "3 Considerable"),
            .init(.rect(x: 0...2, y: 0...10, corner: 4), ink: .muted),
            .init(.rect(x: 0...2, y: 0...10, inset: .init(leading: -5, trailing: .nan)), ink: .accent),
            .init(.text("3 Considerable", at: .init(x: 0, y: 20), anchor: .start, role: .value, dx: 122.25), ink: .contrasting(with: "#F7941E")),
            .init(.text("Today", at: .init(x: 0, y: 50), anchor: .start, role: .note), ink: .muted),
        ]))
        #expect(Self.wellFormed(html), "\(html)")
        let clip = try #require(try Self.tags("clipPath", in: html).first)
        #expect(clip["id"] == "card-test-drawing-clip-1")
        let rects = try Self.tags("rect", in: html)
        // The clip's rectangle, the box, the rounded one, the plain one in the plot's units.
        #expect(rects.count == 4, "\(rects)")
        #expect(rects[0] == ["x": "25%", "y": "20", "width": "75%", "height": "30", "rx": "3", "transform": "translate(-1 0)"], "\(rects[0])")
        #expect(rects[1] == ["class": "drawing__fill ink--data", "x": "25%", "y": "20", "width": "75%", "height": "30", "rx": "3",
                            "transform": "translate(114.25 0)", "fill": "#F7941E"], "\(rects[1])")
        #expect(html.contains(#"<g clip-path="url(#card-test-drawing-clip-1)"><rect class="drawing__fill ink--data""#))
        #expect(rects[2] == ["class": "drawing__fill ink--muted", "x": "0%", "y": "50", "width": "50%", "height": "10", "rx": "4"], "\(rects[2])")
        #expect(rects[3] == ["class": "drawing__fill ink--accent", "x": "0", "y": "50", "width": "500", "height": "10"], "\(rects[3])")
        let texts = try Self.tags("text", in: html)
        #expect(texts[0]["class"] == "drawing__text drawing__text--value ink--data" && texts[0]["dx"] == "122.25" && texts[0]["fill"] == "#000000", "\(texts[0])")
        #expect(texts[1]["class"] == "drawing__text drawing__text--note ink--muted" && texts[1]["dx"] == nil, "\(texts[1])")
        // Each role has its type in the stylesheet.
        let stylesheet = String(decoding: PackageResources.dashboard_css, as: UTF8.self)
        for role in ["label", "body", "value", "heading", "note"] as [String] {
            #expect(stylesheet.contains(".drawing__text--\(role) { font-size:"), "\(role)")
        }
    }

    @Test func aSquareDrawsRoundShapesAndSectors() throws {
        let drawing = Drawing(title: "Rose", summary: "s", frame: .square(rem: 10), x: -1...1, y: -1...1, marks: [
            .init(.circle(.init(x: 0, y: 0), radius: 0.5), ink: .dark),
            .init(.arc(center: .init(x: 0, y: 0), radii: 0...1, degrees: 0...90), ink: .lit),
            .init(.path("M0,0 L1,1 Z"), ink: .rim),
        ])
        let html = try Self.render(drawing)
        #expect(Self.wellFormed(html), "\(html)")
        #expect(html.contains("width=\"160\" height=\"160\" viewBox=\"0 0 100 100\""))
        let circle = try #require(try Self.tags("circle", in: html).first)
        #expect(circle["cx"] == "50" && circle["cy"] == "50" && circle["r"] == "25", "\(circle)")
        // A quarter from straight up clockwise: top (50,0), round to the right (100,50), back to the centre.
        let paths = try Self.tags("path", in: html)
        #expect(paths.first?["d"] == "M50,0A50,50 0 0 1 100,50L50,50Z", "\(paths)")
        #expect(paths.last?["d"] == "M0,0 L1,1 Z")
    }

    @Test func whatCannotBeDrawnIsLeftOutAndNothingBreaksTheMarkup() throws {
        let hostile = "\"/><script>alert(1)</script><g class=\""
        let drawing = Drawing(title: hostile, summary: "<b>bold</b> & more", frame: .strip(height: .nan), x: 0...1, y: 0...1, marks: [
            .init(.rect(x: 0...1, y: 0...Double.infinity), ink: .accent),
            .init(.line([.init(x: 0, y: 0), .init(x: .nan, y: 1)]), ink: .accent),
            .init(.circle(.init(x: 0.5, y: 0.5), radius: -1), ink: .accent),
            .init(.path("M0,0 L1,1\"/><script>x()</script>"), ink: .accent),
            .init(.rect(x: 0...1, y: 0...1), ink: .fill("red; background: url(x)"), label: hostile),
            .init(.text(hostile, at: .init(x: 0.5, y: 0.5), anchor: .start), ink: .fill("#12345G")),
        ], key: [.init(hostile, ink: .fill("javascript:x"))])
        let html = try Self.render(drawing)
        #expect(Self.wellFormed(html), "\(html)")
        #expect(!html.contains("<script") && !html.contains("<b>") && !html.contains("url(x)") && !html.contains("javascript:"))
        #expect(try Self.tags("rect", in: html).filter { $0["class"]?.hasPrefix("drawing__fill") == true && $0["width"] != "14" }.count == 1,
                "only the finite rectangle")
        #expect(try Self.tags("rect", in: html).allSatisfy { $0["fill"] == nil || $0["fill"] == "#888888" }, "a colour that is not #RRGGBB is grey")
        #expect(try Self.tags("polyline", in: html).isEmpty)
        #expect(try Self.tags("circle", in: html).isEmpty)
        #expect(try Self.tags("path", in: html).isEmpty)
        #expect(try Self.tags("text", in: html).first?["fill"] == "#888888")

        let reversed = Drawing(title: "t", summary: "s", frame: .strip(height: 40), x: 1...1, y: 0...1,
                               marks: [.init(.rect(x: 0...1, y: 0...1), ink: .accent)])
        let words = try Self.render(reversed)
        #expect(Self.wellFormed(words))
        #expect(try Self.tags("rect", in: words).isEmpty, "an empty axis draws the words alone")
    }
}
