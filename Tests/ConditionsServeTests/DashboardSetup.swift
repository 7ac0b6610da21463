import Foundation
import LoopbackServer
import TestHarness
import Testing

/// Configs and upstreams for the dashboard's end-to-end tests.
enum DashboardSetup {
    static let seattle = #"{"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"}"#
    static let sydney = #"{"name": "Sydney", "latitude": -33.8688, "longitude": 151.2093, "timeZone": "Australia/Sydney"}"#

    /// A config folder whose `Fixtures` folder holds the repository's pass fixtures plus
    /// `extraFixtures` (path under Fixtures → file text), with `pass` and `tide` routed to it
    /// and `moon` and `phases` to the Astronomy module.
    static func fixtures(location: String = seattle, extraFixtures: [String: String] = [:], fixturesTTL: String = "\"2m\"",
                         extra: String = "") throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let fixtures = dir.appendingPathComponent("Fixtures")
        let passes = fixtures.appendingPathComponent("pass")
        try FileManager.default.createDirectory(at: passes, withIntermediateDirectories: true)
        let shipped = CLI.packageRoot.appendingPathComponent("Fixtures/pass")
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(name), to: passes.appendingPathComponent(name))
        }
        for (path, text) in extraFixtures {
            let file = fixtures.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        try """
        {"location": \(location),
         "sources": {"fixtures": {"module": "Fixtures", "ttl": \(fixturesTTL)}, "astronomy": {"module": "Astronomy"}},
         "routes": {"pass": "fixtures", "tide": "fixtures", "moon": "astronomy", "phases": "astronomy"},
         "cache": {"directory": "cache"}\(extra)}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    /// WSDOT's API feed (the winter capture) with `change` applied to the entry of pass `id`,
    /// and `adding` appended as one more entry.
    static func feed(changing id: Int? = nil, adding extra: [String: Any]? = nil, _ change: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        let text = try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")
        var entries = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        if let id, let index = entries.firstIndex(where: { $0["MountainPassId"] as? Int == id }) {
            change(&entries[index])
        }
        if let extra { entries.append(extra) }
        return String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
    }

    /// A config folder routing `pass` to WSDOT's API mode on `upstream` (results fresh for
    /// `ttl` seconds) and `moon`/`phases` to Astronomy.
    static func api(upstream: LoopbackServer, ttl: Int, extra: String = "") throws -> URL {
        let dir = try CLI.temporaryDirectory()
        try """
        {"location": \(seattle),
         "sources": {"wsdot": {"module": "WSDOT", "ttl": \(ttl), "options": {"mode": "api", "baseURL": "\(upstream.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}},
                     "astronomy": {"module": "Astronomy"}},
         "routes": {"pass": "wsdot", "moon": "astronomy", "phases": "astronomy"},
         "cache": {"directory": "cache"}\(extra)}
        """.write(to: dir.appendingPathComponent("sources.json"), atomically: true, encoding: .utf8)
        return dir
    }

    static let environment = ["WSDOT_ACCESS_CODE": "ACCESS-5e4d3c2b1a09"]

    /// The page's address for `urns`.
    static func page(_ server: ServeProcess, _ urns: [String]) -> String {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
        let query = urns.map { "urn=" + ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") }.joined(separator: "&")
        return server.base + "/" + (query.isEmpty ? "" : "?" + query)
    }

    /// WCAG's contrast arithmetic for probes evaluated in the page: `parse` a computed colour,
    /// its relative `luminance`, and the contrast `ratio` of two colours.
    static let contrastHelpers = #"""
    const parse = (colour) => (colour.match(/[\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    """#

    /// Evaluated in the page: every card, the moon drawings' lit sides (asked of the browser's
    /// own geometry, `isPointInFill`), the map's markers and where they are, as JSON.
    static let summary = #"""
    (() => {
      // A moon is a square drawing: its lit part a path in a unit box (centre ½, ½; radius 0.48).
      const lit = (figure) => {
        const path = figure.querySelector("path.ink--lit");
        const at = (x, y) => !!path && path.isPointInFill(new DOMPoint(x, y));
        return {right: at(0.94, 0.5), left: at(0.06, 0.5), centre: at(0.5, 0.5), label: figure.querySelector("svg.drawing__plot > title").textContent};
      };
      const cards = Array.from(document.querySelectorAll("article.card")).map((card) => ({
        id: card.id, urn: card.dataset.urn, classes: card.className, status: card.dataset.status || null,
        statusText: card.querySelector(":scope > header .status__word")?.textContent ?? null,
        statusIcon: card.querySelector(":scope > header .status__icon use")?.getAttribute("href") ?? null,
        title: card.querySelector("h2").textContent,
        rows: Array.from(card.querySelectorAll(":scope > .rows > .row")).map((row) => [row.querySelector("dt").textContent, row.querySelector("dd").textContent]),
        rowMoons: Array.from(card.querySelectorAll(":scope > .rows figure.drawing--square")).map(lit),
        moon: card.querySelector(":scope > figure.drawing--square") ? lit(card.querySelector(":scope > figure.drawing--square")) : null,
        lines: card.querySelector(".lines")?.textContent ?? null,
        failure: card.querySelector(".failure")?.textContent ?? null,
        suggestions: Array.from(card.querySelectorAll(".suggestions a")).map((a) => a.getAttribute("href")),
        updated: card.querySelector(".updated")?.textContent ?? null,
        link: card.querySelector("a.card__link")?.href ?? null,
        parts: card.querySelectorAll(".part").length,
        text: card.innerText,
      }));
      const markers = Array.from(document.querySelectorAll(".map a.marker")).map((marker) => {
        const use = marker.querySelector("use");
        const [x, y] = (marker.querySelector("g").getAttribute("transform").match(/translate\(([-\d.]+) ([-\d.]+)\)/) || []).slice(1).map(Number);
        return {card: marker.dataset.card, status: marker.dataset.status, label: marker.getAttribute("aria-label"), shape: use.getAttribute("href"),
                x, y, insideState: marker.closest("svg").querySelector(".map__state").isPointInFill(new DOMPoint(x, y)), map: marker.closest("section").querySelector("h2").textContent, cardExists: Boolean(document.getElementById(marker.getAttribute("href").slice(1))),
                colour: getComputedStyle(marker).fill};
      });
      return {title: document.title, h1: document.querySelector("h1").textContent, cards, markers,
              labels: Array.from(document.querySelectorAll(".map__label")).map((label) => label.textContent),
              headings: Array.from(document.querySelectorAll("h1, h2, h3")).map((h) => h.tagName + " " + h.textContent),
              landmarks: ["header", "main", "footer"].map((name) => document.querySelectorAll(name === "main" ? "main" : "body > " + name).length),
              scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, live: document.documentElement.dataset.live};
    })()
    """#
}
