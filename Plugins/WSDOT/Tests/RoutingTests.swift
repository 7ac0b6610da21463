import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import WSDOT

@Suite("Routes: pass:{name} and pass:all")
struct RoutingTests {
    static let pages: [String: String] = [
        "snoqualmie": "snoqualmie-winter.html", "stevens": "snoqualmie-winter.html",
        "blewett": "blewett-summer.html", "chinook": "chinook-closed.html",
    ]

    func stub(_ pages: [String: String], overrides: [String: RecordingHTTPClient.Reply] = [:]) throws -> RecordingHTTPClient {
        var replies: [String: RecordingHTTPClient.Reply] = [:]
        for (slug, file) in pages { replies["\(classicBase)/\(slug)"] = try .htmlFixture(file) }
        for (slug, reply) in overrides { replies["\(classicBase)/\(slug)"] = reply }
        return RecordingHTTPClient(replies)
    }

    func source(passes: [String]) throws -> WSDOTPassSource {
        try makeSource(.json(#"{"baseURL": "\#(classicBase)/", "passes": [\#(passes.map { "\"\($0)\"" }.joined(separator: ","))]}"#))
    }

    @Test("pass:all lists the configured passes in configured order, fetching each page once")
    func allInOrder() async throws {
        let order = ["chinook", "snoqualmie", "blewett", "stevens"]
        let http = try stub(Self.pages)
        let data = try await resolve("pass:all", with: try source(passes: order), http: http)
        let passes = try #require(data["passes"]?.arrayValue)
        #expect(passes.compactMap { $0["id"]?.stringValue } == order)
        #expect(passes.compactMap { $0["status"]?.stringValue } == ["closed", "restricted", "open", "restricted"])
        #expect(Set(http.urls.map(\.absoluteString)) == Set(order.map { "\(classicBase)/\($0)" }))
        #expect(http.urls.count == 4)
    }

    @Test("pass:all fails naming every failed pass and why, rather than dropping passes")
    func allWithFailures() async throws {
        let http = try stub(Self.pages, overrides: [
            "white": .errorPage(404),
            "stevens": .htmlFixture("stevens-redesign.html"),
        ])
        let error = await resolveError("pass:all", with: try source(passes: ["snoqualmie", "white", "stevens", "blewett"]), http: http)
        let reportable = try #require(error as? any ReportableError)
        #expect(reportable.message.hasPrefix("2 of 4 passes failed: white (HTTP 404 Not Found from http://www.wsdot.com/traffic/passes/white); stevens (http://www.wsdot.com/traffic/passes/stevens: missing fields conditions, restrictionOne, restrictionTwo, updated"))
        #expect(reportable.kind == .upstream)
        #expect(!reportable.message.contains("\n"))
    }

    @Test("when every failure is of one kind, pass:all reports that kind")
    func allSameKind() async throws {
        let http = try stub([:], overrides: ["white": .failure(.timeout(seconds: 30, url: "http://www.wsdot.com/traffic/passes/white")),
                                             "stevens": .failure(.timeout(seconds: 30, url: "http://www.wsdot.com/traffic/passes/stevens"))])
        let error = await resolveError("pass:all", with: try source(passes: ["white", "stevens"]), http: http)
        let reportable = try #require(error as? any ReportableError)
        #expect(reportable.kind == .timeout)
        #expect(reportable.message == "all 2 passes failed: white (timed out after 30 s: http://www.wsdot.com/traffic/passes/white); stevens (timed out after 30 s: http://www.wsdot.com/traffic/passes/stevens)")
    }

    @Test("an unknown name is notFound with the closest configured passes as URNs")
    func unknownName() async throws {
        let error = await resolveError("pass:snoqalmie", with: try makeSource(), http: RecordingHTTPClient([:]))
        let notFound = try #require(error as? ConditionsError)
        #expect(notFound.kind == .notFound)
        #expect(notFound.message == #"no pass named "snoqalmie""#)
        #expect(notFound.suggestions == ["pass:snoqualmie"])
    }

    @Test("a catalog pass left out of the configured list is notFound, suggesting only close configured ones")
    func unconfiguredPass() async throws {
        let configured = try source(passes: ["snoqualmie", "sherman"])
        let far = try #require(await resolveError("pass:stevens", with: configured, http: RecordingHTTPClient([:])) as? ConditionsError)
        #expect(far.kind == .notFound)
        #expect(far.message == #"pass "stevens" is not in sources.wsdot.options.passes"#)
        #expect(far.suggestions == [])
        let unknown = try #require(await resolveError("pass:shermann", with: configured, http: RecordingHTTPClient([:])) as? ConditionsError)
        #expect(unknown.suggestions == ["pass:sherman"])
    }

    @Test("pass names in URNs are case-insensitive and accept WSDOT ids")
    func nameForms() async throws {
        let http = try stub(Self.pages)
        let byCase = try await resolve("pass:SNOQUALMIE", with: try makeSource(.json(#"{"baseURL": "\#(classicBase)"}"#)), http: http)
        #expect(byCase["id"] == "snoqualmie")
        let byID = try await resolve("pass:1", with: try makeSource(.json(#"{"baseURL": "\#(classicBase)"}"#)), http: http)
        #expect(byID["id"] == "blewett")
    }

    @Test("passes that failed for the same reason share it in the one line")
    func sameReasonsAreGrouped() {
        let missing = ConditionsError(.configuration, "no Chromium found")
        let failed = PassesFailed(total: 3, failures: [("blewett", missing), ("cayuse", missing), ("white", HTTPError.status(404, url: "http://x/white"))])
        #expect(failed.message == "all 3 passes failed: blewett, cayuse (no Chromium found); white (HTTP 404 Not Found from http://x/white)")
        #expect(failed.kind == .upstream)
    }
}
