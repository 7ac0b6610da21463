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
