import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import ConditionsText
import Foundation
import Testing
@testable import Caltrans

/// California's passes as the shared pass kind reads them: each direction's level in Caltrans's
/// words, the checkpoints, the link and the map's place from the data, and a file older than
/// an hour marked old.
@Suite struct PresentationTests {
    let presentation = CaltransSource.presentations.first { $0.kind == .pass }!

    func plain(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
    }

    @Test func aStormyPassAsACardAndAsText() async throws {
        let http = try portal([Path.cc(10): try file(Body.storm10)])
        let data = try await makeSource().resolve("pass:ebbetts", context: context(http, now: When.stormMorning)).data
        let card = presentation.card(data, context: plain("pass:ebbetts"))
        #expect(card.title == "Ebbetts Pass SR 4")
        #expect(card.status == .init("restricted", tone: .caution))
        #expect(card.rows.first?.label == "Eastbound" && card.rows.first?.tone == .caution)
        #expect(card.rows.first?.value.hasPrefix("R-2: Chains or traction devices") == true)
        #expect(card.rows.filter { $0.label == "Checkpoint" }.count == 5)
        #expect(card.rows.contains { $0.value == "MOUNT REBA ROAD - EBBETTS PASS, eastbound: R-2 since 2025-12-24T16:19:00Z" }, "\(card.rows)")
        #expect(card.link?.label == "Caltrans's page for Ebbetts Pass SR 4")
        #expect(card.coordinate == .init(latitude: 38.5443, longitude: -119.8077))
        #expect(card.staleNote == nil, "ten minutes old")
        #expect(card.mapLabel == "Ebbetts")

        let text = presentation.render(data, context: plain("pass:ebbetts"))
        #expect(text.first == "Ebbetts Pass SR 4  RESTRICTED")
        #expect(text.contains { $0.contains("Westbound") && $0.contains("R-1: Chains are required on all vehicles except passenger vehicles") })
        #expect(text.last?.contains("8730 ft · updated 2025-12-24T16:30:00Z") == true, "\(text)")
    }

    /// The portal keeps serving a file it stopped writing: three hours on, the report says its age.
    @Test func aFileOverAnHourOldIsMarkedOld() async throws {
        let later = When.afterCapture.addingTimeInterval(3 * 3600)
        let data = try await makeSource().resolve("pass:carson", context: context(try portal(), now: later)).data
        #expect(data["reportAge"] == 10977)
        let card = presentation.card(data, context: plain("pass:carson"))
        #expect(card.staleNote == "report from 2026-09-30T03:57:03Z, 3 hours old", "\(card.staleNote ?? "none")")
        #expect(presentation.render(data, context: plain("pass:carson")).last?.contains("3 hours old") == true)
    }

    @Test func aClosedOrUnknownPassSaysWhy() async throws {
        let closed = try await makeSource().resolve("pass:ebbetts", context: context(try portal([Path.lcs(10): try file(Body.ebbettsClosed10)]), now: When.closureMorning)).data
        let card = presentation.card(closed, context: plain("pass:ebbetts"))
        #expect(card.status == .init("closed", tone: .bad))
        #expect(card.rows.first?.label == "Closed by")
        #expect(card.rows.first?.value.hasPrefix("a full closure of all lanes: “Full closure of all lanes, SR-4 Alpine") == true, "\(card.rows.first?.value ?? "")")
        let unknown = try await makeSource().resolve("pass:luther", context: context(try portal([Path.lcs(10): .status(500)]))).data
        #expect(presentation.card(unknown, context: plain("pass:luther")).rows.contains { $0.label == "Unknown because" })
    }
}
