import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import Synchronization
import TestHarness
import Testing

/// The dashboard at `/` in a real browser (chromium-headless-shell): the page is loaded from
/// `conditions serve` on loopback, backed by fixtures or a loopback WSDOT feed, and what the
/// browser rendered is checked — cards, statuses as words, the moon's lit side by the
/// browser's own geometry, the map's markers, escaping, and a live update without reload.
/// One browser at a time: the machine running the suite has two cores.
@Suite("Dashboard in the browser", .serialized)
struct DashboardBrowserTests {
    /// 2026-11-20 is four days before the full moon of 2026-11-24 (waxing gibbous); 2026-12-05
    /// is four days before the new moon of 2026-12-09 (waning crescent).
    static let waxingDate = "moon:2026-11-20"
    static let waningDate = "moon:2026-12-05"

    static func cards(_ report: Browser.Report) -> [String: [String: Any]] {
        let cards = report.object["cards"] as? [[String: Any]] ?? []
        return Dictionary(cards.map { ($0["urn"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func everyCardTheMoonsAndTheMap() async throws {
        let tide = #"{"urn": "tide:seattle", "route": "tide:{name}", "source": "tides", "fetchedAt": "2026-11-21T14:05:00Z", "data": {"station": "Seattle", "height": 7.2, "stage": "rising"}}"#
        let dir = try DashboardSetup.fixtures(extraFixtures: ["tide/seattle.json": tide])
        defer { try? FileManager.default.removeItem(at: dir) }
        let urns = ["pass:snoqualmie", "pass:chinook", "pass:white", "pass:stevens", Self.waxingDate, Self.waningDate, "phases:4",
                    "tide:seattle", "pass:snoqulmie"]
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let report = try await Browser.load(DashboardSetup.page(server, urns), ["--wait", "document.documentElement.dataset.live === 'open'",
                                                                                    "--eval", DashboardSetup.summary])
            #expect(report.waited == true, "the script opened /v1/events")
            let summary = report.object
            let cards = Self.cards(report)
            #expect(Set(cards.keys) == Set(urns), "one card per URN")
            #expect((summary["cards"] as? [Any])?.count == urns.count)

            // Passes: the status as a word and a shape, each direction, the facts, the link.
            let expected = ["pass:snoqualmie": ("restricted", "#shape-caution"), "pass:chinook": ("closed", "#shape-bad"),
                            "pass:white": ("open", "#shape-good"), "pass:stevens": ("restricted", "#shape-caution")]
            for (urn, (status, shape)) in expected {
                let card = try #require(cards[urn])
                #expect(card["statusText"] as? String == status, "\(urn)")
                #expect(card["status"] as? String == status)
                #expect(card["statusIcon"] as? String == shape)
                #expect((card["link"] as? String)?.hasPrefix("https://wsdot.com/") == true)
            }
            let snoqualmie = try #require(cards["pass:snoqualmie"])
            #expect(snoqualmie["title"] as? String == "Snoqualmie Pass I-90")
            let rows = (snoqualmie["rows"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
            #expect(rows == ["Eastbound: Traction tires advised, oversize vehicles prohibited.",
                             "Westbound: Traction tires advised, oversize vehicles prohibited.",
                             "Conditions: Compact snow and ice on the roadway. Use caution.", "Weather: Light snow",
                             "Temperature: 29°F", "Elevation: 3,022 ft"])
            // The fixture was written on 2026-11-21: days old by now, and marked so.
            #expect((snoqualmie["updated"] as? String)?.contains("ago") == true)
            #expect((snoqualmie["updated"] as? String)?.contains("over a day old") == true)

            // Moons: the browser's geometry says which side is lit.
            let waxing = try #require(cards[Self.waxingDate]?["moon"] as? [String: Any])
            #expect(waxing["right"] as? Bool == true && waxing["left"] as? Bool == false, "waxing, northern: lit on the right \(waxing)")
            #expect((waxing["label"] as? String)?.contains("lit on the right") == true)
            #expect(((cards[Self.waxingDate]?["rows"] as? [[String]])?.first)?.last?.hasPrefix("waxing") == true)
            let waning = try #require(cards[Self.waningDate]?["moon"] as? [String: Any])
            #expect(waning["left"] as? Bool == true && waning["right"] as? Bool == false, "waning, northern: lit on the left \(waning)")
            #expect(waning["centre"] as? Bool == false, "a crescent leaves the centre dark")
            #expect(((cards[Self.waningDate]?["rows"] as? [[String]])?.first)?.last?.hasPrefix("waning") == true)
            let moonRows = (cards[Self.waxingDate]?["rows"] as? [[String]] ?? []).map { $0[0] }
            #expect(moonRows == ["Phase", "Illumination", "Age", "Rises", "Sets"])
            #expect((cards[Self.waxingDate]?["rows"] as? [[String]])?.contains { $0[0] == "Rises" && ($0[1].hasSuffix("PST") || $0[1].hasPrefix("no moonrise")) } == true,
                    "rise and set in the location's zone")

            // Phases: the next four with dates and drawn icons, quarters lit on their own side.
            let phases = try #require(cards["phases:4"])
            let phaseRows = phases["rows"] as? [[String]] ?? []
            #expect(phaseRows.count == 4)
            #expect(phaseRows.allSatisfy { ["new moon", "first quarter", "full moon", "last quarter"].contains($0[0]) && $0[1].contains(":") })
            let icons = phases["rowMoons"] as? [[String: Any]] ?? []
            #expect(icons.count == 4)
            for (row, icon) in zip(phaseRows, icons) {
                switch row[0] {
                case "first quarter": #expect(icon["right"] as? Bool == true && icon["left"] as? Bool == false)
                case "last quarter": #expect(icon["left"] as? Bool == true && icon["right"] as? Bool == false)
                case "full moon": #expect(icon["left"] as? Bool == true && icon["right"] as? Bool == true)
                default: #expect(icon["left"] as? Bool == false && icon["right"] as? Bool == false)
                }
            }

            // Any other kind: its text presentation.
            let tideCard = try #require(cards["tide:seattle"])
            #expect((tideCard["lines"] as? String)?.contains("height  7.2") == true)
            #expect((tideCard["lines"] as? String)?.contains("stage  rising") == true)

            // A failed URN: its one-line error and a suggestion, never a blank card.
            let failed = try #require(cards["pass:snoqulmie"])
            #expect(failed["statusText"] as? String == "failed")
            #expect((failed["failure"] as? String)?.contains("notFound") == true)
            #expect((failed["failure"] as? String)?.contains("no fixture for pass:snoqulmie") == true)
            #expect((failed["suggestions"] as? [String])?.contains("/?urn=pass:snoqualmie") == true)
            #expect(summary["title"] as? String == "Conditions (1 failed)")

            // The map: a marker per pass, placed by latitude and longitude inside the outline.
            let markers = summary["markers"] as? [[String: Any]] ?? []
            #expect(markers.count == 4)
            // The frame is the WSDOT module's outline (its GeoJSON file) and 0.15° around it,
            // longitudes scaled by the cosine of its middle latitude.
            let outline = try JSONSerialization.jsonObject(with: Data(contentsOf: CLI.packageRoot.appendingPathComponent("Plugins/WSDOT/Sources/Resources/washington-outline.json"))) as? [String: Any]
            let rings = ((outline?["geometry"] as? [String: Any])?["coordinates"] as? [[[[Double]]]] ?? []).flatMap { $0 }.flatMap { $0 }
            let west = (rings.map { $0[0] }.min() ?? 0) - 0.15, north = (rings.map { $0[1] }.max() ?? 0) + 0.15
            let south = (rings.map { $0[1] }.min() ?? 0) - 0.15
            try #require(rings.count > 300, "the outline has \(rings.count) points")
            let coordinates = ["card-pass-snoqualmie": (47.41, -121.405833), "card-pass-chinook": (46.8717, -121.515483),
                               "card-pass-white": (46.638333, -121.39), "card-pass-stevens": (Place.stevens.latitude, Place.stevens.longitude)]
            for marker in markers {
                let card = try #require(marker["card"] as? String)
                let (latitude, longitude) = try #require(coordinates[card])
                let x = (longitude - west) * cos((north + south) / 2 * .pi / 180) * 100, y = (north - latitude) * 100
                #expect(abs((marker["x"] as? Double ?? 0) - x) < 0.2 && abs((marker["y"] as? Double ?? 0) - y) < 0.2, "\(card) at \(marker)")
                #expect(marker["insideState"] as? Bool == true, "\(card) lies inside Washington's outline")
                #expect(marker["cardExists"] as? Bool == true, "\(card) links to its card")
                #expect((marker["label"] as? String)?.hasSuffix(": " + (marker["status"] as? String ?? "?")) == true)
            }
            #expect(markers.first { $0["card"] as? String == "card-pass-chinook" }?["shape"] as? String == "#shape-bad")
            #expect(markers.first { $0["card"] as? String == "card-pass-white" }?["shape"] as? String == "#shape-good")
            // Colour follows status too: closed and open markers differ.
            #expect(markers.first { $0["card"] as? String == "card-pass-chinook" }?["colour"] as? String
                    != markers.first { $0["card"] as? String == "card-pass-white" }?["colour"] as? String)
            #expect((summary["labels"] as? [String])?.contains("Snoqualmie") == true)

            // Headings and landmarks a screen reader can use.
            let headings = summary["headings"] as? [String] ?? []
            #expect(headings.first == "H1 Conditions")
            #expect(headings.contains("H2 Passes on the map"))
            #expect(headings.contains("H2 Snoqualmie Pass I-90"))
            #expect(summary["landmarks"] as? [Int] == [1, 1, 1])
        }
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    /// Every text on the page against its background, and the map's markers against the
    /// state's fill, in both colour schemes; and the focus indicator of links and markers.
    @Test func contrastAndFocusMeetWCAGAAInBothSchemes() async throws {
        let dir = try DashboardSetup.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = #"""
        (() => {
          \#(DashboardSetup.contrastHelpers)
          const background = (element) => {
            for (let e = element; e; e = e.parentElement) {
              const colour = parse(getComputedStyle(e).backgroundColor);
              if (colour.length === 3 || colour[3] > 0) return colour;
            }
            return [255, 255, 255];
          };
          const texts = [];
          for (const element of document.body.querySelectorAll("*")) {
            if (!Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.data.trim())) continue;
            if (element.closest("svg, .visually-hidden, .skip, noscript")) continue;
            texts.push([ratio(parse(getComputedStyle(element).color), background(element)), element.tagName + " " + element.textContent.trim().slice(0, 30)]);
          }
          texts.sort((a, b) => a[0] - b[0]);
          const state = parse(getComputedStyle(document.querySelector(".map__state")).fill);
          const markers = Array.from(document.querySelectorAll(".marker__shape")).map((shape) => ratio(parse(getComputedStyle(shape).fill), state));
          const link = document.querySelector("a.card__link");
          link.focus();
          const linkFocus = getComputedStyle(link).outlineStyle + " " + getComputedStyle(link).outlineWidth;
          const marker = document.querySelector("a.marker");
          marker.focus();
          const markerFocus = getComputedStyle(marker.querySelector(".marker__shape")).strokeWidth;
          return {count: texts.length, worst: texts.slice(0, 3), markers: Math.min(...markers), linkFocus, markerFocus,
                  focused: document.activeElement === marker};
        })()
        """#
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let page = DashboardSetup.page(server, ["pass:white", "pass:chinook", "pass:snoqualmie", "pass:snoqulmie", Self.waxingDate, "phases:4"])
            for scheme in [[], ["--dark"]] {
                let report = try await Browser.load(page, scheme + ["--eval", probe])
                let result = report.object
                #expect((result["count"] as? Int ?? 0) > 50, "every text element was measured")
                let worst = try #require((result["worst"] as? [[Any]])?.first)
                #expect((worst[0] as? Double ?? 0) >= 4.5, "\(scheme): text contrast at least 4.5:1; lowest: \(worst)")
                #expect((result["markers"] as? Double ?? 0) >= 3, "\(scheme): markers at least 3:1 against the state")
                #expect(result["linkFocus"] as? String == "solid 3px", "\(scheme): a visible focus outline")
                #expect(result["markerFocus"] as? String == "2.5px", "\(scheme): a focused marker is outlined")
                #expect(result["focused"] as? Bool == true, "markers take keyboard focus")
            }
        }
    }

    @Test func southOfTheEquatorTheMoonIsMirrored() async throws {
        let dir = try DashboardSetup.fixtures(location: DashboardSetup.sydney)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let report = try await Browser.load(DashboardSetup.page(server, [Self.waxingDate, Self.waningDate, "phases:4"]),
                                                ["--wait", "document.documentElement.dataset.live === 'open'", "--eval", DashboardSetup.summary])
            let cards = Self.cards(report)
            let waxing = try #require(cards[Self.waxingDate]?["moon"] as? [String: Any])
            #expect(waxing["left"] as? Bool == true && waxing["right"] as? Bool == false, "waxing seen from Sydney: lit on the left \(waxing)")
            let waning = try #require(cards[Self.waningDate]?["moon"] as? [String: Any])
            #expect(waning["right"] as? Bool == true && waning["left"] as? Bool == false, "waning seen from Sydney: lit on the right \(waning)")
            #expect((cards[Self.waxingDate]?["rows"] as? [[String]])?.contains { $0[0] == "Rises" && ($0[1].contains("AEDT") || $0[1].hasPrefix("no")) } == true,
                    "times in Sydney's zone: \(String(describing: cards[Self.waxingDate]?["rows"]))")
            let phaseRows = cards["phases:4"]?["rows"] as? [[String]] ?? []
            let icons = cards["phases:4"]?["rowMoons"] as? [[String: Any]] ?? []
            for (row, icon) in zip(phaseRows, icons) where row[0] == "first quarter" {
                #expect(icon["left"] as? Bool == true && icon["right"] as? Bool == false, "a first quarter from the south is lit on the left")
            }
            #expect((report.object["markers"] as? [Any])?.isEmpty == true, "no pass, no map")
        }
    }

    @Test func aFeedPassShowsItsCameraLazilyWithItsTitleAndItsForecast() async throws {
        let (upstream, dir) = try FeedModeServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        let camera = #"""
        (() => {
          const img = document.querySelector("#card-pass-snoqualmie .card__image img");
          const rows = Array.from(document.querySelectorAll("#card-pass-snoqualmie .rows .row")).map((row) => row.querySelector("dt").textContent);
          return {src: img?.getAttribute("src") ?? null, alt: img?.alt ?? null, loading: img?.loading ?? null,
                  caption: document.querySelector("#card-pass-snoqualmie .card__image figcaption")?.textContent ?? null,
                  captionHidden: document.querySelector("#card-pass-snoqualmie .card__image figcaption")?.getAttribute("aria-hidden") ?? null,
                  shownWidth: img ? img.getBoundingClientRect().width : 0, rows,
                  images: document.querySelectorAll("img").length};
        })()
        """#
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let report = try await Browser.load(DashboardSetup.page(server, ["pass:snoqualmie", "pass:disautel"]),
                                                ["--wait", "document.documentElement.dataset.live === 'open'", "--eval", camera])
            let seen = report.object
            #expect(seen["src"] as? String == "https://images.wsdot.wa.gov/sc/090VC05200.jpg")
            #expect(seen["alt"] as? String == "I-90 at MP 52: Snoqualmie Summit")
            #expect(seen["loading"] as? String == "lazy")
            #expect(seen["caption"] as? String == "I-90 at MP 52: Snoqualmie Summit")
            #expect(seen["captionHidden"] as? String == "true", "the alt text already says it to a screen reader")
            #expect((seen["shownWidth"] as? Double ?? 0) > 100, "the picture's box is laid out before it loads (width and height set)")
            #expect(seen["rows"] as? [String] == ["Alert", "Eastbound", "Westbound", "Conditions", "Weather", "Temperature", "Elevation", "Tonight", "Tuesday"])
            #expect(seen["images"] as? Int == 1, "Disautel has no camera in this feed")
        }
    }

    @Test func withoutJavaScriptThePageIsCompleteAndReloadsItself() async throws {
        let dir = try DashboardSetup.fixtures(fixturesTTL: "\"2m\"", extra: #", "report": ["pass:snoqualmie", "pass:chinook", "moon:2026-11-20", "phases:3"]"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let report = try await Browser.load(server.base + "/", ["--no-script", "--dom", "--count", "meta[http-equiv=refresh]", "--count", "article.card"])
            let dom = report.dom
            // The config's report list, server-rendered: nothing needed a script.
            for urn in ["pass:snoqualmie", "pass:chinook", "moon:2026-11-20", "phases:3"] {
                #expect(dom.contains("data-urn=\"\(urn)\""), "\(urn)")
            }
            #expect(dom.contains(#"<span class="status__word">restricted</span>"#))
            #expect(dom.contains(#"<span class="status__word">closed</span>"#))
            #expect(dom.contains(#"lit on the right</title>"#), "the moon drawn on the server, named")
            #expect(dom.contains(##"class="marker tone-bad" href="#card-pass-chinook""##))
            #expect(dom.contains(#"<html lang="en" data-live="off">"#), "no script ran")
            // Without scripts the <noscript> is markup: the page reloads at the shortest TTL (2 min).
            let counts = report.json["counts"] as? [String: Int] ?? [:]
            #expect(counts["meta[http-equiv=refresh]"] == 1, "the refresh is an element when scripts are off")
            #expect(counts["article.card"] == 4)
            #expect(dom.contains(#"<meta http-equiv="refresh" content="120">"#), "\(dom.prefix(1500))")
            // With scripts on it stays inert text: the live page never reloads itself.
            let live = try await Browser.load(server.base + "/", ["--count", "meta[http-equiv=refresh]"])
            #expect((live.json["counts"] as? [String: Int])?["meta[http-equiv=refresh]"] == 0)
        }
    }

    /// Upstream text built to break out: markup, a script, quotes, bidi overrides, a word
    /// too long for any line. It must show as text, run nothing and keep the layout.
    @Test func maliciousUpstreamTextIsShownAsTextAndRunsNothing() async throws {
        let script = #"<script>document.title='pwned';window.pwned=1</script>"#
        let image = #""><img src=x onerror="document.title='pwned';window.pwned=2">"#
        let quotes = #"' onmouseover='window.pwned=3' data-x="y"#
        let bidi = "\u{202E}closed\u{202C} no restrictions \u{2067}abc"
        let long = String(repeating: "W", count: 400)
        let hostileName = "Evil \(script) Pass SR 1"
        let feed = try DashboardSetup.feed(changing: 11, adding: [
            "DateUpdated": "/Date(1765784463873-0800)/", "ElevationInFeet": 1000, "Latitude": 47.0, "Longitude": -120.0,
            "MountainPassId": 42, "MountainPassName": hostileName,
            "RestrictionOne": ["TravelDirection": "Eastbound", "RestrictionText": image], "RestrictionTwo": NSNull(),
            "RoadCondition": bidi, "TemperatureInFahrenheit": 20, "TravelAdvisoryActive": true, "WeatherCondition": quotes,
        ]) { entry in
            entry["RoadCondition"] = image
            entry["WeatherCondition"] = quotes + " " + long
            entry["RestrictionOne"] = ["TravelDirection": "East\(script)", "RestrictionText": bidi]
        }
        let upstream = LoopbackServer()
        upstream.route("/api/GetMountainPassConditionsAsJson", .json(feed))
        try upstream.start()
        defer { upstream.stop() }
        let dir = try DashboardSetup.api(upstream: upstream, ttl: 300, extra: #", "dashboard": {"title": "<b>Passes</b> \"&\" 'co'"}"#)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A generic result with hostile keys and values, and a URN that fails with hostile text.
        let hostileURN = "pass:<img src=x onerror=window.pwned=4>"
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: DashboardSetup.environment) { server in
            let probe = #"""
            (() => {
              const handlers = Array.from(document.querySelectorAll("*")).flatMap((e) => Array.from(e.attributes).filter((a) => a.name.startsWith("on")).map((a) => e.tagName + " " + a.name));
              const overrides = [];
              const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
              while (walker.nextNode()) {
                const node = walker.currentNode;
                if (/[\u202A-\u202E\u2066-\u2069]/.test(node.data)) overrides.push(Boolean(node.parentElement.closest("bdi, [dir]")));
              }
              const card = document.getElementById("card-pass-snoqualmie");
              return {title: document.title, h1: document.querySelector("h1").textContent, pwned: window.pwned ?? null,
                      scripts: Array.from(document.scripts).map((s) => s.getAttribute("src")), images: document.images.length,
                      iframes: document.querySelectorAll("iframe, object, embed").length, handlers, overrides,
                      snoqualmie: card ? card.innerText : null,
                      parts: Array.from(document.querySelectorAll("#card-pass-all .part h3")).map((h) => h.textContent),
                      failed: Array.from(document.querySelectorAll("article.card")).map((c) => c.dataset.urn),
                      failure: document.querySelector("article.card--failed .failure")?.textContent ?? null,
                      scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
            })()
            """#
            // The narrowest phone and a wide desktop screen.
            for width in ["360x740", "1920x1080"] {
                let report = try await Browser.load(DashboardSetup.page(server, ["pass:snoqualmie", "pass:stevens", "pass:all", hostileURN]),
                                                    ["--window", width, "--wait", "document.documentElement.dataset.live === 'open'", "--eval", probe])
                #expect(report.waited == true, "the page's own script ran and opened the event stream")
                let result = report.object
                #expect(result["pwned"] is NSNull, "no upstream script or handler ran: \(String(describing: result["pwned"]))")
                #expect(result["title"] as? String == #"<b>Passes</b> "&" 'co' (1 failed)"#, "the title is text, and no script changed it")
                #expect(result["h1"] as? String == #"<b>Passes</b> "&" 'co'"#)
                let scripts = result["scripts"] as? [String] ?? []
                #expect(scripts.count == 1 && scripts[0].hasPrefix("/assets/dashboard.js?v="), "only the page's own script: \(scripts)")
                #expect(result["images"] as? Int == 0)
                #expect(result["iframes"] as? Int == 0)
                #expect((result["handlers"] as? [String])?.isEmpty == true, "no inline event handler: \(String(describing: result["handlers"]))")
                let overrides = result["overrides"] as? [Bool] ?? []
                #expect(!overrides.isEmpty && overrides.allSatisfy { $0 }, "every bidi control sits inside an isolating element")
                let text = try #require(result["snoqualmie"] as? String)
                #expect((result["parts"] as? [String])?.contains(hostileName) == true, "a pass named by the feed, its name as text")
                #expect(text.contains(image))
                #expect(text.contains(quotes))
                #expect(text.contains(bidi))
                #expect(text.contains("East\(script)"))
                #expect((result["failed"] as? [String])?.contains(hostileURN) == true)
                #expect((result["failure"] as? String)?.contains("<img src=x onerror=window.pwned=4>") == true, "the failure's message, as text")
                let scrollWidth = try #require(result["scrollWidth"] as? Int), innerWidth = try #require(result["innerWidth"] as? Int)
                #expect(scrollWidth <= innerWidth, "\(width): a 400-letter word does not widen the page (\(scrollWidth) > \(innerWidth))")
            }
        }
    }

    /// The page is loaded; only then does the upstream close Snoqualmie. The server's poll
    /// (TTL 1 s) sees it, `/v1/events` sends `change`, and the page swaps that card alone.
    @Test func aChangeUpstreamReachesTheOpenPageWithoutReload() async throws {
        let restricted = try DashboardSetup.feed()
        let closed = try DashboardSetup.feed(changing: 11) { entry in
            entry["RestrictionOne"] = ["TravelDirection": "Eastbound", "RestrictionText": "Pass Closed"]
            entry["RestrictionTwo"] = ["TravelDirection": "Westbound", "RestrictionText": "Pass Closed"]
        }
        let flipped = Atomic<Bool>(false)
        let upstream = LoopbackServer()
        upstream.route("/api/GetMountainPassConditionsAsJson") { _ in .json(flipped.load(ordering: .sequentiallyConsistent) ? closed : restricted) }
        upstream.route("/flip") { _ in
            flipped.store(true, ordering: .sequentiallyConsistent)
            return .text("flipped")
        }
        try upstream.start()
        defer { upstream.stop() }
        let dir = try DashboardSetup.api(upstream: upstream, ttl: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: DashboardSetup.environment) { server in
            let before = #"""
            (() => {
              window.sameDocument = true;
              document.getElementById("card-pass-stevens").dataset.mark = "untouched";
              return document.getElementById("card-pass-snoqualmie").dataset.status;
            })()
            """#
            let after = #"""
            (() => {
              const card = document.getElementById("card-pass-snoqualmie");
              return {status: card.dataset.status, word: card.querySelector(".status__word").textContent, changed: card.classList.contains("card--changed"),
                      rows: Array.from(card.querySelectorAll(".rows dd")).slice(0, 3).map((d) => d.textContent),
                      stevens: document.getElementById("card-pass-stevens").dataset.mark ?? null, sameDocument: window.sameDocument === true,
                      announced: document.getElementById("announcer").textContent, updates: document.documentElement.dataset.updates,
                      marker: document.querySelector('a.marker[data-card="card-pass-snoqualmie"]').dataset.status,
                      markerShape: document.querySelector('a.marker[data-card="card-pass-snoqualmie"] use').getAttribute("href"),
                      markerLabel: document.querySelector('a.marker[data-card="card-pass-snoqualmie"]').getAttribute("aria-label")};
            })()
            """#
            let report = try await Browser.load(DashboardSetup.page(server, ["pass:snoqualmie", "pass:stevens"]), [
                "--before", before, "--then-get", upstream.url("/flip").absoluteString,
                "--wait", #"document.getElementById("card-pass-snoqualmie").dataset.status === "closed""#, "--eval", after,
            ], timeout: 45)
            #expect(report.json["before"] as? String == "restricted", "the page was rendered before the upstream changed")
            #expect(report.waited == true, "the change arrived over /v1/events")
            let result = report.object
            #expect(result["word"] as? String == "closed")
            #expect(result["changed"] as? Bool == true, "the changed card is marked")
            // Where the closure was read and its words, then each direction.
            #expect(result["rows"] as? [String] == ["the restriction texts: “Pass Closed”", "Pass Closed", "Pass Closed"])
            #expect(result["stevens"] as? String == "untouched", "the unchanged card was left alone")
            #expect(result["sameDocument"] as? Bool == true, "no reload")
            #expect(report.navigations == 0, "no navigation")
            #expect(result["announced"] as? String == "Snoqualmie Pass I-90 is now closed.", "announced politely to screen readers")
            #expect(result["marker"] as? String == "closed")
            #expect(result["markerShape"] as? String == "#shape-bad")
            #expect(result["markerLabel"] as? String == "Snoqualmie Pass I-90: closed")
            // The page the server made before the change is not answered again after it: its
            // lifetime ended with its answers' freshness (TTL 1 s), before the server refetched.
            let reloaded = try await server.request("/?urn=pass:snoqualmie&urn=pass:stevens")
            #expect(reloaded.body.contains(#"id="card-pass-snoqualmie" data-urn="pass:snoqualmie" data-state="closed""#))
        }
    }
}
