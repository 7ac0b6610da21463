import ConditionsKit
import Foundation
import TestHarness
import LoopbackServer
import Testing

/// Issues 13 and 24 through the binary: the shipped config on a machine that reaches neither
/// WSDOT's feed nor a browser, stale reports in text output, and watch ignoring a report's age.
@Suite struct WSDOTRealSiteTests {
    let shipped = CLI.packageRoot.appendingPathComponent("sources.json").path
    /// A PATH with no Chromium, neither in it nor in a `lib/chromium` beside it.
    let noBrowser: [String: String]
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-browser-\(UUID().uuidString)")
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        noBrowser = ["PATH": bin.path]
    }

    /// The shipped chain with the feed unreachable and no browser: libcurl honours
    /// `https_proxy`, so a proxy on a closed loopback port fails the feed at once, and no test
    /// ever reaches WSDOT.
    @Test func withNeitherFeedNorBrowserPassesFailInOneLineNamingBothAndTheMoonStillAnswers() async throws {
        var environment = noBrowser
        environment["https_proxy"] = "http://127.0.0.1:9"
        environment["HTTPS_PROXY"] = "http://127.0.0.1:9"
        let run = try await CLI.run(["--config", shipped, "--no-cache", "--format", "ndjson", "pass:snoqualmie", "pass:all", "moon:now"], environment: environment)
        #expect(run.status == 1)
        let objects = try run.stdoutLines.map(Upstream.json)
        // pass:all is joined with Caltrans (the shipped route): its failure, naming its source, follows WSDOT's.
        try #require(objects.count == 4, "\(run.stderr)")
        #expect(objects.map { $0["urn"] as? String } == ["pass:snoqualmie", "pass:all", "pass:all", "moon:now"])
        let california = (objects[2]["error"] as? [String: Any])?["message"] as? String
        #expect(california?.hasPrefix("caltrans: ") == true && california?.contains("cwwp2.dot.ca.gov") == true, "\(california ?? "")")
        for index in 0..<2 {
            let error = try #require(objects[index]["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(message.hasPrefix("wsdot-feed: "), "\(message)")
            #expect(message.contains("data.wsdot.wa.gov"), "\(message)")
            #expect(message.contains("; wsdot-page: "), "\(message)")
            #expect(message.contains("no Chromium found"))
            #expect(message.contains("chromium-headless-shell"))
            #expect(message.contains("access code"))
            #expect(!message.contains("\n"))
        }
        #expect((objects[3]["data"] as? [String: Any])?["phase"] != nil)
        // Text output: one stderr line per failed URN, after one warning per fallback.
        let text = try await CLI.run(["--config", shipped, "--no-cache", "pass:stevens", "moon:now"], environment: environment)
        let lines = text.stderr.split(separator: "\n").filter { $0.contains("pass:stevens") }
        #expect(lines.filter { $0.contains("trying wsdot-page") }.count == 1, "\(text.stderr)")
        #expect(lines.filter { !$0.contains("trying wsdot-page") }.count == 1, "\(text.stderr)")
        #expect(text.stderr.contains("apt-get install chromium-headless-shell"))
        #expect(text.stdout.hasPrefix("moon:now"), "\(text.stdout)")
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func offlineProfileNeedsNoBrowserAndNoNetwork() async throws {
        let run = try await CLI.run(["--config", shipped, "--profile", "offline", "pass:snoqualmie", "pass:all", "moon:now"], environment: noBrowser)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Snoqualmie"))
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func staleReportsSayHowOldTheyAreInText() async throws {
        let server = LoopbackServer()
        server.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try server.start()
        defer { server.stop() }
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "k"}}"#,
            routes: #""pass": "wsdot""#)
        defer { try? FileManager.default.removeItem(at: dir) }

        let stale = try await CLI.run(["--no-cache", "--now", "2026-07-20T00:00:00Z", "pass:snoqualmie"], in: dir)
        #expect(stale.status == 0, "\(stale.stderr)")
        #expect(stale.stdout.contains("report from Sun Dec 14 2025, 7 months old"), "\(stale.stdout)")
        let fresh = try await CLI.run(["--no-cache", "--now", "2025-12-15T08:00:00Z", "pass:snoqualmie"], in: dir)
        #expect(fresh.stdout.contains("updated "))
        #expect(!fresh.stdout.contains("report from"))
        let json = try await CLI.run(["--no-cache", "--now", "2025-12-15T08:00:00Z", "--format", "ndjson", "pass:snoqualmie"], in: dir)
        #expect((try Upstream.json(json.stdout)["data"] as? [String: Any])?["reportAge"] as? Int == 1136, "DateUpdated is 07:41:03.873")
        let csv = try await CLI.run(["--no-cache", "--now", "2025-12-15T08:00:00Z", "--format", "csv", "pass:snoqualmie"], in: dir)
        #expect(csv.stdout.contains("reportAge"))
    }
}
