import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// A closed road must never read "restricted": the ordinary wordings of a closure, in a
/// restriction and in the road condition, upper and lower case, through all three modes. Each
/// mode's body is a real one with Stevens Pass's texts replaced: the Traveler API answer and
/// the mobile feed of 2025-11-15 (Resources/real and derived/SOURCES.md) and the rendered
/// wsdot.com page of 2025-11-02.
@Suite("Closure phrases, in every position and mode")
struct ClosurePhraseTests {
    /// What a phrase closes: the directions it names (lowercased), every direction, none named
    /// (its own row in a restriction, every direction in the road condition), or nothing.
    enum Closes: Sendable, CustomStringConvertible {
        case named(Set<String>), every, unnamed, nothing

        var description: String {
            switch self {
            case .named(let directions): return directions.sorted().joined(separator: "+")
            case .every: return "every direction"
            case .unnamed: return "no direction named"
            case .nothing: return "nothing"
            }
        }
    }

    static let phrases: [(String, Closes)] = [
        // The issue's phrases: each closes the named direction, or both.
        ("Pass closed to westbound traffic at milepost 58", .named(["westbound"])),
        ("Closed to westbound traffic", .named(["westbound"])),
        ("Closed to eastbound vehicles", .named(["eastbound"])),
        ("Westbound lanes closed", .named(["westbound"])),
        ("All lanes closed", .unnamed),
        ("Both directions closed", .every),
        ("Closed in both directions at milepost 52", .every),
        ("Westbound is closed", .named(["westbound"])),
        ("WB closed", .named(["westbound"])),
        ("EB/WB closed", .named(["eastbound", "westbound"])),
        ("Westbound closed due to a collision", .named(["westbound"])),
        // Shut, blocked, impassable.
        ("The highway is shut", .unnamed),
        ("Eastbound shut at milepost 34", .named(["eastbound"])),
        ("All westbound lanes blocked by a collision", .named(["westbound"])),
        ("Both lanes blocked", .unnamed),
        ("The road is impassable", .unnamed),
        ("US 2 eastbound impassable east of the summit", .named(["eastbound"])),
        ("Closed to all traffic except emergency vehicles", .unnamed),
        ("Closed until further notice, expected to reopen at noon", .unnamed),
        ("Westbound lanes closed, eastbound reopened", .named(["westbound"])),
        // Narrower: a class of vehicle, a lane, a facility, a section beyond, negated, reopened.
        ("Closed to trucks", .nothing),
        ("Closed to commercial vehicles", .nothing),
        ("Closed to vehicles over 10,000 GVW", .nothing),
        ("Closed to oversize loads", .nothing),
        ("Closed to vehicles towing trailers", .nothing),
        ("Closed to RVs and buses", .nothing),
        ("Westbound closed to trucks", .nothing),
        ("Right lane closed", .nothing),
        ("One westbound lane closed near milepost 52", .nothing),
        ("Two lanes closed", .nothing),
        ("Left lanes blocked", .nothing),
        ("Shoulder closed", .nothing),
        ("Eastbound on-ramp closed at exit 52", .nothing),
        ("Eastbound rest area closed", .nothing),
        ("Hyak sno-park is closed", .nothing),
        ("The final section of the highway beyond the summit is closed for the season", .nothing),
        ("Westbound is not closed", .nothing),
        ("The pass is no longer closed", .nothing),
        ("Westbound lanes have reopened", .nothing),
    ]

    enum Mode: String, CaseIterable, Sendable { case api, feed, html }

    static let apiURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=k"
    static let feedURL = "https://data.wsdot.wa.gov/mobile/MountainPassConditions.json"
    /// The body each mode reads: Stevens Pass's (id 10) texts replaced, the rest as captured.
    static func reply(_ mode: Mode, eastbound: String, westbound: String, conditions: String) throws -> RecordingHTTPClient.Reply {
        func replaced(_ entry: JSONValue) -> JSONValue {
            guard var object = entry.objectValue, object["MountainPassId"]?.intValue == 10 else { return entry }
            object["RestrictionOne"] = ["TravelDirection": "Eastbound", "RestrictionText": .string(eastbound)]
            object["RestrictionTwo"] = ["TravelDirection": "Westbound", "RestrictionText": .string(westbound)]
            object["RoadCondition"] = .string(conditions)
            object["TravelAdvisoryActive"] = true
            return .object(object)
        }
        switch mode {
        case .api:
            let passes = try #require(try JSONValue.parse(realCapture("DERIVED_wsdot_api_passes_2025-11-15_wcf_raw_form.json")).arrayValue)
            return .body(Data(JSONValue.array(passes.map(replaced)).serialized().utf8), contentType: "application/json")
        case .feed:
            let feed = try JSONValue.parse(fixture("derived/mobile-feed-2025-11-15.json"))
            let passes = try #require(feed["GetMountainPassConditionsResult"]?["PassCondition"]?.arrayValue)
            let body: JSONValue = ["GetMountainPassConditionsResult": ["PassCondition": .array(passes.map(replaced))]]
            return .body(Data(body.serialized().utf8), contentType: "application/json; charset=utf-8")
        case .html:
            var page = String(decoding: try realCapture("wsdot_new_stevens_fullpage_rendered_2025-11-02.html"), as: UTF8.self)
            func escaped(_ text: String) -> String {
                text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            }
            let restriction = ">Traction Tires Advised, Oversize Vehicles Prohibited.<"
            for text in [eastbound, westbound] {
                let range = try #require(page.range(of: restriction))
                page.replaceSubrange(range, with: ">\(escaped(text))<")
            }
            let condition = try #require(page.range(of: ">Bare and wet with snow and slush in places.<"))
            page.replaceSubrange(condition, with: ">\(escaped(conditions))<")
            return .body(Data(page.utf8), contentType: "text/html; charset=utf-8")
        }
    }

    /// Stevens Pass as `mode` reads the texts given.
    static func stevens(_ mode: Mode, eastbound: String, westbound: String, conditions: String) async throws -> JSONValue {
        let reply = try reply(mode, eastbound: eastbound, westbound: westbound, conditions: conditions)
        switch mode {
        case .api:
            return try await resolve("pass:stevens", with: makeSource(.json(#"{"mode": "api", "accessCode": "k"}"#)), http: RecordingHTTPClient([apiURL: reply]))
        case .feed:
            return try await resolve("pass:stevens", with: makeSource(.json(#"{"mode": "feed"}"#)), http: RecordingHTTPClient([feedURL: reply]))
        case .html:
            return try await resolve("pass:stevens", with: makeSource(.json(#"{"passes": ["stevens"]}"#)), http: RecordingHTTPClient(["\(siteBase)/stevens": reply]))
        }
    }

    /// Each phrase in the eastbound restriction (the westbound one saying "No restrictions"), then
    /// in the road condition (both restrictions saying "No restrictions"), as written, upper and
    /// lower case, in each mode: the pass's and each direction's status, `closedBy` and the words.
    @Test("a phrase closes what it names, in a restriction and in the road condition, in any case, in every mode", arguments: phrases)
    func phrase(_ phrase: String, closes: Closes) async throws {
        for mode in Mode.allCases {
            for text in [phrase, phrase.uppercased(), phrase.lowercased()] {
                let asRestriction = try await Self.stevens(mode, eastbound: text, westbound: "No restrictions", conditions: "Bare and wet.")
                let eastbound: String, westbound: String
                switch closes {
                case .nothing: (eastbound, westbound) = ("restricted", "open")
                case .unnamed: (eastbound, westbound) = ("closed", "open")
                case .every: (eastbound, westbound) = ("closed", "closed")
                case .named(let named): (eastbound, westbound) = (named.contains("eastbound") ? "closed" : "restricted", named.contains("westbound") ? "closed" : "open")
                }
                let label = "\(mode) restriction \"\(text)\" (closes \(closes))"
                #expect(asRestriction["restrictions"]?[index: 0]?["status"] == .string(eastbound), "\(label)")
                #expect(asRestriction["restrictions"]?[index: 1]?["status"] == .string(westbound), "\(label)")
                if case .nothing = closes {
                    #expect(asRestriction["status"] == "restricted", "\(label)")
                    #expect(asRestriction["closedBy"] == nil, "\(label)")
                } else {
                    #expect(asRestriction["status"] == "closed", "\(label)")
                    #expect(asRestriction["closedBy"] == ["restrictions"], "\(label)")
                    #expect(asRestriction["closedByText"] == [.string(text)], "\(label)")
                }

                let asCondition = try await Self.stevens(mode, eastbound: "No restrictions", westbound: "No restrictions", conditions: text + ".")
                let conditionLabel = "\(mode) road condition \"\(text).\" (closes \(closes))"
                let expected: [String]
                switch closes {
                case .nothing: expected = ["open", "open"]
                case .unnamed, .every: expected = ["closed", "closed"]
                case .named(let named): expected = ["eastbound", "westbound"].map { named.contains($0) ? "closed" : "open" }
                }
                #expect(asCondition["restrictions"]?.arrayValue?.map { $0["status"]?.stringValue ?? "?" } == expected, "\(conditionLabel)")
                if case .nothing = closes {
                    #expect(asCondition["status"] == "open", "\(conditionLabel)")
                } else {
                    #expect(asCondition["status"] == "closed", "\(conditionLabel)")
                    #expect(asCondition["closedBy"] == ["conditions"], "\(conditionLabel)")
                    #expect(asCondition["closedByText"] == [.string(text + ".")], "\(conditionLabel)")
                }
            }
        }
    }

    /// "Closed to westbound traffic" is usually written in both rows; the eastbound one then
    /// reads restricted, not open: its text is not "No restrictions".
    @Test("a closure named in both rows closes the direction named, once in closedByText", arguments: Mode.allCases)
    func bothRows(mode: Mode) async throws {
        let text = "Pass closed to westbound traffic at milepost 58 due to a collision."
        let pass = try await Self.stevens(mode, eastbound: text, westbound: text, conditions: "Bare and wet.")
        #expect(pass["status"] == "closed")
        #expect(pass["restrictions"]?.arrayValue?.map { $0["status"]?.stringValue ?? "?" } == ["restricted", "closed"])
        #expect(pass["closedByText"] == [.string(text)])
    }

    /// A direction the pass does not have closes every direction: better checked than misread.
    @Test("a closure naming a direction Stevens Pass lacks closes both of its directions", arguments: Mode.allCases)
    func foreignDirection(mode: Mode) async throws {
        let pass = try await Self.stevens(mode, eastbound: "No restrictions", westbound: "No restrictions", conditions: "Northbound lanes closed at milepost 64.")
        #expect(pass["restrictions"]?.arrayValue?.map { $0["status"]?.stringValue ?? "?" } == ["closed", "closed"])
    }

    /// The words that closed the pass show where people read it, and are outside the change
    /// key: an upgrade that adds `closedByText` makes no change event.
    @Test("the closing words show in text and on the card, and leave the change key alone")
    func words() async throws {
        let pass = try await Self.stevens(.feed, eastbound: "No restrictions", westbound: "No restrictions", conditions: "Bare and wet. WB closed due to a collision near milepost 58.")
        let context = PresentationContext(urn: "pass:stevens", style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) }
        let text = PassPresentation.washington.render(pass, context: context)
        #expect(text.contains { $0.contains("Closed by") && $0.hasSuffix("the road condition: “WB closed due to a collision near milepost 58.”") }, "\(text)")
        let card = PassPresentation.washington.card(pass, context: context)
        #expect(card.rows.contains { $0.label == "Closed by" && $0.value.contains("“WB closed due to a collision near milepost 58.”") })
        var older = try #require(pass.objectValue)
        older["closedByText"] = nil
        #expect(PassPresentation.washington.changeKey(.object(older)) == PassPresentation.washington.changeKey(pass))
    }
}
