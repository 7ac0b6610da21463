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
        checkCaliforniaShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "open")
        #expect(all.of("closed")?.state == false)
        #expect(all.of("closed")?.attributes["closedBy"] == .null)
        #expect(all.of("traction")?.state == false)
        #expect(all.of("traction")?.attributes["level"] == "R-0")
        #expect(all.of("temperature")?.state == .null)
        #expect(all.of("eastbound")?.state == data["restrictions"]?.arrayValue?.first?["text"])
        #expect(all.of("eastbound")?.attributes["level"] == "R-0")
        #expect(all.of("report_age")?.state == "2026-09-30T03:57:03Z", "the file's stamp, 2026-09-29 20:57:03 PDT")
        #expect(all.of("report_age")?.category == "diagnostic")
    }

    @Test func aFullClosureOfAllLanesIsClosedWithItsWords() async throws {
        let (_, all) = try await entities("pass:ebbetts", [Path.lcs(10): try file(Body.ebbettsClosed10)], now: When.closureMorning)
        checkCaliforniaShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "closed")
        #expect(all.of("closed")?.state == true)
        let words = try #require(all.of("closed")?.attributes["closedBy"]?.stringValue)
        #expect(words.hasPrefix("a full closure of all lanes: “Full closure of all lanes, SR-4 Alpine postmile 17.25–19"), "\(words)")
        #expect(all.of("traction")?.state == false)
        #expect(all.of("eastbound")?.state.stringValue?.hasPrefix("Closed: Full closure of all lanes") == true)
    }

    @Test func aCheckpointSayingClosedIsClosed() async throws {
        let (data, all) = try await entities("pass:monitor", [Path.cc(10): try file(Body.monitorClosed10)])
        checkCaliforniaShape(all, directions: nil)
        #expect(all.of("status")?.state == "closed")
        #expect(all.of("closed")?.state == true)
        #expect(all.of("closed")?.attributes["closedBy"] == "a checkpoint's status: “Highway 89 is closed at Monitor Pass for the winter season.”")
        for restriction in data["restrictions"]?.arrayValue ?? [] {
            let direction = try #require(restriction["direction"]?.stringValue)
            #expect(all.of(direction.lowercased())?.state == restriction["text"], "\(direction)")
        }
    }

    /// The storm of 2025-12-24: Ebbetts R-2 eastbound, R-1 westbound.
    @Test func chainControlsAreTraction() async throws {
        let (_, all) = try await entities("pass:ebbetts", [Path.cc(10): try file(Body.storm10)], now: When.stormMorning)
        checkCaliforniaShape(all, directions: ["eastbound", "westbound"])
        #expect(all.of("status")?.state == "restricted")
        #expect(all.of("closed")?.state == false)
        #expect(all.of("traction")?.state == true)
        #expect(all.of("traction")?.attributes["level"] == "R-2")
        #expect(all.of("eastbound")?.state.stringValue?.hasPrefix("R-2: Chains") == true)
        #expect(all.of("westbound")?.state.stringValue?.hasPrefix("R-1: Chains") == true)
        #expect(all.of("eastbound")?.attributes["status"] == "restricted")
    }

    @Test func aStatusThatIsNoLevelLeavesClosedAndTractionUnknown() async throws {
        let (_, all) = try await entities("pass:sonora", [Path.cc(10): try file(Body.unreadable10)])
        checkCaliforniaShape(all, directions: ["eastbound"])
        #expect(all.of("status")?.state == "unknown")
        #expect(all.of("status")?.attributes["unknownBecause"] == "a checkpoint's status could not be read")
        #expect(all.of("closed")?.state == .null)
        #expect(all.of("traction")?.state == .null)
    }

    /// Echo Summit has District 3's real cameras; the first (nearest) is the `camera`.
    @Test func theFirstCameraIsAnAttribute() async throws {
        let (data, all) = try await entities("pass:echo", now: When.stormMorning)
        checkCaliforniaShape(all, directions: nil)
        let first = try #require(data["cameras"]?.arrayValue?.first?["imageURL"]?.stringValue)
        #expect(all.of("status")?.attributes["camera"] == .string(first))
        #expect(all.of("closed")?.attributes["camera"] == .string(first))
        #expect(all.of("traction")?.state == true, "R-2 at Twin Bridges")
    }

    @Test func passAllIsTheMostUrgentPass() async throws {
        let (calm, calmEntities) = try await entities("pass:all")
        checkCaliforniaShape(calmEntities, directions: nil)
        let passes = try #require(calm["passes"]?.arrayValue)
        // Districts 3 and 9 are served their derived storm files: a restricted pass is the most urgent.
        let firstRestricted = try #require(passes.first { $0["status"] == "restricted" })
        #expect(calmEntities.of("status")?.state == "restricted")
        #expect(calmEntities.of("status")?.attributes["pass"] == firstRestricted["name"])
        #expect(calmEntities.of("traction")?.state == true)
        let (_, closed) = try await entities("pass:all", [Path.lcs(10): try file(Body.ebbettsClosed10)], now: When.closureMorning)
        #expect(closed.of("status")?.state == "closed")
        #expect(closed.of("status")?.attributes["pass"] == "Ebbetts Pass SR 4")
        #expect(closed.of("closed")?.state == true)
        for pass in passes {
            let one = presentation.entities(pass, context: plain("pass:all"))
            checkCaliforniaShape(one, directions: nil)
            #expect(one.of("status")?.state == pass["status"], "\(pass["id"] ?? .null)")
        }
    }

    /// A chain-control level counts from a checkpoint too; garbage is unknown and never traps.
    @Test func oddData() {
        let checkpointOnly = presentation.entities(["status": "restricted", "restrictions": [], "checkpoints": [["level": " r-1 "], ["level": 4]]],
                                                   context: plain("pass:odd"))
        #expect(checkpointOnly.of("traction")?.state == true)
        #expect(checkpointOnly.of("traction")?.attributes["level"] == "R-1")
        for garbage: JSONValue in [.null, "x", [["status": "open"]], ["status": [], "restrictions": [["direction": [], "level": "R-9"]]],
                                   ["passes": [.null]], ["checkpoints": [["level": "R-3"]], "restrictions": 1]] {
            let all = presentation.entities(garbage, context: plain("pass:odd"))
            checkCaliforniaShape(all, directions: nil)
            for key in ["status", "closed", "temperature", "report_age"] { #expect(all.of(key)?.state == .null, "\(key) of \(garbage)") }
        }
    }
}

extension [Entity] {
    /// The entity keyed `key`.
    fileprivate func of(_ key: String) -> Entity? { first { $0.key == key } }
}

/// Each key once and `[a-z0-9_]`, the five fixed keys in place, the status an enum of exactly
/// the four words whose state is one of them or unknown, and (when given) the direction keys.
private func checkCaliforniaShape(_ entities: [Entity], directions: [String]?, sourceLocation: SourceLocation = #_sourceLocation) {
    let middle = directions ?? Array(entities.map(\.key).dropFirst(4).dropLast())
    #expect(entityProblems(entities, keys: ["status", "closed", "traction", "temperature"] + middle + ["report_age"]) == [],
            sourceLocation: sourceLocation)
    #expect(entities.first { $0.key == "status" }?.options == ["open", "restricted", "closed", "unknown"], sourceLocation: sourceLocation)
}
