import Foundation
import TestHarness
import Testing

/// One kind, two states' maps (issue 42): `pass` cards of Washington (WSDOT's recordings) and
/// California (Caltrans's offline recordings, `Fixtures/pass/ebbetts.json` and `donner.json`)
/// on one page. Each module adds its own map for the kind; the browser shows two maps, each
/// pass's marker on the map whose frame holds it, linking to its card.
extension DashboardBrowserTests {
    static let mapsProbe = #"""
    (() => Array.from(document.querySelectorAll("section.map")).map((map) => ({
      title: map.querySelector("h2").textContent,
      area: map.querySelector("desc").textContent,
      markers: Array.from(map.querySelectorAll("a.marker")).map((marker) => [marker.dataset.card, marker.dataset.status, marker.getAttribute("aria-label")]),
    })))()
    """#

    @Test func passesOfTwoStatesGoOnTheirStatesMaps() async throws {
        let dir = try DashboardSetup.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let page = DashboardSetup.page(server, ["pass:stevens", "pass:ebbetts", "pass:snoqualmie", "pass:donner"])
            let report = try await Browser.load(page, ["--window", "1280x900", "--eval", Self.mapsProbe])
            let maps = try #require(report.value as? [[String: Any]], "\(report.json)")
            #expect(maps.map { $0["title"] as? String } == ["Passes on the map", "California passes on the map"], "in the order of their first markers")
            let markers = maps.map { ($0["markers"] as? [[String]] ?? []).map { $0.first ?? "" } }
            #expect(markers == [["card-pass-stevens", "card-pass-snoqualmie"], ["card-pass-ebbetts", "card-pass-donner"]], "\(maps)")
            #expect((maps.last?["area"] as? String)?.hasPrefix("California with 2 passes") == true || (maps.last?["area"] as? String)?.hasPrefix("California with") == true,
                    "\(maps.last?["area"] ?? "")")
            let ebbetts = (maps.last?["markers"] as? [[String]])?.first
            #expect(ebbetts?[1] == "restricted" && ebbetts?[2].hasPrefix("Ebbetts Pass SR 4") == true, "\(ebbetts ?? [])")
        }
    }
}
