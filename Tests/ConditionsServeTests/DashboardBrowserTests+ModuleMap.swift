import ConditionsCore
import Foundation
import TestHarness
import Testing
import TestSources

/// The server draws a map it knows nothing about: a test-only module's (Echo's Testland, a
/// triangle around Seattle), laid out from the layer alone, in headless Chromium.
extension DashboardBrowserTests {
    @Test func aMapFromAModuleTheServerDoesNotKnow() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-echo-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"""
            {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
             "sources": {"echo": {"module": "Echo"}}, "routes": {"echo": "echo"}, "cache": {"enabled": false}}
            """#.utf8).write(to: dir.appendingPathComponent("sources.json"))
        try await InProcessServer.with(in: dir, catalog: SourceCatalog([EchoSource.self])) { server in
            let report = try await Browser.load("http://127.0.0.1:\(server.port)/?urn=echo:loud&urn=echo:quiet",
                                                ["--wait", "document.documentElement.dataset.live === 'open'", "--eval", DashboardSetup.summary])
            let summary = report.object
            #expect((summary["headings"] as? [String])?.contains("H2 Echoes on the map") == true, "\(summary["headings"] ?? "")")
            let markers = summary["markers"] as? [[String: Any]] ?? []
            #expect(markers.map { $0["card"] as? String } == ["card-echo-loud", "card-echo-quiet"])
            for marker in markers {
                #expect(marker["map"] as? String == "Echoes on the map")
                #expect(marker["insideState"] as? Bool == true, "\(marker) lies inside Testland's outline")
                #expect(marker["cardExists"] as? Bool == true)
            }
            // Tones from the card's status: loud is good (a circle), quiet a caution (a triangle).
            #expect(markers.map { $0["shape"] as? String } == ["#shape-good", "#shape-caution"])
            #expect(summary["labels"] as? [String] == ["loud", "quiet"])
            // The outline is the layer's triangle, and the key its legend.
            let dom = try await Browser.load("http://127.0.0.1:\(server.port)/?urn=echo:loud", ["--eval", #"""
                ({outline: document.querySelector(".map__state").getAttribute("d"),
                  desc: document.querySelector(".map desc").textContent,
                  legend: Array.from(document.querySelectorAll(".map .legend li")).map((item) => item.textContent)})
                """#]).object
            #expect((dom["outline"] as? String)?.filter { $0 == "L" }.count == 2, "\(dom["outline"] ?? "")")
            #expect(dom["desc"] as? String == "Testland with 1 marker; each is a link to its card.")
            #expect(dom["legend"] as? [String] == ["loud", "quiet"])
        }
    }
}
