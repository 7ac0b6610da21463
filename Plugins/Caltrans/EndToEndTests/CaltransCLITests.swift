import CaltransStandIn
import ConditionsKit
import ConditionsKitTesting
import Foundation
import LoopbackServer
import TestHarness
import Testing

/// The Caltrans module through the built binary, against the loopback stand-in for CWWP2 built
/// on the real District 10 files and the files derived from them: text and JSON, the storm's
/// levels, names and `pass:all` across both states through a joined route, `watch` reporting
/// R-0 → R-2 once, and `doctor` naming a district that answers HTTP 500.
@Suite struct CaltransCLITests {
    /// 08:40 PST on 2025-12-24, ten minutes after the derived storm files were written.
    static let stormMorning = "2025-12-24T16:40:00Z"

    /// A started stand-in and a config: `pass` joins Washington's recordings (the Fixtures
    /// module) and Caltrans, as the shipped config joins WSDOT's chain and Caltrans.
    static func setUp(ttl: String = "5m", extra: String = "") throws -> (CaltransStandIn, URL) {
        let standIn = try CaltransStandIn()
        try standIn.start()
        // Washington's recordings only (the shipped folder holds California's offline ones too).
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/pass")
        let fixtures = try CLI.temporaryDirectory().appendingPathComponent("Fixtures").path
        try FileManager.default.createDirectory(atPath: fixtures + "/pass", withIntermediateDirectories: true)
        for name in ["stevens.json", "snoqualmie.json", "all.json"] {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(name), to: URL(fileURLWithPath: fixtures + "/pass/" + name))
        }
        let dir = try Upstream.config(
            sources: #""caltrans": {"module": "Caltrans", "ttl": "\#(ttl)", "options": {"baseURL": "\#(standIn.baseURL.absoluteString)"}}, "#
                + #""washington": {"module": "Fixtures", "options": {"directory": "\#(fixtures)"}}"#,
            routes: #""pass": {"join": ["washington", "caltrans"]}"#, extra: extra)
        return (standIn, dir)
    }

    static func records(_ output: CLI.Output) throws -> [[String: Any]] {
        try output.stdoutLines.map { try Upstream.json($0) }
    }

    static func data(_ record: [String: Any]) -> [String: Any] { record["data"] as? [String: Any] ?? [:] }

    @Test func aStormInTextAndJSON() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try standIn.serve("derived/caltrans_cc_d10_storm.json", district: 10, .chainControls)
        let text = try await CLI.run(["--no-cache", "--now", Self.stormMorning, "pass:ebbetts"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutLines.first == "Ebbetts Pass SR 4  RESTRICTED", "\(text.stdout)")
        #expect(text.stdoutLines.contains { $0.contains("Eastbound") && $0.contains("R-2: Chains or traction devices are required") }, "\(text.stdout)")
        #expect(text.stdoutLines.contains { $0.contains("Westbound") && $0.contains("R-1: Chains are required on all vehicles except passenger vehicles") })
        #expect(text.stdoutLines.contains { $0.contains("RAYMOND MEADOWS - EBBETTS PASS, westbound: R-1 since") }, "\(text.stdout)")

        let json = try await CLI.run(["--no-cache", "--now", Self.stormMorning, "--format", "ndjson", "pass:ebbetts", "pass:echo"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        let records = try Self.records(json)
        #expect(records.map { $0["urn"] as? String } == ["pass:ebbetts", "pass:echo"])
        #expect(records.allSatisfy { $0["source"] as? String == "caltrans" && $0["route"] as? String == "pass:{name}" })
        #expect(Self.data(records[0])["status"] as? String == "restricted")
        #expect((Self.data(records[1])["restrictions"] as? [[String: Any]])?.compactMap { $0["level"] as? String } == ["R-2", "R-0"])
        // Both passes' district files asked once each; District 3's for Echo, District 10's for Ebbetts.
        #expect(standIn.requests(district: 10, .chainControls) == 2 && standIn.requests(district: 3, .chainControls) == 1,
                "once per run and file (two runs for District 10)")
    }

    /// One scheme, two states: each name is answered by the chain that knows it; a name no
    /// chain knows is `notFound` with both chains' suggestions.
    @Test func namesAcrossBothStatesThroughAJoinedRoute() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        let run = try await CLI.run(["--no-cache", "--now", Self.stormMorning, "--format", "ndjson", "pass:stevens", "pass:donner", "pass:all"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let records = try Self.records(run)
        #expect(records.map { $0["urn"] as? String } == ["pass:stevens", "pass:donner", "pass:all", "pass:all"])
        #expect(records.map { $0["source"] as? String } == ["washington", "caltrans", "washington", "caltrans"],
                "pass:all: a result per chain, in the join's order")
        #expect(Self.data(records.first ?? [:])["name"] as? String == "Stevens Pass US 2")
        #expect(Self.data(records.dropFirst().first ?? [:])["name"] as? String == "Donner Summit I-80")
        let states = records.suffix(2).map { record in (Self.data(record)["passes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
        #expect(states.first?.contains("Stevens Pass US 2") == true && states.first?.contains("Donner Summit I-80") == false, "\(states)")
        #expect(states.last?.contains("Donner Summit I-80") == true && states.last?.contains("Ebbetts Pass SR 4") == true
                && states.last?.contains("Stevens Pass US 2") == false, "the host merges no data: \(states)")
        #expect(records.allSatisfy { $0["joined"] == nil }, "a list holds each answer alone")

        // In text, both states' passes under the one URN, Washington's first.
        let text = try await CLI.run(["--no-cache", "--now", Self.stormMorning, "pass:all"], in: dir)
        #expect(text.status == 0, "\(text.stderr)")
        let stevens = try #require(text.stdoutLines.firstIndex { $0.hasPrefix("Stevens Pass US 2") }, "\(text.stdout)")
        let ebbetts = try #require(text.stdoutLines.firstIndex { $0.hasPrefix("Ebbetts Pass SR 4") }, "\(text.stdout)")
        #expect(stevens < ebbetts)

        // The join as `sources` and `routes` show it.
        let sources = try await CLI.run(["sources"], in: dir)
        #expect(sources.stdoutLines.contains { $0.hasPrefix("  caltrans") && $0.hasSuffix("pass (join 2)") }, "\(sources.stdout)")
        let check = try await CLI.run(["check"], in: dir)
        #expect(check.stdout.contains("2 routes (2 joined)"), "\(check.stdout)")
        let routes = try await CLI.run(["routes"], in: dir)
        #expect(routes.stdoutLines.contains { $0.hasPrefix("pass:{name}") && $0.contains("washington + caltrans") && $0.contains("Fixtures + Caltrans") },
                "\(routes.stdout)")

        let unknown = try await CLI.run(["--no-cache", "pass:ebets"], in: dir)
        #expect(unknown.status == 1)
        let line = try #require(unknown.stderrLines.first)
        #expect(line.hasPrefix("conditions: pass:ebets: notFound: "), "\(unknown.stderr)")
        #expect(line.contains("pass:ebbetts"), "Caltrans's suggestion survives the join: \(line)")
    }

    @Test func watchReportsR0ToR2Once() async throws {
        let (standIn, dir) = try Self.setUp(ttl: "1s")
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try standIn.queue(["real/caltrans_cc_d10_20260930.json", "derived/caltrans_cc_d10_storm.json",
                           "derived/caltrans_cc_d10_storm.json"], district: 10, .chainControls)
        try standIn.serve("derived/caltrans_cc_d10_storm.json", district: 10, .chainControls)
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "4", "--format", "ndjson", "pass:ebbetts"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Self.records(run)
        #expect(events.map { "\($0["event"] ?? "")" } == ["initial", "change"], "\(run.stdout)")
        #expect(events.last?["before"] as? String == "open")
        #expect(events.last?["after"] as? String == "restricted")
    }

    /// `watch --notify`: Ebbetts going from R-0 to R-2 is one notice of priority 4 on an ntfy
    /// stand-in, with its title, the text, the page and the URN's sequence id; a 429 with
    /// Retry-After first delays it but does not lose it; the same state again sends nothing.
    @Test func watchNotifiesR0ToR2OnceThroughNtfy() async throws {
        let ntfy = NtfyStandIn(authorization: "Bearer tk_e2etoken")
        try ntfy.start()
        defer { ntfy.stop() }
        let notify = #", "notify": {"targets": {"phone": {"ntfy": "\#(ntfy.topicURL("passes").absoluteString)", "token": "${NTFY_TOKEN}"}}}"#
        let (standIn, dir) = try Self.setUp(ttl: "1s", extra: notify)
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        try standIn.queue(["real/caltrans_cc_d10_20260930.json", "derived/caltrans_cc_d10_storm.json"], district: 10, .chainControls)
        try standIn.serve("derived/caltrans_cc_d10_storm.json", district: 10, .chainControls)
        ntfy.fail(.tooManyRequests(retryAfter: 1))
        let run = try await CLI.run(["watch", "--no-cache", "--every", "1s", "--count", "3", "--notify", "phone", "pass:ebbetts"], in: dir,
                                    environment: ["NTFY_TOKEN": "tk_e2etoken", "XDG_STATE_HOME": dir.appendingPathComponent("state").path])
        #expect(run.status == 0, "\(run.stderr)")
        let messages = ntfy.messages
        try #require(messages.count == 1, "one notice for one change: \(messages) \(run.stderr)")
        let message = messages[0]
        #expect(message.topic == "passes" && message.priority == 4)
        #expect(message.title == "Ebbetts Pass SR 4: R-0 → R-2", "\(message)")
        #expect(message.message.hasPrefix("Ebbetts Pass SR 4  RESTRICTED"), "the plain text: \(message.message)")
        #expect(message.click == "https://roads.dot.ca.gov/roadscell.php?roadnumber=4")
        #expect(message.sequenceID?.hasPrefix("c-") == true && message.sequenceID?.count == 34)
        #expect(ntfy.attempts == 2, "the 429 first, then the notice")
        #expect(run.stderr.contains("HTTP 429") && !run.stderr.contains("tk_e2etoken"), "the retry is logged, the token never: \(run.stderr)")
    }

    @Test func doctorNamesADistrictThatAnswers500() async throws {
        let (standIn, dir) = try Self.setUp()
        defer { standIn.stop(); try? FileManager.default.removeItem(at: dir) }
        standIn.fail(district: 3, .chainControls, status: 500)
        let ok = try await CLI.run(["--no-cache", "pass:ebbetts"], in: dir)
        #expect(ok.status == 0, "District 10's passes still answer: \(ok.stderr)")
        let donner = try await CLI.run(["--no-cache", "pass:donner"], in: dir)
        #expect(donner.status == 1)
        #expect(donner.stderr.contains("500") && donner.stderr.contains("/d3/cc/ccStatusD03.json"), "\(donner.stderr)")
        // pass:all: Washington's answer stands, California's failure beside it, naming its source.
        let all = try await CLI.run(["--no-cache", "--format", "ndjson", "pass:all"], in: dir)
        #expect(all.status == 1, "a failed chain fails the URN")
        let answers = try Self.records(all)
        #expect(answers.map { $0["source"] as? String } == ["washington", nil], "\(all.stdout)")
        let error = answers.last?["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.hasPrefix("caltrans: ") == true && (error?["message"] as? String)?.contains("District 3") == true,
                "\(all.stdout)")
        let doctor = try await CLI.run(["doctor"], in: dir)
        #expect(doctor.stdout.contains("District 3"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("ccStatusD03.json"), "\(doctor.stdout)")
    }
}
