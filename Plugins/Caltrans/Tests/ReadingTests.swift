import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsPass
import ConditionsText
import Foundation
import Testing
@testable import Caltrans

/// California's passes read from the real District 10 files and the files derived from them:
/// levels per direction with Caltrans's wording, closures from the lane-closure file and from a
/// checkpoint's words, what cannot be read never reading open, and the portal's traps.
@Suite struct ReadingTests {
    @Test func theRealDistrict10FileReadsEveryPassOpenWithItsCheckpoints() async throws {
        let http = try portal()
        let source = try makeSource()
        let expected = ["ebbetts": (5, ["Eastbound open R-0", "Westbound open R-0"]), "carson": (2, ["Eastbound open R-0", "Westbound open R-0"]),
                        "luther": (1, ["Southbound open R-0"]), "monitor": (1, ["Eastbound open R-0"]), "sonora": (3, ["Eastbound open R-0"])]
        for (id, (count, directions)) in expected {
            let data = try await source.resolve("pass:\(id)", context: context(http)).data
            #expect(data["status"] == "open", "\(id)")
            #expect(data["checkpoints"]?.arrayValue?.count == count, "\(id)")
            #expect(data.directions == directions, "\(id)")
            #expect(data["restrictions"]?.arrayValue?.first?["text"] == "No chain controls are in effect at this time.", "the real R-0 words")
            #expect(data["source"] == "Caltrans" && data["verified"] == true && data["staleAfter"] == 3600)
            #expect(data["updated"] == "2026-09-30T03:57:03Z", "recordTimestamp 20:57:03 is Pacific daylight time")
            #expect(data["reportAge"] == 177)
        }
        let ebbetts = try await source.resolve("pass:ebbetts", context: context(http)).data
        #expect(ebbetts["name"] == "Ebbetts Pass SR 4")
        #expect(ebbetts["checkpoints"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" }.first == "MOUNT REBA ROAD - EBBETTS PASS")
        #expect(ebbetts["checkpoints"]?.arrayValue?.first?["since"] == "2026-04-14T19:44:11Z", "12:44:11 PDT")
        #expect(ebbetts["url"] == "https://roads.dot.ca.gov/roadscell.php?roadnumber=4")
        #expect(ebbetts["latitude"] == .double(38.5443) && ebbetts["elevationFt"] == 8730)
    }

    @Test func aStormReadsEachDirectionsStrictestLevelInCaltranssWords() async throws {
        let http = try portal([Path.cc(10): try file(Body.storm10)])
        let data = try await makeSource().resolve("pass:ebbetts", context: context(http, now: When.stormMorning)).data
        #expect(data["status"] == "restricted")
        #expect(data.directions == ["Eastbound restricted R-2", "Westbound restricted R-1"])
        let east = try #require(data["restrictions"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(east.hasPrefix("R-2: Chains or traction devices are required on all vehicles except four wheel/ all wheel drive"), "\(east)")
        let carson = try await makeSource().resolve("pass:carson", context: context(http, now: When.stormMorning)).data
        #expect(carson.directions == ["Eastbound restricted R-1", "Westbound open R-0"])
        #expect(carson["status"] == "restricted")

        // The change key moves with a level: R-0 to R-2 is news, once.
        let presentation = PassPresentation(publisher: "Caltrans", map: nil)
        let before = try await makeSource().resolve("pass:ebbetts", context: context(try portal())).data
        #expect(presentation.changeKey(before) != presentation.changeKey(data))
        #expect(presentation.changeKey(data) == presentation.changeKey(try await makeSource().resolve("pass:ebbetts", context: context(http, now: When.stormMorning.addingTimeInterval(60))).data))
    }

    @Test func aFullClosureInEffectClosesThePassAndSaysWhichWords() async throws {
        let http = try portal([Path.lcs(10): try file(Body.ebbettsClosed10)])
        let data = try await makeSource().resolve("pass:ebbetts", context: context(http, now: When.closureMorning)).data
        #expect(data["status"] == "closed")
        #expect(data.directions == ["Eastbound closed -", "Westbound closed -"])
        #expect(data["closedBy"] == ["laneClosures"])
        let words = try #require(data["closedByText"]?.arrayValue?.first?.stringValue)
        #expect(words == "Full closure of all lanes, SR-4 Alpine postmile 17.25–19, eastbound and westbound: 400' east of Highland Lake Road to near Ebetts pass, Only one full closure allowed within the PM limits.", "\(words)")
        // Once it is picked up (the real file, its 10-98 at 09:37) or outside its window, the pass is open again.
        #expect(try await makeSource().resolve("pass:ebbetts", context: context(try portal(), now: When.closureMorning)).data["status"] == "open")
        #expect(try await makeSource().resolve("pass:ebbetts", context: context(http, now: When.closureMorning.addingTimeInterval(12 * 3600))).data["status"] == "open")
        // The real full closure on SR-26 (in effect, 10-97 and no 10-98) is on no pass: Carson and Sonora stay open.
        for pass in ["carson", "sonora", "luther", "monitor"] {
            #expect(try await makeSource().resolve("pass:\(pass)", context: context(http, now: When.closureMorning)).data["status"] == "open", "\(pass)")
        }
    }

    @Test func aCheckpointSayingClosedClosesItsDirection() async throws {
        let http = try portal([Path.cc(10): try file(Body.monitorClosed10)])
        let data = try await makeSource().resolve("pass:monitor", context: context(http)).data
        #expect(data["status"] == "closed")
        #expect(data["closedBy"] == ["checkpoints"])
        #expect(data["closedByText"] == ["Highway 89 is closed at Monitor Pass for the winter season."])
    }

    @Test func aStatusThatIsNoLevelIsUnknownNeverOpen() async throws {
        let http = try portal([Path.cc(10): try file(Body.unreadable10)])
        let data = try await makeSource().resolve("pass:sonora", context: context(http)).data
        #expect(data["status"] == "unknown")
        #expect(data.directions == ["Eastbound unknown -"])
        #expect(data["restrictions"]?.arrayValue?.first?["text"] == "Status not readable at EAGLE MEADOWS RD - SONORA PASS: \"-118.1307759\"")
        #expect(data["checkpoints"]?.arrayValue?[1]["level"] == "-118.1307759", "the raw value kept")
        #expect(data["unknownBecause"] == "a checkpoint's status could not be read")
    }

    @Test func withoutTheLaneClosuresAnOpenPassIsUnknownButARestrictedOneStaysRestricted() async throws {
        let broken = try portal([Path.lcs(10): .status(500)])
        let open = try await makeSource().resolve("pass:luther", context: context(broken)).data
        #expect(open["status"] == "unknown")
        let reason = open["unknownBecause"]?.stringValue ?? ""
        #expect(reason.hasPrefix("District 10's lane closures could not be read (HTTP 500"), "\(reason)")
        let storm = try portal([Path.cc(10): try file(Body.storm10), Path.lcs(10): .status(500)])
        #expect(try await makeSource().resolve("pass:ebbetts", context: context(storm, now: When.stormMorning)).data["status"] == "restricted")
    }

    @Test func theTrapsOfThePortal() async throws {
        // Not UTF-8: read lossily, the file whole.
        let latin1 = try portal([Path.cc(10): try file(Body.notUTF8)])
        #expect(try await makeSource().resolve("pass:ebbetts", context: context(latin1)).data["status"] == "open")
        // An empty list is a bad response naming the file.
        let empty = try portal([Path.cc(10): .json(#"{"data": []}"#)])
        let error = try #require(await makeSource().error(resolving: "pass:ebbetts", context: context(empty)) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.contains("District 10 chain controls") && error.message.contains("empty"), "\(error.message)")
        // inService: `True`, blank and `false`.
        let rows = """
        {"data": [{"cc": {"index": "a", "inService": "True", "location": {"locationName": "ONE - EBBETTS PASS", "direction": "East"}, "statusData": {"status": "R-0"}}},
                  {"cc": {"index": "b", "inService": "", "location": {"locationName": "TWO"}, "statusData": {"status": "R-0"}}},
                  {"cc": {"index": "c", "inService": "false", "location": {"locationName": "THREE"}, "statusData": {"status": "R-1"}}}]}
        """
        let checkpoints = try CWWP2.rows(Data(rows.utf8), member: "cc", what: "test").compactMap(Checkpoint.init)
        #expect(checkpoints.map(\.inService) == [true, true, false])
        #expect(checkpoints.map(\.level) == [.r0, .r0, .r1])
        // The folder is not zero-padded, the file is.
        #expect(CWWP2.url(.chainControls, district: 3, baseURL: URL(string: "https://cwwp2.dot.ca.gov/data")!).absoluteString
                == "https://cwwp2.dot.ca.gov/data/d3/cc/ccStatusD03.json")
    }

    @Test func aDistrictThatAnswers500FailsItsPassesAndNoOthers() async throws {
        let http = try portal([Path.cc(3): .status(500)])
        let error = try #require(await makeSource().error(resolving: "pass:donner", context: context(http, now: When.stormMorning)))
        #expect(ConditionsError.report(error).kind == .http)
        #expect(ConditionsError.report(error).message.contains("/d3/cc/ccStatusD03.json"), "\(error)")
        #expect(try await makeSource().resolve("pass:ebbetts", context: context(http)).data["status"] == "open")
        #expect(try await makeSource().resolve("pass:conway", context: context(http)).data["status"] == "open")
        // Every pass or none: the list names the district and its passes.
        let all = try #require(await makeSource().error(resolving: "pass:all", context: context(http)))
        let report = ConditionsError.report(all)
        #expect(report.kind == .http)
        #expect(report.message.hasPrefix("Caltrans's chain controls could not be read for District 3 (Donner Summit, Echo Summit, Yuba Pass): "), "\(report.message)")
        let whole = try await makeSource().resolve("pass:all", context: context(try portal(), now: When.stormMorning)).data
        #expect(whole["passes"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" } == ["ebbetts", "carson", "luther", "monitor", "sonora", "donner", "echo", "yuba", "conway"])
    }

    @Test func passesCataloguedByRuleReadTheirDistricts() async throws {
        let http = try portal()
        let source = try makeSource()
        let echo = try await source.resolve("pass:echo", context: context(http, now: When.stormMorning)).data
        #expect(echo["status"] == "restricted")
        #expect(echo.directions == ["Eastbound restricted R-2", "Westbound open R-0"], "Twin Bridges R-2; Placerville is too low to be the pass's")
        #expect(echo["verified"] == false)
        #expect(echo["cameras"]?.arrayValue?.map { $0["title"]?.stringValue ?? "" } == ["Hwy 50 at Echo Summit", "Hwy 50 at Wrights Lake 1"])
        let yuba = try await source.resolve("pass:yuba", context: context(http, now: When.stormMorning)).data
        #expect(yuba.directions == ["Westbound restricted R-1", "Eastbound open R-0"])
        let conway = try await source.resolve("pass:conway-summit", context: context(http, now: When.stormMorning)).data
        #expect(conway["checkpoints"]?.arrayValue?.count == 1, "Bridgeport is lower than the rule's 7,000 ft")
        #expect(conway["cameras"]?.arrayValue?.first?["title"] == "US-395 : Conway Summit")
        let donner = try await source.resolve("pass:donner", context: context(http, now: When.stormMorning)).data
        #expect(donner.directions == ["Eastbound open R-0", "Westbound open R-0"])
    }

    @Test func oneRequestPerDistrictFilePerTTL() async throws {
        let http = try portal()
        let source = try makeSource()
        _ = try await source.resolve("pass:all", context: context(http, maxAge: 300))
        for pass in ["ebbetts", "carson", "donner", "echo", "conway", "sonora"] {
            _ = try await source.resolve("pass:\(pass)", context: context(http, now: When.afterCapture.addingTimeInterval(60), maxAge: 300))
        }
        for district in [3, 9, 10] {
            for path in [Path.cc(district), Path.lcs(district), Path.cctv(district)] {
                #expect(http.requests(to: path).count == 1, "\(path)")
            }
        }
        // Fresh data asked for (--refresh): asked again.
        _ = try await source.resolve("pass:ebbetts", context: context(http, maxAge: 0))
        #expect(http.requests(to: Path.cc(10)).count == 2)
    }

    @Test func namesTheLeftOutAndTheUnknown() async throws {
        let http = try portal()
        let tioga = try #require(await makeSource().error(resolving: "pass:tioga", context: context(http)) as? ConditionsError)
        #expect(tioga.kind == .notFound && tioga.message.contains("Yosemite"), "\(tioga.message)")
        let typo = try #require(await makeSource().error(resolving: "pass:ebbets", context: context(http)) as? ConditionsError)
        #expect(typo.kind == .notFound && typo.suggestions.first == "pass:ebbetts", "\(typo)")
        #expect(try await makeSource().resolve("pass:Ebbetts-Pass", context: context(http)).data["id"] == "ebbetts")
        let limited = try makeSource(#"{"districts": [10]}"#)
        let outside = try #require(await limited.error(resolving: "pass:donner", context: context(http)) as? ConditionsError)
        #expect(outside.message == "Donner Summit I-80 is in Caltrans's District 3, which sources.test.options.districts leaves out", "\(outside.message)")
    }

    @Test(arguments: [
        (#"{"districts": "10"}"#, "sources.test.options.districts: expected a list of Caltrans district numbers (1 to 12), e.g. [3, 9, 10]"),
        (#"{"districts": [10, 13]}"#, "sources.test.options.districts[1]: expected a Caltrans district number from 1 to 12, found 13"),
        (#"{"districts": [10, 10]}"#, "sources.test.options.districts[1]: district 10 is listed twice"),
        (#"{"districts": [4]}"#, "sources.test.options.districts: the catalog has no pass in district 4 (passes are in 3, 9, 10)"),
        (#"{"baseURL": "ftp://x"}"#, nil),
        (#"{"district": [10]}"#, nil),
    ])
    func badOptionsAreOneLineErrors(options: String, message: String?) throws {
        let error = try #require(throws: ConditionsError.self) { try makeSource(options) }
        #expect(error.kind == .configuration)
        if let message { #expect(error.message == message) }
        #expect(!error.message.contains("\n"))
    }
}
