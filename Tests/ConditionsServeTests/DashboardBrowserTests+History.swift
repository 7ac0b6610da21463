import Foundation
import TestHarness
import Testing

extension DashboardBrowserTests {
    /// A pass card's 48-hour strip as the browser lays it out: each stretch of a status a
    /// rectangle as wide as its share of the 48 hours, coloured by its tone, in time order, and
    /// the same stretches as text that screen readers read (the picture itself hidden from them).
    @Test func theHistoryStripShowsTheLast48HoursAndSaysThemInText() async throws {
        let dir = try DashboardSetup.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The store as serve would find it: the fixture's state recorded now, and three older
        // changes written through the store's own view (Python's sqlite3, as another program would).
        let recorded = try await CLI.run(["--config", "sources.json", "--record", "pass:stevens"], in: dir, environment: ["HOME": dir.path])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let store = dir.appendingPathComponent(".local/state/conditions/history.sqlite")
        let insert = """
            import json, sqlite3, sys, time
            record = json.load(open(sys.argv[2]))
            now = int(time.time() * 1000)
            db = sqlite3.connect(sys.argv[1])
            for hours, status, key in [(40, "open", b"a" * 16), (20, "closed", b"b" * 16), (5, "open", b"c" * 16)]:
                record["data"]["status"] = status
                db.execute("INSERT INTO observations (urn, at, key, status, result, cutoff) VALUES (?, ?, ?, ?, ?, 0)",
                           ("pass:stevens", now - hours * 3600000, key, status, json.dumps(record)))
            db.commit()
            """
        let python = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", insert, store.path, dir.appendingPathComponent("Fixtures/pass/stevens.json").path],
                                              in: dir, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(python.status == 0, "\(python.stderr)")
        let probe = #"""
        (() => {
          const card = document.querySelector('article[data-urn="pass:stevens"]');
          const figure = card.querySelector("figure.history");
          if (!figure) return {missing: true, cards: document.querySelectorAll("figure.history").length};
          const svg = figure.querySelector("svg");
          const box = svg.getBoundingClientRect();
          const rects = Array.from(svg.querySelectorAll("rect")).map((rect) => {
            const r = rect.getBoundingClientRect();
            return {word: rect.dataset.word, tone: rect.getAttribute("class"), left: r.left - box.left, width: r.width,
                    title: rect.querySelector("title").textContent, fill: getComputedStyle(rect).fill};
          });
          const text = Array.from(figure.querySelectorAll("ul.history__text li")).map((li) => li.textContent);
          const list = figure.querySelector("ul.history__text");
          return {width: box.width, hidden: svg.getAttribute("aria-hidden"), rects, text,
                  listHidden: list.getBoundingClientRect().width <= 1,
                  label: document.getElementById(figure.getAttribute("aria-labelledby"))?.textContent ?? null,
                  cardRight: card.getBoundingClientRect().right, stripRight: box.right};
        })()
        """#
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let report = try await Browser.load(DashboardSetup.page(server, ["pass:stevens", "moon:now"]), ["--window", "390x844", "--eval", probe])
            let object = report.object
            #expect(object["missing"] == nil, "no strip on the pass card: \(object)")
            let rects = object["rects"] as? [[String: Any]] ?? []
            #expect(rects.map { $0["word"] as? String } == ["open", "closed", "open", "restricted"], "\(rects)")
            let width = object["width"] as? Double ?? 0
            #expect(width > 200, "the strip spans the card: \(width)")
            // 40 → 20 h ago, 20 → 5 h ago, 5 h ago → the fixture's state recorded a moment ago.
            for (index, hours) in [(0, 20.0), (1, 15.0), (2, 5.0)] {
                let rect = rects[index]
                #expect(abs((rect["width"] as? Double ?? 0) - width * hours / 48) < 1.5, "\(rect) is \(hours) h of 48")
            }
            #expect(abs((rects.first?["left"] as? Double ?? 0) - width * 8 / 48) < 1.5, "the first stretch starts 40 h ago: \(rects.first ?? [:])")
            #expect(rects.map { $0["tone"] as? String } == ["history__stretch tone-good", "history__stretch tone-bad", "history__stretch tone-good", "history__stretch tone-caution"])
            #expect(Set(rects.compactMap { $0["fill"] as? String }).count == 3, "three tones, three colours: \(rects)")
            // The same information as text: the picture is hidden from screen readers, the list is not.
            #expect(object["hidden"] as? String == "true")
            let text = object["text"] as? [String] ?? []
            #expect(text.count == 4)
            for (line, rect) in zip(text, rects) {
                let title = rect["title"] as? String ?? ""
                #expect(line == title.replacingOccurrences(of: ": ", with: " from ").replacingOccurrences(of: " – ", with: " to "), "\(line) says what \(title) shows")
            }
            #expect(text.last?.hasSuffix(" to now") == true, "\(text)")
            #expect(object["listHidden"] as? Bool == true, "the list is for screen readers only")
            #expect((object["label"] as? String)?.contains("Status over the last 48 hours, 4 stretches") == true, "\(object["label"] ?? "")")
            #expect((object["stripRight"] as? Double ?? .infinity) <= (object["cardRight"] as? Double ?? 0), "inside the card")
        }
    }
}
