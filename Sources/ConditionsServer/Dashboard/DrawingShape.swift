import ConditionsFigures
import ConditionsKit
import Foundation

/// A `Drawing` as the `drawing` template draws it, knowing nothing of what it shows: each mark
/// becomes one SVG element at its place on the axes, with its ink as a class (`ink--accent`)
/// the stylesheet colours per scheme, or a checked `#RRGGBB` of the data's.
///
/// A square is one SVG with a `viewBox` of 100 × 100. A strip is an SVG as wide as the card,
/// `height` pixels tall: its marks are drawn in an inner SVG 1000 units wide stretched to that
/// width (strokes keep their width: `vector-effect`), its text in the outer one at percentages
/// of the width, so words keep their size. Paths are drawn in an inner SVG of 1 × 1 stretched
/// over the frame. Marks keep their order across these layers. A hatched, inset or rounded
/// rectangle is drawn in the outer SVG at percentages, its pattern and corners unstretched. The page's policy allows no
/// inline style: every position is an attribute.
///
/// What cannot be drawn is left out, never guessed: a non-finite number, an empty or
/// reversed axis (nothing but the words), path data with anything but path commands.
enum DrawingShape {
    /// The inner SVG's width in its own units in a strip; a square's side.
    static let span = 1_000.0, side = 100.0
    /// Pixels per rem, for a square's size.
    static let pixelsPerRem = 16.0

    /// The template context of `drawing` as figure `id`.
    static func view(_ drawing: Drawing, id: String) -> [String: Any] {
        let figureID = "\(id)-drawing"
        var view: [String: Any] = ["id": figureID, "title": drawing.title, "summary": drawing.summary]
        let width: Double, height: Double, strip: Bool
        switch drawing.frame {
        case .square(let rem):
            let size = rem.isFinite ? min(40, max(0.5, rem)) * pixelsPerRem : 9 * pixelsPerRem
            (width, height, strip) = (side, side, false)
            view["square"] = ["size": number(size)]
            view["strip"] = false
        case .strip(let pixels):
            (width, height, strip) = (span, pixels.isFinite ? min(2_000, max(8, pixels)) : 100, true)
            view["square"] = false
            view["strip"] = ["height": number(height), "span": number(span)]
        }
        let x = drawing.x, y = drawing.y
        let drawable = x.lowerBound.isFinite && x.upperBound.isFinite && y.lowerBound.isFinite && y.upperBound.isFinite
            && x.upperBound > x.lowerBound && y.upperBound > y.lowerBound
        /// A point in the plot's units (y down), nil when not finite.
        func place(_ point: Drawing.Point) -> (x: Double, y: Double)? {
            guard point.x.isFinite, point.y.isFinite else { return nil }
            return ((point.x - x.lowerBound) / (x.upperBound - x.lowerBound) * width,
                    (y.upperBound - point.y) / (y.upperBound - y.lowerBound) * height)
        }
        func length(_ value: Double) -> Double? {
            value.isFinite && value >= 0 ? value / (x.upperBound - x.lowerBound) * width : nil
        }
        // Marks are drawn in order. Consecutive marks of one layer (the plot's shapes, paths in
        // their unit box, words at the frame's scale) share one SVG group; a mark of another
        // layer starts the next, so a later mark still covers an earlier one.
        var layers: [(kind: String, marks: [[String: Any]])] = []
        func add(_ element: [String: Any], to kind: String) {
            if layers.last?.kind == kind { layers[layers.count - 1].marks.append(element) } else { layers.append((kind, [element])) }
        }
        // A hatched mark's pattern is the figure's own, in the outer SVG's pixels.
        let hatch = "url(#\(figureID)-hatch)"
        var clips = 0
        var hatched = drawing.key.contains { $0.ink == .unknown }
        for mark in drawable ? drawing.marks : [] {
            var element: [String: Any] = ["label": present(mark.label)]
            for key in ["rect", "polyline", "polygon", "line", "circle", "arc", "text", "path"] { element[key] = false }
            var (inkClass, colour) = ink(mark.ink)
            if mark.ink == .unknown {
                colour = hatch
                hatched = true
            }
            switch mark.shape {
            case .rect(let xs, let ys, let inset, let corner):
                guard let a = place(.init(x: xs.lowerBound, y: ys.upperBound)), let b = place(.init(x: xs.upperBound, y: ys.lowerBound)) else { continue }
                let leading = pixels(inset.leading), trailing = pixels(inset.trailing), radius = pixels(corner)
                // A hatched, inset or rounded rectangle is drawn at percentages of the outer
                // SVG, like words: stretched with a strip's plot, hatching, pixel insets and
                // round corners would be squeezed. An inset is the rectangle moved right by
                // `leading`, cut off where the rectangle moved left by `trailing` ends: SVG
                // cannot add pixels to a percentage without calc(), which not every browser
                // takes in an attribute. The cut is a clip on a group, in the outer SVG's units.
                if mark.ink == .unknown || leading > 0 || trailing > 0 || radius > 0 {
                    clips += leading > 0 || trailing > 0 ? 1 : 0
                    element["rect"] = ["x": number(a.x / width * 100) + "%", "y": number(a.y), "width": number((b.x - a.x) / width * 100) + "%",
                                       "height": number(b.y - a.y), "rx": present(radius > 0 ? number(radius) : nil),
                                       "lead": present(leading > 0 ? number(leading) : nil), "trail": present(trailing > 0 ? number(trailing) : nil),
                                       "clip": leading > 0 || trailing > 0 ? ["id": "\(figureID)-clip-\(clips)"] as Any : false]
                    element["class"] = inkClass
                    element["fill"] = present(colour)
                    add(element, to: "outer")
                    continue
                }
                element["rect"] = ["x": number(a.x), "y": number(a.y), "width": number(b.x - a.x), "height": number(b.y - a.y)]
            case .line(let points):
                let placed = points.compactMap(place)
                guard placed.count >= 2, placed.count == points.count else { continue }
                element["polyline"] = ["points": placed.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")]
            case .area(let points, let base):
                var placed = points.compactMap(place)
                guard placed.count >= 2, placed.count == points.count, let first = points.first, let last = points.last,
                      let end = place(.init(x: last.x, y: base)), let start = place(.init(x: first.x, y: base)) else { continue }
                placed += [end, start]
                element["polygon"] = ["points": placed.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")]
            case .rule(let from, let to):
                guard let a = place(from), let b = place(to) else { continue }
                element["line"] = ["x1": number(a.x), "y1": number(a.y), "x2": number(b.x), "y2": number(b.y)]
            case .circle(let center, let radius):
                guard let c = place(center), let r = length(radius) else { continue }
                element["circle"] = ["cx": number(c.x), "cy": number(c.y), "r": number(r)]
            case .arc(let center, let radii, let degrees):
                guard let c = place(center), let outer = length(radii.upperBound), let inner = length(radii.lowerBound),
                      degrees.lowerBound.isFinite, degrees.upperBound.isFinite, outer > 0 else { continue }
                element["arc"] = ["d": sector(c, inner: inner, outer: outer, from: degrees.lowerBound, to: degrees.upperBound)]
            case .text(let text, let at, let anchor, let role, let dx):
                guard let p = place(at) else { continue }
                element["text"] = ["x": strip ? number(p.x / width * 100) + "%" : number(p.x), "y": number(p.y), "anchor": anchor.rawValue, "words": text,
                                   "role": role.rawValue, "dx": present(dx.isFinite && dx != 0 ? number(dx) : nil)]
                element["class"] = inkClass
                element["fill"] = present(colour)
                add(element, to: "words")
                continue
            case .path(let data):
                guard isPathData(data) else { continue }
                element["path"] = ["d": data]
                element["class"] = inkClass
                element["fill"] = present(colour)
                add(element, to: "paths")
                continue
            }
            element["class"] = inkClass
            let stroked = element["polyline"] as? [String: Any] != nil || element["line"] as? [String: Any] != nil
            element["fill"] = stroked ? false : present(colour)
            element["stroke"] = stroked ? present(colour) : false
            add(element, to: "plot")
        }
        view["layers"] = layers.map { layer -> [String: Any] in
            var item: [String: Any] = ["plot": false, "paths": false, "words": false, "outer": false]
            item[layer.kind] = ["marks": layer.marks]
            return item
        }
        view["key"] = drawing.key.map { entry -> [String: Any] in
            let (inkClass, colour) = ink(entry.ink)
            return ["label": entry.label, "class": inkClass, "fill": entry.ink == .unknown ? hatch : present(colour)]
        }
        view["hasHatch"] = hatched
        view["caption"] = present(drawing.caption)
        view["hasKey"] = !drawing.key.isEmpty
        // Spaces between the notes, none after the last: the caption reads as words.
        view["notes"] = drawing.notes.enumerated().map { ["text": $1, "last": $0 == drawing.notes.count - 1] as [String: Any] }
        view["hasNotes"] = !drawing.notes.isEmpty
        view["hasCaption"] = !drawing.key.isEmpty || !drawing.notes.isEmpty || drawing.caption != nil
        return view
    }

    /// The class of `ink`, and the colour attribute of a data colour (`fallback` when it is not `#RRGGBB`).
    static func ink(_ ink: Drawing.Ink) -> (class: String, colour: String?) {
        switch ink {
        case .text: ("ink--text", nil)
        case .muted: ("ink--muted", nil)
        case .accent: ("ink--accent", nil)
        case .good: ("ink--good", nil)
        case .caution: ("ink--caution", nil)
        case .bad: ("ink--bad", nil)
        case .neutral: ("ink--neutral", nil)
        case .highlight: ("ink--highlight", nil)
        case .sky(let level): ("ink--sky-\(min(4, max(0, level)))", nil)
        case .lit: ("ink--lit", nil)
        case .dark: ("ink--dark", nil)
        case .rim: ("ink--rim", nil)
        case .fill(let colour): ("ink--data", Drawing.colour(colour) ?? Drawing.fallbackFill)
        case .unknown: ("ink--unknown", nil)
        }
    }

    /// The path of a ring's sector, angles clockwise from straight up (y down, as in SVG).
    static func sector(_ c: (x: Double, y: Double), inner: Double, outer: Double, from: Double, to: Double) -> String {
        let sweep = min(359.99, max(0, to - from))
        func point(_ degrees: Double, _ r: Double) -> String {
            let radians = degrees * .pi / 180
            return "\(number(c.x + r * sin(radians))),\(number(c.y - r * cos(radians)))"
        }
        let large = sweep > 180 ? 1 : 0
        let end = from + sweep
        var d = "M\(point(from, outer))A\(number(outer)),\(number(outer)) 0 \(large) 1 \(point(end, outer))"
        if inner > 0, inner < outer {
            d += "L\(point(end, inner))A\(number(inner)),\(number(inner)) 0 \(large) 0 \(point(from, inner))Z"
        } else {
            d += "L\(number(c.x)),\(number(c.y))Z"
        }
        return d
    }

    /// Whether `data` is SVG path data and nothing else: commands, numbers, separators.
    static func isPathData(_ data: String) -> Bool {
        !data.isEmpty && data.utf8.count <= 65_536 && data.utf8.allSatisfy { byte in
            "MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \t\n".utf8.contains(byte)
        }
    }

    /// A length in pixels that can be drawn: 0 for one below zero or not finite.
    static func pixels(_ value: Double) -> Double { value.isFinite ? min(10_000, max(0, value)) : 0 }

    /// `value`, or false: Mustache looks a missing key up in the enclosing context.
    static func present(_ value: String?) -> Any { value.map { $0 as Any } ?? false }

    /// SVG numbers, short: two decimals at most, no trailing zeros.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        guard abs(value) < 1e12 else { return String(format: "%.3g", value) }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(format: "%.2f", rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
