import ConditionsKit
import ConditionsKitTesting
import Foundation
import AvalancheStandIn
import LoopbackServer
import TestHarness
import Testing

/// The Avalanche module through the built binary (issue 33), against the loopback stand-in for
/// avalanche.org built on its real bodies and the NWAC map layers and pass forecasts derived
/// from real values: text and JSON, a place outside every zone, off-season, last season's zone
/// ids, a null product, a 200 HTML page, a warning, and `watch` telling a change of danger from
/// a re-issue.
@Suite struct AvalancheCLITests {
    static let places = #""places": {\#(Place.stevensConfig), "#
        + #""snoqualmie": {"name": "Snoqualmie Pass", "latitude": 47.41, "longitude": -121.405833}, "#
        + #""baker": {"name": "Mt Baker", "latitude": 48.857, "longitude": -121.665}, "hood": {"name": "Mt Hood", "latitude": 45.3736, "longitude": -121.6959}}"#

    /// A started stand-in and a config whose `avalanche` instance reads it.
    static func setUp() throws -> (AvalancheStandIn, URL) {
        let standIn = try AvalancheStandIn()
        try standIn.start()
        let dir = try Upstream.config(
            sources: #""avalanche": {"module": "Avalanche", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"}}"#,
            routes: #""avalanche": "avalanche", "moon": "astronomy""#, extra: ", " + places)
        return (standIn, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    /// The danger by band of a record's `danger.{day}`: above, near, below treeline.
    static func levels(_ record: [String: Any], _ day: String) -> [Int] {
        let bands = ((record["data"] as? [String: Any])?["danger"] as? [String: Any])?[day] as? [String: Any] ?? [:]
        return ["above", "near", "below"].compactMap { (bands[$0] as? [String: Any])?["level"] as? Int }
    }

    @Test func stevensAndSnoqualmieInTextAndJSON() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let text = try await CLI.run(["--no-cache", "--now", "2026-04-01T16:00:00Z", "avalanche:stevens", "avalanche:snoqualmie"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdoutLines
        #expect(lines.first == "avalanche:stevens  Stevens Pass (NWAC): 3 Considerable today", "\(text.stdout)")
        #expect(lines.contains("  today     above treeline 3 Considerable · near treeline 3 Considerable · below treeline 2 Moderate"), "\(text.stdout)")
        #expect(lines.contains("  tomorrow  above treeline 2 Moderate · near treeline 2 Moderate · below treeline 1 Low"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("  Storm Slab: likely · D1–2") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("  Wet Loose: possible · D1–1.5") }, "\(text.stdout)")
        #expect(lines.contains("avalanche:snoqualmie  Snoqualmie Pass (NWAC): 2 Moderate today"), "\(text.stdout)")
        #expect(lines.contains("  http://www.nwac.us/avalanche-forecast/#/stevens-pass"), "\(text.stdout)")
        // One map layer for both places, one forecast and one warning each, zones found by this season's ids.
        #expect(standIn.mapLayerRequests.count == 1)
        #expect(standIn.forecastRequests(zone: AvalancheStandIn.Zone.stevensPass).count == 1)
        #expect(standIn.forecastRequests(zone: AvalancheStandIn.Zone.snoqualmiePass).count == 1)
        #expect(standIn.warningRequests().count == 2)

        let json = try await CLI.run(["--no-cache", "--now", "2026-04-01T16:00:00Z", "--format", "ndjson", "avalanche:stevens", "avalanche:snoqualmie"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        let records = try Self.records(json)
        #expect(records.map { $0["urn"] as? String } == ["avalanche:stevens", "avalanche:snoqualmie"])
        #expect(records.allSatisfy { $0["source"] as? String == "avalanche" })
        #expect(Self.levels(records[0], "today") == [3, 3, 2])
        #expect(Self.levels(records[0], "tomorrow") == [2, 2, 1])
        #expect(Self.levels(records[1], "today") == [2, 2, 2])
        let problems = try #require((records[0]["data"] as? [String: Any])?["problems"] as? [[String: Any]])
        #expect(problems.compactMap { $0["name"] as? String } == ["Storm Slab", "Wet Loose"])
    }

    /// The real NWAC forecast in the references (West Slopes North, 2026-04-01) with its two
    /// problems, likelihood and size; and marked expired once its expiry has passed.
    @Test func theRealWestSlopesNorthForecastAndItsExpiry() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--now", "2026-04-01T16:00:00Z", "avalanche:baker"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.first == "avalanche:baker  West Slopes North (NWAC) for Mt Baker: 3 Considerable today")
        #expect(run.stdoutLines.contains("  Storm Slab: likely · D1–2 · above and near treeline · all aspects"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("  Wet Loose: possible · D1–1.5 · near and below treeline · all aspects"), "\(run.stdout)")
        #expect(run.stdoutLines.contains("  by Lee Lazzara · published Tue Mar 31 18:30 PDT · expires Wed Apr 1 18:30 PDT"), "\(run.stdout)")

        let later = try await CLI.run(["--no-cache", "--now", "2026-04-03T16:00:00Z", "avalanche:baker"], in: dir)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdoutLines.contains("  by Lee Lazzara · published Tue Mar 31 18:30 PDT · expired Wed Apr 1 18:30 PDT"), "\(later.stdout)")
    }

    /// A place in no zone names the nearest zone and how far its edge is, and suggests its URN.
    @Test func aPlaceOutsideEveryZoneNamesTheNearest() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "avalanche:here"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        let line = try #require(run.stderrLines.first)
        #expect(line.hasPrefix("conditions: avalanche:here: notFound: "), "\(run.stderr)")
        #expect(line.contains("is in no NWAC forecast zone; the nearest is West Slopes Central, "), "\(run.stderr)")
        #expect(line.contains(" km from its edge"), "\(run.stderr)")
        #expect(run.stderr.contains("avalanche:west-slopes-central"), "the nearest zone's URN is suggested: \(run.stderr)")
        #expect(standIn.forecastRequests().isEmpty, "no product is asked for a place in no zone")
    }

    /// Summer: every zone off season reads as a plain result, not an error, without a product
    /// request failing it; the off-season summary of the Olympics likewise in season.
    @Test func offSeasonIsAPlainResult() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.serve(.offSeason)
        // The null product the stand-in gives every zone but the four it has bodies for.
        try standIn.changeProduct(zone: AvalancheStandIn.Zone.stevensPass) { $0 = ["published_time": NSNull(), "expires_time": NSNull()] }
        let run = try await CLI.run(["--no-cache", "--format", "ndjson", "avalanche:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let record = try #require(try Self.records(run).first)
        #expect((record["data"] as? [String: Any])?["status"] as? String == "off-season")
        let text = try await CLI.run(["--no-cache", "avalanche:stevens"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutLines.first == "avalanche:stevens  Stevens Pass (NWAC): off-season, no forecasts until next season")
        #expect(text.stderr.isEmpty)
    }

    /// Zone ids change each season: last season's layer is read as it comes, and the product is
    /// asked by the id it gives today; a null product in season is `notFound`; a 200 with an
    /// HTML page is `badResponse` naming what came.
    @Test func lastSeasonsIdsANullProductAndAnHTMLPage() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.serve(.lastSeason)
        let run = try await CLI.run(["--no-cache", "--format", "ndjson", "avalanche:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(standIn.forecastRequests(zone: AvalancheStandIn.Zone.stevensPassLastSeason).count == 1)
        #expect(standIn.forecastRequests(zone: AvalancheStandIn.Zone.stevensPass).isEmpty)

        standIn.serve(.current)
        // Mt Hood's zone is in season in the layer, and the stand-in has no product for it.
        let missing = try await CLI.run(["--no-cache", "avalanche:hood"], in: dir)
        #expect(missing.status == 1)
        #expect(missing.stderrLines == ["conditions: avalanche:hood: notFound: avalanche.org has no current NWAC forecast for Mt Hood, though its map layer says the zone is in season"], "\(missing.stderr)")

        standIn.answerWithHTML(zone: AvalancheStandIn.Zone.snoqualmiePass)
        let html = try await CLI.run(["--no-cache", "avalanche:snoqualmie", "moon:now"], in: dir)
        #expect(html.status == 1)
        #expect(html.stderrLines.count == 1)
        #expect(html.stderrLines.first?.hasPrefix("conditions: avalanche:snoqualmie: badResponse: ") == true, "\(html.stderr)")
        #expect(html.stderr.contains("avalanche.org answered HTTP 200 with an HTML page, not JSON, for the forecast of Snoqualmie Pass"), "\(html.stderr)")
        #expect(html.stdoutLines.contains { $0.hasPrefix("moon:now") }, "the other URN still answers")
    }

    /// A warning in effect leads the text.
    @Test func aWarningComesFirst() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.serve(.warning)
        let run = try await CLI.run(["--no-cache", "--now", "2026-04-01T16:00:00Z", "avalanche:stevens", "avalanche:snoqualmie"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.first == "avalanche:stevens  Stevens Pass (NWAC): 3 Considerable today  ⚠ avalanche warning in effect", "\(run.stdout)")
        #expect(run.stdoutLines.contains("avalanche:snoqualmie  Snoqualmie Pass (NWAC): 2 Moderate today"), "no warning where none is in effect")
    }

    /// `watch`: a re-issued forecast with the same danger and problems (a new id, new times,
    /// new wording) is not a change; a band rising is, and so is a warning issued.
    @Test func watchReportsADangerChangeAndNotAReissue() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let zone = AvalancheStandIn.Zone.stevensPass
        let first = standIn.product(zone: zone)
        try standIn.changeProduct(zone: zone) { product in
            product["id"] = 184300
            product["published_time"] = "2026-04-02T01:30:00+00:00"
            product["expires_time"] = "2026-04-03T01:30:00+00:00"
            product["bottom_line"] = "<p>Reworded: the storm arrives tonight; keep to simpler terrain.</p>"
        }
        let reissue = standIn.product(zone: zone)
        try standIn.changeProduct(zone: zone) { product in
            var danger = product["danger"] as? [[String: Any]] ?? []
            danger[0]["upper"] = 4
            product["danger"] = danger
        }
        let risen = standIn.product(zone: zone)
        #expect(Set([first, reissue, risen]).count == 3)
        // One body per poll (each poll asks once, --no-cache): the first forecast, its
        // re-issue, the danger risen, unchanged.
        standIn.setProduct(zone: zone, first)
        standIn.queueProducts(zone: zone, [first, reissue, risen, risen])
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "4", "--format", "ndjson", "avalanche:stevens"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Self.records(run)
        #expect(events.map { "\($0["event"] ?? "")" } == ["initial", "change"], "\(run.stdout)")
        #expect(events.last?["before"] as? String == "Considerable")
        #expect(events.last?["after"] as? String == "High")
        #expect(standIn.forecastRequests(zone: zone).count == 4)
    }

    /// CSV flattens the danger; a template reads its members (issue 33's mountain report, once
    /// `MountainCLITests` with the snowpack beside it).
    @Test func csvAndATemplate() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let now = "2026-11-26T18:30:00Z"
        let csv = try await CLI.run(["--no-cache", "--now", now, "--format", "csv", "avalanche:snoqualmie"], in: dir)
        #expect(csv.status == 0, "\(csv.stderr)")
        // RFC 4180 records end in CRLF (one Character in Swift, so split on the string).
        let records = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = try #require(records.first).split(separator: ",").map(String.init)
        #expect(header.contains("data.danger.today.above.name"))
        #expect(records.count == 2, "\(csv.stdout)")
        #expect(records.last?.hasPrefix("avalanche:snoqualmie,true,") == true, "\(csv.stdout)")

        let template = dir.appendingPathComponent("danger.mustache")
        try "{{#results}}{{urn}}: {{#data.rating}}{{name}}{{/data.rating}}\n{{/results}}".write(to: template, atomically: true, encoding: .utf8)
        let rendered = try await CLI.run(["--no-cache", "--now", now, "--template", template.path, "avalanche:snoqualmie"], in: dir)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.stdoutLines == ["avalanche:snoqualmie: Moderate"], "\(rendered.stdout)")
    }
}
