import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// How `pass` results read (`PassPresentation`): text and what `watch` compares. The
/// end-to-end text of real results is pinned by the CLI tests; these cover the edges.
@Suite struct PresentationTests {
    let presentation = PassPresentation.washington

    func pass(age: Int, updated: String, text: String = "No restrictions") -> JSONValue {
        ["id": "stevens", "name": "Stevens Pass US 2", "status": "open",
         "restrictions": [["direction": "Eastbound", "text": .string(text), "status": "open"]],
         "updated": .string(updated), "reportAge": .int(age)]
    }

    func context(_ urn: String = "pass:stevens") -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: nil) { date, style in
            "\(style == .date ? "day" : "time") \(Timestamp.string(from: date))"
        }
    }

    @Test func watchDoesNotAnnounceAReportWhoseOnlyChangeIsItsAge() {
        let before = presentation.changeKey(pass(age: 60, updated: "2025-12-15T07:41:03Z"))
        #expect(before == ChangeKey(status: "open", detail: "No restrictions"))
        #expect(presentation.changeKey(pass(age: 86_400 * 200, updated: "2025-12-15T07:41:03Z")) == before)
        #expect(presentation.changeKey(pass(age: 600, updated: "2025-12-15T08:00:00Z")) == before)
        #expect(presentation.changeKey(pass(age: 60, updated: "2025-12-15T07:41:03Z", text: "Chains required")) != before)
        let all: JSONValue = ["passes": [pass(age: 1, updated: "x")]]
        #expect(presentation.changeKey(all) == presentation.changeKey(["passes": [pass(age: 99_999_999, updated: "y")]]))
        #expect(presentation.changeKey(all).status == "stevens=open")
    }

    @Test func aStaleReportSaysHowOld() {
        let lines = presentation.render(pass(age: 86_400 * 200, updated: "2025-12-15T07:41:03Z"), context: context())
        #expect(lines == [
            "Stevens Pass US 2  OPEN",
            "  Eastbound  No restrictions",
            "             report from day 2025-12-15T07:41:03Z, 6 months old",
        ])
        #expect(presentation.render(pass(age: 60, updated: "2025-12-15T07:41:03Z"), context: context()).last
            == "             updated time 2025-12-15T07:41:03Z")
    }

    @Test func restrictionsWSDOTDoesNotKeepCurrentAreMarkedAndThePagesOtherRowsAreShown() {
        func data(current: Bool) -> JSONValue {
            var restriction: JSONObject = JSONObject([("direction", "Eastbound"), ("text", "No restrictions"), ("status", "open")])
            if !current { restriction["current"] = false }
            return ["id": "stevens", "name": "Stevens Pass US 2", "status": current ? "open" : "unknown",
                    "restrictions": [.object(restriction)],
                    "travelAdvisory": .bool(current), "extra": ["Snow depth at summit": "41 in"],
                    "updated": "2025-12-15T07:41:03Z", "reportAge": 60]
        }
        #expect(presentation.render(data(current: true), context: context()) == [
            "Stevens Pass US 2  OPEN",
            "  Eastbound             No restrictions",
            "  Snow depth at summit  41 in",
            "                        updated time 2025-12-15T07:41:03Z",
        ])
        #expect(presentation.render(data(current: false), context: context()) == [
            "Stevens Pass US 2  UNKNOWN",
            "  Eastbound             No restrictions (not current)",
            "                        WSDOT is not keeping this pass's restrictions current; check before you go",
            "  Snow depth at summit  41 in",
            "                        updated time 2025-12-15T07:41:03Z",
        ])
        let card = presentation.card(data(current: false), context: context())
        #expect(card.rows.first == .init("Eastbound", "No restrictions (not current)", tone: .neutral))
        #expect(card.status == .init("unknown", tone: .neutral))
    }

    @Test func stalenessWording() {
        #expect(PassPresentation.staleness(86_400 * 2) == "2 days")
        #expect(PassPresentation.staleness(86_400 * 21) == "3 weeks")
        #expect(PassPresentation.staleness(86_400 * 200) == "6 months")
        #expect(PassPresentation.staleness(86_400 * 800) == "2 years")
    }

    @Test func dataThatIsNotAPassReadsAsGenericText() {
        let lines = presentation.render(["note": "hello"], context: context("pass:odd"))
        #expect(lines == ["pass:odd", "  note  hello"])
        #expect(presentation.changeKey(["note": "hello"]) == ChangeKey(status: "changed", detail: #"{"note":"hello"}"#))
    }

    @Test func theModuleDeclaresItsPresentation() {
        #expect(WSDOTPassSource.presentations.map(\.kind) == [.pass, .snowfall])
    }
}
