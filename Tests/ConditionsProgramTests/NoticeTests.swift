import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Testing
@testable import ConditionsCore

/// What each module says is news (issue 43), through the registered catalog as the host asks
/// it, on the shipped recordings (real captures) and states derived from them by editing the
/// members a change is about: a Washington pass closing, traction tires lifted, avalanche
/// danger rising and a warning issued, a new Winter Storm Warning, the G-level reaching G3, a
/// clear dark window appearing; and the generic notice of a module that says nothing.
@Suite struct NoticeTests {
    static func recorded(_ path: String) throws -> JSONValue {
        let value = try JSONValue.parse(Data(contentsOf: packageRoot.appendingPathComponent("Fixtures/\(path)")))
        return try #require(value["data"])
    }

    /// `data` with each `(old, new)` text replaced in its JSON: a state derived from a real one.
    static func edited(_ data: JSONValue, _ edits: [(String, String)]) throws -> JSONValue {
        var text = data.serialized()
        for (old, new) in edits {
            #expect(text.contains(old), "the recording has \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return try JSONValue.parse(Data(text.utf8))
    }

    func notice(_ kind: ResultKind, _ urn: String, from previous: JSONValue, to current: JSONValue) -> Notice? {
        let context = PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
        return registered.presentation(for: kind).notice(from: previous, to: current, context: context)
    }

    @Test func aWashingtonPassClosingAndItsTractionTires() throws {
        let stevens = try Self.recorded("pass/stevens.json")
        let closed = try Self.edited(stevens, [(#""status":"restricted""#, #""status":"closed""#)])
        let shut = try #require(notice("pass", "pass:stevens", from: stevens, to: closed))
        #expect(shut.priority == .urgent && shut.title.hasPrefix("Stevens Pass US 2 closed"), "\(shut.title)")
        #expect(shut.link?.absoluteString == "https://wsdot.com/travel/real-time/mountain-passes/stevens")
        let eased = try Self.edited(stevens, [("Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW", "Traction tires advised")])
        let lifted = try #require(notice("pass", "pass:stevens", from: stevens, to: eased))
        #expect(lifted.priority == .high && lifted.title == "Stevens Pass US 2: chains no longer required, traction tires no longer required", "\(lifted.title)")
        let warmer = try Self.edited(stevens, [(#""temperatureF":26"#, #""temperatureF":31"#)])
        #expect(notice("pass", "pass:stevens", from: stevens, to: warmer) == nil, "the temperature is not news")
        let reworded = try Self.edited(eased, [("Traction tires advised", "Traction tires advised, oversize vehicles prohibited")])
        #expect(notice("pass", "pass:stevens", from: eased, to: reworded)?.priority == .normal, "another restriction change: 3")
    }

    @Test func avalancheDangerRisingAndAWarning() throws {
        let considerable = try Self.recorded("avalanche/stevens.json")
        let moderate = try Self.edited(considerable, [(#""above":{"level":3,"name":"Considerable""#, #""above":{"level":2,"name":"Moderate""#),
                                                      (#""near":{"level":3,"name":"Considerable""#, #""near":{"level":2,"name":"Moderate""#)])
        let risen = try #require(notice("avalanche", "avalanche:stevens", from: moderate, to: considerable))
        #expect(risen.priority == .high && risen.title == "Stevens Pass: avalanche danger Considerable above treeline, near treeline", "\(risen.title)")
        let eased = try #require(notice("avalanche", "avalanche:stevens", from: considerable, to: moderate))
        #expect(eased.priority == .low, "easing is news of 2")
        #expect(considerable["warning"]?.isNull == true, "none in effect in the recording")
        let warned = try Self.edited(considerable, [(#""warning":null"#, #""warning":{"headline":"Avalanche Warning"}"#)])
        #expect(notice("avalanche", "avalanche:stevens", from: considerable, to: warned)?.priority == .urgent)
        #expect(notice("avalanche", "avalanche:stevens", from: considerable, to: considerable) == nil)
    }

    @Test func aNewAlertByItsKind() throws {
        let advisory = try Self.recorded("alerts/stevens.json")
        var quiet = try #require(advisory.objectValue)
        quiet["alerts"] = .array([])
        let none = JSONValue.object(quiet)
        let issued = try #require(notice("alerts", "alerts:stevens", from: none, to: advisory))
        #expect(issued.priority == .normal && issued.title == "Winter Weather Advisory: Stevens Pass", "\(issued.title)")
        let warning = try Self.edited(advisory, [("Winter Weather Advisory", "Winter Storm Warning")])
        #expect(notice("alerts", "alerts:stevens", from: advisory, to: warning)?.priority == .urgent)
        let watch = try Self.edited(advisory, [("Winter Weather Advisory", "Winter Storm Watch")])
        #expect(notice("alerts", "alerts:stevens", from: advisory, to: watch)?.priority == .high)
        #expect(notice("alerts", "alerts:stevens", from: advisory, to: advisory) == nil, "re-issued unchanged: none")
        #expect(notice("alerts", "alerts:stevens", from: advisory, to: none)?.priority == .low, "ended: 2")
    }

    @Test func theGLevelReachingG1AndG3() throws {
        let g1 = try Self.recorded("aurora/stevens.json")
        let g0 = try Self.edited(g1, [(#""gScale":"G1""#, #""gScale":"G0""#)])
        let storm = try #require(notice("aurora", "aurora:stevens", from: g0, to: g1))
        #expect(storm.priority == .normal && storm.title.hasPrefix("Geomagnetic storm G1"), "\(storm.title)")
        let g3 = try Self.edited(g1, [(#""gScale":"G1""#, #""gScale":"G3""#)])
        #expect(notice("aurora", "aurora:stevens", from: g1, to: g3)?.priority == .high)
        #expect(notice("aurora", "aurora:stevens", from: g3, to: g1) == nil, "falling is not news")
    }

    @Test func aClearDarkWindowAppearing() throws {
        let cloudy: JSONValue = ["date": "2026-11-28", "darkness": "astronomical", "windows": [], "place": ["name": "Stevens Pass"]]
        let clear = try Self.edited(cloudy, [(#""windows":[]"#, #""windows":[{"start":"2026-11-29T03:10:00Z","end":"2026-11-29T06:40:00Z"}]"#)])
        let window = try #require(notice("night", "night:stevens", from: cloudy, to: clear))
        #expect(window.priority == .normal && window.title == "Clear and dark tonight at Stevens Pass: 2026-11-29T03:10:00Z–2026-11-29T06:40:00Z", "\(window.title)")
        #expect(notice("night", "night:stevens", from: clear, to: cloudy) == nil)
    }

    /// A kind no module presents reads through GenericPresentation: priority 3 on any change.
    @Test func aModuleThatSaysNothingGetsTheGenericNotice() throws {
        let before: JSONValue = ["height": 3.2], after: JSONValue = ["height": 4.1]
        let generic = try #require(notice("tide", "tide:seattle", from: before, to: after))
        #expect(generic.priority == .normal && generic.title.hasPrefix("tide:seattle: "), "\(generic.title)")
        #expect(notice("tide", "tide:seattle", from: before, to: before) == nil)
    }
}
