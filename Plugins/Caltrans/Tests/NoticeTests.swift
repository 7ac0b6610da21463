import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import ConditionsText
import Foundation
import Testing
@testable import Caltrans

/// What the shared pass kind says is news of California's passes (issue 43), on the real
/// District 10 files and those derived from them: R-0 → is a notice of 4 naming
/// the levels, a full closure of all lanes 5 with the closure's words, reopening 4, the image the
/// pass's nearest camera, the link its page; the same answer twice is none.
@Suite struct NoticeTests {
    let presentation = CaltransSource.presentations.first { $0.kind == .pass }!

    func plain(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
    }

    func ebbetts(_ changes: [String: RecordingHTTPClient.Reply], now: Date) async throws -> JSONValue {
        try await makeSource().resolve("pass:ebbetts", context: context(try portal(changes), now: now)).data
    }

    @Test func chainControlsComingAndGoingAreNewsOfFour() async throws {
        let calm = try await ebbetts([:], now: When.afterCapture)
        let storm = try await ebbetts([Path.cc(10): try file(Body.storm10)], now: When.stormMorning)
        let notice = try #require(presentation.notice(from: calm, to: storm, context: plain("pass:ebbetts")))
        #expect(notice.priority == .high)
        #expect(notice.title == "Ebbetts Pass SR 4: R-0 → R-2", "\(notice.title)")
        #expect(notice.body.hasPrefix("Ebbetts Pass SR 4  RESTRICTED") && notice.body.contains("R-1: Chains are required"), "the text presentation, plain")
        #expect(!notice.body.contains("\u{1B}"))
        #expect(notice.link?.absoluteString == "https://roads.dot.ca.gov/roadscell.php?roadnumber=4")
        #expect(notice.image == nil, "no camera within 30 km of Ebbetts's summit")
        let lifted = try #require(presentation.notice(from: storm, to: calm, context: plain("pass:ebbetts")))
        #expect(lifted.priority == .high && lifted.title == "Ebbetts Pass SR 4: R-2 → R-0")
        #expect(presentation.notice(from: storm, to: storm, context: plain("pass:ebbetts")) == nil, "the same answer again is no news")
    }

    /// Echo Summit has District 3's cameras; its calm state is the derived storm's with the
    /// levels put back to R-0 (no calm District 3 file was captured).
    @Test func theImageIsThePassesFirstCamera() async throws {
        let storm = try await makeSource().resolve("pass:echo", context: context(try portal(), now: When.stormMorning)).data
        let calm = try JSONValue.parse(Data(storm.serialized().replacingOccurrences(of: "\"R-2\"", with: "\"R-0\"").utf8))
        let notice = try #require(presentation.notice(from: calm, to: storm, context: plain("pass:echo")))
        #expect(notice.title == "Echo Summit US 50: R-0 → R-2", "\(notice.title)")
        let first = storm["cameras"]?.arrayValue?.first?["imageURL"]?.stringValue
        #expect(first != nil && notice.image?.absoluteString == first, "\(String(describing: notice.image))")
    }

    @Test func aFullClosureIsUrgentAndReopeningHigh() async throws {
        let open = try await ebbetts([:], now: When.closureMorning)
        let closed = try await ebbetts([Path.lcs(10): try file(Body.ebbettsClosed10)], now: When.closureMorning)
        let notice = try #require(presentation.notice(from: open, to: closed, context: plain("pass:ebbetts")))
        #expect(notice.priority == .urgent)
        #expect(notice.title.hasPrefix("Ebbetts Pass SR 4 closed: a full closure of all lanes"), "\(notice.title)")
        #expect(notice.tags.contains("rotating_light"))
        let reopened = try #require(presentation.notice(from: closed, to: open, context: plain("pass:ebbetts")))
        #expect(reopened.priority == .high && reopened.title == "Ebbetts Pass SR 4 reopened: open", "\(reopened.title)")
    }

    @Test func passAllNamesTheMostUrgentAndCountsTheRest() async throws {
        let calm = try await makeSource().resolve("pass:all", context: context(try portal(), now: When.afterCapture)).data
        let storm = try await makeSource().resolve("pass:all", context: context(try portal([Path.cc(10): try file(Body.storm10)]), now: When.stormMorning)).data
        let notice = try #require(presentation.notice(from: calm, to: storm, context: plain("pass:all")))
        #expect(notice.priority == .high)
        #expect(notice.title.contains(" more pass"), "\(notice.title)")
        #expect(notice.body.split(separator: "\n").count >= 2, "a line per pass that changed: \(notice.body)")
    }
}
