import ConditionsFigures
import ConditionsCore
import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import Foundation
import TestHarness
import Testing

/// A figure no shipped module draws, composed of the contract's marks by a module that exists
/// only in this file (Gusts: `wind:{place}`, a wind rose of arcs, rules and text), drawn by the
/// server, which knows nothing of it, and shown in headless Chromium. Nothing outside this file
/// changed for it: that is what an open figure vocabulary is for.
extension DashboardBrowserTests {
    @Test func aWindRoseFromAModuleTheServerDoesNotKnow() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-wind-rose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"""
            {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
             "sources": {"gusts": {"module": "Gusts"}}, "routes": {"wind": "gusts"}, "cache": {"enabled": false}}
            """#.utf8).write(to: dir.appendingPathComponent("sources.json"))
        try await InProcessServer.with(in: dir, catalog: SourceCatalog([GustsSource.self])) { server in
            let page = "http://127.0.0.1:\(server.port)/?urn=wind:here"
            let html = try await server.request("/?urn=wind:here")
            #expect(html.status == 200 && html.body.contains("class=\"drawing"), "\(html.body.prefix(2000))")
            let report = try await Browser.load(page, ["--eval", #"""
                (() => {
                  const figure = document.querySelector("#card-wind-here .drawing");
                  const svg = figure.querySelector("svg");
                  const box = svg.getBoundingClientRect();
                  const sectors = Array.from(svg.querySelectorAll("path.drawing__fill")).map((path) => {
                    const r = path.getBoundingClientRect();
                    return {title: path.querySelector("title")?.textContent, cls: path.getAttribute("class"),
                            fill: getComputedStyle(path).fill, cx: (r.left + r.right) / 2 - box.left, cy: (r.top + r.bottom) / 2 - box.top,
                            w: r.width, h: r.height};
                  });
                  const rules = Array.from(svg.querySelectorAll("line.drawing__stroke")).map((line) => getComputedStyle(line).stroke);
                  const words = Array.from(svg.querySelectorAll("text.drawing__text")).map((text) => {
                    const r = text.getBoundingClientRect();
                    return {text: text.textContent, x: (r.left + r.right) / 2 - box.left, y: (r.top + r.bottom) / 2 - box.top, visible: r.width > 0};
                  });
                  return {name: svg.getAttribute("aria-labelledby") && document.getElementById(svg.getAttribute("aria-labelledby")).textContent,
                          desc: svg.querySelector("desc").textContent, width: box.width, height: box.height, sectors, rules, words,
                          key: Array.from(figure.querySelectorAll(".drawing__key li")).map((item) => item.textContent)};
                })()
                """#])
            let rose = report.object
            #expect(rose["name"] as? String == "Wind at Seattle")
            #expect(rose["desc"] as? String == "Mostly from the southwest: 40% of hours")
            let width = try #require(rose["width"] as? Double), height = try #require(rose["height"] as? Double)
            #expect(width == 160 && height == 160, "a square of 10 rem: \(width)×\(height)")
            let sectors = rose["sectors"] as? [[String: Any]] ?? []
            #expect(sectors.count == 8, "one sector per direction: \(sectors.count)")
            // Each sector points the way it is named, as long as its share: south-west's, the
            // longest, down and left of the centre; north's up; east's right.
            func sector(_ name: String) -> [String: Any] { sectors.first { ($0["title"] as? String)?.hasPrefix(name + ":") == true } ?? [:] }
            let center = width / 2
            let southwest = sector("SW"), north = sector("N"), east = sector("E")
            #expect((southwest["cx"] as? Double ?? 0) < center - 10 && (southwest["cy"] as? Double ?? 0) > center + 10, "\(southwest)")
            #expect((north["cy"] as? Double ?? .infinity) < center - 3 && abs((north["cx"] as? Double ?? 0) - center) < 3, "\(north)")
            #expect((east["cx"] as? Double ?? 0) > center + 3 && abs((east["cy"] as? Double ?? 0) - center) < 3, "\(east)")
            #expect((southwest["w"] as? Double ?? 0) > (north["w"] as? Double ?? .infinity), "the longest share draws the longest sector")
            // Inks: the calm share in the accent, the strongest in the data's own colour.
            #expect(southwest["fill"] as? String == "rgb(201, 35, 45)", "\(southwest)")
            #expect((north["cls"] as? String)?.contains("ink--accent") == true)
            #expect((rose["rules"] as? [String])?.count == 2)
            let words = rose["words"] as? [[String: Any]] ?? []
            #expect(words.map { $0["text"] as? String } == ["N", "E", "S", "W"])
            #expect(words.allSatisfy { $0["visible"] as? Bool == true })
            let n = words.first { $0["text"] as? String == "N" } ?? [:], s = words.first { $0["text"] as? String == "S" } ?? [:]
            #expect((n["y"] as? Double ?? .infinity) < (s["y"] as? Double ?? 0), "N above S")
            #expect(rose["key"] as? [String] == ["under 20 mph", "20 mph or more"])
        }
    }
}

/// `wind:{place}`: a made-up week of wind as the share of hours from each of eight directions,
/// drawn as a wind rose. Tests only; no shipped module draws one.
struct GustsSource: ConditionsSource {
    static let moduleName = "Gusts"
    static let summary = "A week of wind as a wind rose (tests only)"
    static let presentations: [any ResultPresentation] = [GustsPresentation()]
    let routes: [RoutePattern] = ["wind:{place}"]
    static let exampleURNs = ["wind:here"]

    init(configuration: SourceConfiguration) throws {
        try configuration.options.finish()
    }

    func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let place = try location.place(in: context.places)
        let shares: [JSONValue] = [10, 5, 10, 5, 10, 40, 15, 5].map { .int($0) }
        return SourceResult(data: ["place": .string(place.name ?? place.id), "shares": .array(shares), "strongest": "SW"], kind: "wind")
    }
}

struct GustsPresentation: ResultPresentation {
    let kind: ResultKind = "wind"
    static let directions = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]

    func render(_ data: JSONValue, context: PresentationContext) -> [String] {
        [context.urn, "  " + (data["shares"]?.arrayValue ?? []).map { "\($0.intValue ?? 0)%" }.joined(separator: " ")]
    }

    func changeKey(_ data: JSONValue) -> ChangeKey { ChangeKey(status: data["strongest"]?.stringValue ?? "?") }

    func card(_ data: JSONValue, context: PresentationContext) -> ResultCard {
        let shares = (data["shares"]?.arrayValue ?? []).map { Double($0.intValue ?? 0) }
        let strongest = data["strongest"]?.stringValue
        var marks: [Drawing.Mark] = []
        for (index, share) in shares.enumerated() where index < Self.directions.count {
            let name = Self.directions[index]
            let middle = Double(index) * 45
            marks.append(.init(.arc(center: .init(x: 0, y: 0), radii: 0...(share / 40 * 0.8), degrees: (middle - 20)...(middle + 20)),
                               ink: name == strongest ? .fill("#C9232D") : .accent, label: "\(name): \(Int(share))% of hours"))
        }
        marks.append(.init(.rule(.init(x: 0, y: -1), .init(x: 0, y: 1)), ink: .muted))
        marks.append(.init(.rule(.init(x: -1, y: 0), .init(x: 1, y: 0)), ink: .muted))
        for (word, x, y) in [("N", 0.0, 0.88), ("E", 0.9, -0.03), ("S", 0.0, -0.97), ("W", -0.9, -0.03)] {
            marks.append(.init(.text(word, at: .init(x: x, y: y), anchor: .middle), ink: .text))
        }
        let drawing = Drawing(title: "Wind at \(data["place"]?.stringValue ?? "?")", summary: "Mostly from the southwest: 40% of hours",
                              frame: .square(rem: 10), x: -1...1, y: -1...1, marks: marks,
                              key: [.init("under 20 mph", ink: .accent), .init("20 mph or more", ink: .fill("#C9232D"))])
        return ResultCard(title: "Wind", status: .init(strongest ?? "calm", tone: .neutral), figure: drawing)
    }
}
