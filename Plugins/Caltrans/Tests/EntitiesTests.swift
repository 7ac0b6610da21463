import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import ConditionsText
import Foundation
import Testing
@testable import Caltrans

/// The pass kind's Home Assistant entities on California's passes, read by the module from the
/// District 10 files as captured (every checkpoint R-0) and from those derived from them
/// (Resources/SOURCES.md): the storm's chain controls, the full closure of SR-4 near Ebbetts,
/// Monitor's checkpoint saying closed, a status that is no level; District 3's real cameras.
@Suite struct EntitiesTests {
    let presentation = CaltransSource.presentations.first { $0.kind == .pass }!

    func entities(_ urn: String, _ changes: [String: RecordingHTTPClient.Reply] = [:], now: Date = When.afterCapture) async throws -> (JSONValue, [Entity]) {
        let data = try await makeSource().resolve(urn, context: context(try portal(changes), now: now)).data
        return (data, presentation.entities(data, context: plain(urn)))
    }

    func plain(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) }
    }

    /// The real file: Ebbetts open, R-0 both ways, no temperature (CWWP2 has none).
    @Test func theRealFileReadsOpen() async throws {
        let (data, all) = try await entities("pass:ebbetts")
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "open")
        #expect(entity("closed", in: all)?.state == false)
        #expect(entity("closed", in: all)?.attributes["closedBy"] == .null)
        #expect(entity("traction", in: all)?.state == false)
        #expect(entity("traction", in: all)?.attributes["level"] == "R-0")
        #expect(entity("temperature", in: all)?.state == .null)
        #expect(entity("eastbound", in: all)?.state == data["restrictions"]?.arrayValue?.first?["text"])
        #expect(entity("eastbound", in: all)?.attributes["level"] == "R-0")
        #expect(entity("report_age", in: all)?.state == "2026-09-30T03:57:03Z", "the file's stamp, 2026-09-29 20:57:03 PDT")
        #expect(entity("report_age", in: all)?.category == "diagnostic")
    }

    @Test func aFullClosureOfAllLanesIsClosedWithItsWords() async throws {
        let (_, all) = try await entities("pass:ebbetts", [Path.lcs(10): try file(Body.ebbettsClosed10)], now: When.closureMorning)
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "closed")
        #expect(entity("closed", in: all)?.state == true)
        let words = try #require(entity("closed", in: all)?.attributes["closedBy"]?.stringValue)
        #expect(words.hasPrefix("a full closure of all lanes: “Full closure of all lanes, SR-4 Alpine postmile 17.25–19"), "\(words)")
        #expect(entity("traction", in: all)?.state == false)
        #expect(entity("eastbound", in: all)?.state.stringValue?.hasPrefix("Closed: Full closure of all lanes") == true)
    }

    @Test func aCheckpointSayingClosedIsClosed() async throws {
        let (data, all) = try await entities("pass:monitor", [Path.cc(10): try file(Body.monitorClosed10)])
        #expect(passEntityProblems(all, directions: nil) == [])
        #expect(entity("status", in: all)?.state == "closed")
        #expect(entity("closed", in: all)?.state == true)
        #expect(entity("closed", in: all)?.attributes["closedBy"] == "a checkpoint's status: “Highway 89 is closed at Monitor Pass for the winter season.”")
        for restriction in data["restrictions"]?.arrayValue ?? [] {
            let direction = try #require(restriction["direction"]?.stringValue)
            #expect(entity(direction.lowercased(), in: all)?.state == restriction["text"], "\(direction)")
        }
    }

    /// The storm of 2025-12-24: Ebbetts R-2 eastbound, R-1 westbound.
    @Test func chainControlsAreTraction() async throws {
        let (_, all) = try await entities("pass:ebbetts", [Path.cc(10): try file(Body.storm10)], now: When.stormMorning)
        #expect(passEntityProblems(all, directions: ["eastbound", "westbound"]) == [])
        #expect(entity("status", in: all)?.state == "restricted")
        #expect(entity("closed", in: all)?.state == false)
        #expect(entity("traction", in: all)?.state == true)
        #expect(entity("traction", in: all)?.attributes["level"] == "R-2")
        #expect(entity("eastbound", in: all)?.state.stringValue?.hasPrefix("R-2: Chains") == true)
        #expect(entity("westbound", in: all)?.state.stringValue?.hasPrefix("R-1: Chains") == true)
        #expect(entity("eastbound", in: all)?.attributes["status"] == "restricted")
    }

    @Test func aStatusThatIsNoLevelLeavesClosedAndTractionUnknown() async throws {
        let (_, all) = try await entities("pass:sonora", [Path.cc(10): try file(Body.unreadable10)])
        #expect(passEntityProblems(all, directions: ["eastbound"]) == [])
        #expect(entity("status", in: all)?.state == "unknown")
        #expect(entity("status", in: all)?.attributes["unknownBecause"] == "a checkpoint's status could not be read")
        #expect(entity("closed", in: all)?.state == .null)
        #expect(entity("traction", in: all)?.state == .null)
    }

    /// Echo Summit has District 3's real cameras; the first (nearest) is the `camera`.
    @Test func theFirstCameraIsAnAttribute() async throws {
        let (data, all) = try await entities("pass:echo", now: When.stormMorning)
        #expect(passEntityProblems(all, directions: nil) == [])
        let first = try #require(data["cameras"]?.arrayValue?.first?["imageURL"]?.stringValue)
        #expect(entity("status", in: all)?.attributes["camera"] == .string(first))
        #expect(entity("closed", in: all)?.attributes["camera"] == .string(first))
        #expect(entity("traction", in: all)?.state == true, "R-2 at Twin Bridges")
    }

    @Test func passAllIsTheMostUrgentPass() async throws {
        let (calm, calmEntities) = try await entities("pass:all")
        #expect(passEntityProblems(calmEntities, directions: nil) == [])
        let passes = try #require(calm["passes"]?.arrayValue)
        // Districts 3 and 9 are served their derived storm files: a restricted pass is the most urgent.
        let firstRestricted = try #require(passes.first { $0["status"] == "restricted" })
        #expect(entity("status", in: calmEntities)?.state == "restricted")
        #expect(entity("status", in: calmEntities)?.attributes["pass"] == firstRestricted["name"])
        #expect(entity("traction", in: calmEntities)?.state == true)
        let (_, closed) = try await entities("pass:all", [Path.lcs(10): try file(Body.ebbettsClosed10)], now: When.closureMorning)
        #expect(entity("status", in: closed)?.state == "closed")
        #expect(entity("status", in: closed)?.attributes["pass"] == "Ebbetts Pass SR 4")
        #expect(entity("closed", in: closed)?.state == true)
        for pass in passes {
            let one = presentation.entities(pass, context: plain("pass:all"))
            #expect(passEntityProblems(one, directions: nil) == [])
            #expect(entity("status", in: one)?.state == pass["status"], "\(pass["id"] ?? .null)")
        }
    }

    /// A chain-control level counts from a checkpoint too; garbage is unknown and never traps.
    @Test func oddData() {
        let checkpointOnly = presentation.entities(["status": "restricted", "restrictions": [], "checkpoints": [["level": " r-1 "], ["level": 4]]],
                                                   context: plain("pass:odd"))
        #expect(entity("traction", in: checkpointOnly)?.state == true)
        #expect(entity("traction", in: checkpointOnly)?.attributes["level"] == "R-1")
        for garbage: JSONValue in [.null, "x", [["status": "open"]], ["status": [], "restrictions": [["direction": [], "level": "R-9"]]],
                                   ["passes": [.null]], ["checkpoints": [["level": "R-3"]], "restrictions": 1]] {
            let all = presentation.entities(garbage, context: plain("pass:odd"))
            #expect(passEntityProblems(all, directions: nil) == [])
            for key in ["status", "closed", "temperature", "report_age"] { #expect(entity(key, in: all)?.state == .null, "\(key) of \(garbage)") }
        }
    }
}
