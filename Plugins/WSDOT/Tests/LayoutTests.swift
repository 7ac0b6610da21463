import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import WSDOT

let siteBase = "https://wsdot.com/travel/real-time/mountainpasses"

/// One `div.condition` row of the current layout.
func conditionRow(_ label: String, _ value: String) -> String {
    #"<div class="condition" data-v-1a2b3c4d=""><div class="conditionLabel" data-v-1a2b3c4d="">\#(label)</div><div class="conditionValue" data-v-1a2b3c4d="">\#(value)</div></div>"#
}

/// A rendered current-layout page holding `rows`.
func currentPage(_ rows: [String]) -> String {
    #"<html><body><main id="index" data-v-app=""><div class="column-1"><h2>Pass report</h2>\#(rows.joined())</div></main></body></html>"#
}

/// The rows of a healthy east/west report, for tests that change one of them.
let healthyRows = [
    conditionRow("Temperature", "34°F / 1°C as of 7:24 AM 11/02/2025"),
    conditionRow("Elevation", "4061 ft / 1238 m"),
    conditionRow("Travel eastbound", "No restrictions"),
    conditionRow("Travel westbound", "No restrictions"),
    conditionRow("Conditions", "Bare and wet."),
    conditionRow("Weather", "Snowing lightly."),
    conditionRow("Last updated", #"Sunday, November 2, 2025 7:24 AM <a href="/d">[Disclaimer]</a>"#),
]

@Suite("HTML mode: the current wsdot.com layout")
struct LayoutTests {
    func source(_ extra: String = "") throws -> WSDOTPassSource {
        try makeSource(.json(#"{"passes": ["stevens", "blewett", "chinook", "snoqualmie", "mt-baker"]\#(extra)}"#))
    }

    func page(_ html: String) -> RecordingHTTPClient.Reply { .body(Data(html.utf8), contentType: "text/html; charset=utf-8") }

    @Test("a rendered page is read by label; the default base is mountainpasses with no trailing slash")
    func renderedPage() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/stevens": try .htmlFixture("current-stevens-rendered.html")])
        let data = try await resolve("pass:stevens", with: try source(), http: http)
        let chains = "Traction Tires Required, Chains required on Vehicles over 10,000 gross vehicle weight. Oversize Vehicles Prohibited."
        #expect(data == [
            "id": "stevens", "name": "Stevens Pass US 2", "status": "restricted",
            "conditions": "Compact snow and ice on the road.", "weather": "Light snow.",
            "temperatureF": 28, "elevationFt": 4061,
            "restrictions": [
                ["direction": "Eastbound", "text": .string(chains), "status": "restricted"],
                ["direction": "Westbound", "text": .string(chains), "status": "restricted"],
            ],
            "updated": "2024-01-11T04:45:00Z",
            "reportAge": .int(1_765_785_000 - 1_704_948_300),
            "url": "https://wsdot.com/travel/real-time/mountainpasses/stevens",
            "travelAdvisory": nil,
        ])
    }

    @Test("site slugs differ from ours for some passes; `pages` still overrides")
    func siteSlugs() throws {
        var options = SourceOptions(path: "p", object: try .json(#"{"pages": {"white": "https://example.org/white-pass"}}"#), baseDirectory: URL(fileURLWithPath: "/tmp"))
        let settings = try WSDOTSettings(options: &options)
        func url(_ slug: String) -> String? { PassCatalog.pass(named: slug).map { settings.pageURL(for: $0).absoluteString } }
        #expect(url("north-cascade") == "\(siteBase)/north-cascade-hwy")
        #expect(url("crystal-greenwater") == "\(siteBase)/crystal-to-greenwater")
        #expect(url("mt-baker") == "\(siteBase)/mt.-baker")
        #expect(url("snoqualmie") == "\(siteBase)/snoqualmie")
        #expect(url("tiger-mountain") == "\(siteBase)/tiger-mountain")
        #expect(url("white") == "https://example.org/white-pass")
    }

    @Test("a north/south pass takes its directions from the labels")
    func northSouth() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/blewett": try .htmlFixture("current-blewett-northsouth.html")])
        let data = try await resolve("pass:blewett", with: try source(), http: http)
        #expect(data["restrictions"] == [
            ["direction": "Northbound", "text": "Traction tires advised.", "status": "restricted"],
            ["direction": "Southbound", "text": "No restrictions", "status": "open"],
        ])
        #expect(data["status"] == "restricted")
        #expect(data["updated"] == "2025-12-15T14:10:00Z")
    }

    @Test("a closed pass: closed status, `--°F` is a null temperature, an empty weather is null")
    func closedPass() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/chinook": try .htmlFixture("current-chinook-closed.html")])
        let data = try await resolve("pass:chinook", with: try source(), http: http)
        #expect(data["status"] == "closed")
        #expect(data["temperatureF"] == .null)
        #expect(data["weather"] == .null)
        #expect(data["elevationFt"] == 5430)
    }

    @Test("odd whitespace, other cases, NBSP in labels, a repeated row, an unknown label, trailing links")
    func oddWhitespace() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/snoqualmie": try .htmlFixture("current-odd-whitespace.html")])
        let data = try await resolve("pass:snoqualmie", with: try source(), http: http)
        #expect(data["temperatureF"] == 27)
        // The first `Travel eastbound` row wins, as the first XPath match does in the classic layout.
        #expect(data["restrictions"] == [
            ["direction": "Eastbound", "text": "Traction tires advised, oversize vehicles prohibited.", "status": "restricted"],
            ["direction": "Westbound", "text": "No restrictions west of North Bend", "status": "open"],
        ])
        #expect(data["conditions"] == "Compact snow and ice on the roadway.")
        #expect(data["weather"] == .null)
        #expect(data["updated"] == "2025-12-15T13:30:00Z")
        #expect(data["extra"] == ["Snow depth at summit": "41 in"])
        #expect(data["elevationFt"] == 3022)
    }

    @Test("the application shell fails with one line naming both fixes, never `missing fields`")
    func shell() async throws {
        let http = RecordingHTTPClient(["\(siteBase)/stevens": try .htmlFixture("current-shell.html")])
        let error = try #require(await resolveError("pass:stevens", with: try source(), http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains("filled in by JavaScript"))
        #expect(error.message.contains(#""render": "chromium""#))
        #expect(error.message.contains(#""mode": "api""#))
        #expect(!error.message.contains("missing"))
        #expect(!error.message.contains("\n"))
        // `layout: current` says the same.
        let forced = try #require(await resolveError("pass:stevens", with: try source(#", "layout": "current""#), http: http) as? ConditionsError)
        #expect(forced.message == error.message)
    }

    @Test("layout classic ignores the current rows; layout current ignores classic spans")
    func forcedLayouts() async throws {
        let http = RecordingHTTPClient([
            "\(siteBase)/stevens": try .htmlFixture("current-stevens-rendered.html"),
            "\(siteBase)/snoqualmie": try .htmlFixture("snoqualmie-winter.html"),
        ])
        let classic = try #require(await resolveError("pass:stevens", with: try source(#", "layout": "classic""#), http: http) as? ConditionsError)
        #expect(classic.message.contains("missing fields conditions, restrictionOne, restrictionTwo, updated (classic layout"))
        let current = try #require(await resolveError("pass:snoqualmie", with: try source(#", "layout": "current""#), http: http) as? ConditionsError)
        #expect(current.message.contains("no row labelled Conditions"))
        // auto reads each page with its own layout.
        #expect(try await resolve("pass:snoqualmie", with: try source(), http: http)["temperatureF"] == 28)
        #expect(try await resolve("pass:stevens", with: try source(), http: http)["temperatureF"] == 28)
        #expect(configurationError(try .json(#"{"layout": "new"}"#))?.message.contains("layout") == true)
    }

    @Test("`fields` overrides one field whatever the layout, and implies nothing else")
    func fieldsOverride() async throws {
        let rows = healthyRows + [#"<p class="road">Chains everywhere</p>"#]
        let http = RecordingHTTPClient(["\(siteBase)/stevens": page(currentPage(rows))])
        let data = try await resolve("pass:stevens", with: try source(#", "fields": {"conditions": "//p[@class='road']", "restrictionTwo": "//p[@class='road']"}"#), http: http)
        #expect(data["conditions"] == "Chains everywhere")
        #expect(data["restrictions"]?[index: 1]?["text"] == "Chains everywhere")
        #expect(data["restrictions"]?[index: 0]?["text"] == "No restrictions")
        #expect(data["temperatureF"] == 34)
    }

    @Test("bad rows: a non-date Last updated fails its pass in one line; a missing report row is named")
    func badRows() async throws {
        var rows = healthyRows
        rows[6] = conditionRow("Last updated", "Not available <a>[Disclaimer]</a>")
        let http = RecordingHTTPClient([
            "\(siteBase)/stevens": page(currentPage(rows)),
            "\(siteBase)/snoqualmie": page(currentPage(Array(healthyRows.prefix(4)))),
        ])
        let error = try #require(await resolveError("pass:stevens", with: try source(), http: http) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains(#"cannot read the last-update time "Not available""#))
        let missing = try #require(await resolveError("pass:snoqualmie", with: try source(), http: http) as? ConditionsError)
        #expect(missing.message.contains("no row labelled Conditions, Last updated"))
        #expect(!missing.message.contains("\n") && !error.message.contains("\n"))
    }

    @Test("pass:all with one shell page fails naming that pass only")
    func passAllWithAShell() async throws {
        let source = try makeSource(.json(#"{"passes": ["stevens", "blewett"]}"#))
        let http = RecordingHTTPClient([
            "\(siteBase)/stevens": try .htmlFixture("current-shell.html"),
            "\(siteBase)/blewett": try .htmlFixture("current-blewett-northsouth.html"),
        ])
        let error = try #require(await resolveError("pass:all", with: source, http: http))
        let report = ConditionsError.report(error)
        #expect(report.message.hasPrefix("1 of 2 passes failed: stevens ("))
        #expect(report.kind == .badResponse)
    }
}
