import ConditionsJSON
import ConditionsKit
import Crypto
import Foundation
import Testing
@testable import Caltrans

/// The pass catalog against the real District 10 file it was made from: every checkpoint is in
/// a pass or on the "on no pass" list, each pass's checkpoints name it, "CARSON SPUR" is not
/// Carson Pass, Tioga is left out saying why, and the passes of districts with no capture are
/// marked unverified.
@Suite struct CatalogTests {
    static func realCheckpoints() throws -> [Checkpoint] {
        try CWWP2.rows(try fixture(Body.chainControls10), member: "cc", what: "District 10").compactMap(Checkpoint.init)
    }

    static func catalog() throws -> JSONValue {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Resources/passes.json")
        return try JSONValue.parse(try Data(contentsOf: url))
    }

    @Test func everyRealCheckpointIsInAPassOrOnNoPass() throws {
        let checkpoints = try Self.realCheckpoints()
        #expect(checkpoints.count == 149)
        let onNoPass = Set((try Self.catalog()["onNoPass"]?["10"]?.arrayValue ?? []).compactMap(\.stringValue))
        for checkpoint in checkpoints {
            let owners = CaltransCatalog.all.filter { $0.owns(checkpoint) }
            #expect(owners.count + (onNoPass.contains(checkpoint.index) ? 1 : 0) == 1, "\(checkpoint.index) \(checkpoint.name): \(owners.map(\.id))")
        }
    }

    @Test func eachPassIsItsNamedCheckpoints() throws {
        let checkpoints = try Self.realCheckpoints()
        let words = ["ebbetts": "EBBETTS PASS", "carson": "CARSON PASS", "luther": "LUTHER PASS", "monitor": "MONITOR PASS", "sonora": "SONORA PASS"]
        for (id, phrase) in words {
            let pass = try #require(CaltransCatalog.pass(named: id))
            let own = checkpoints.filter(pass.owns)
            #expect(!own.isEmpty && pass.verified, "\(id)")
            #expect(own.allSatisfy { $0.name.contains(phrase) && $0.route == pass.route }, "\(id): \(own.map(\.name))")
            #expect(checkpoints.filter { $0.name.contains(phrase) }.count == own.count, "\(id): every checkpoint naming it")
        }
        let spur = checkpoints.filter { $0.name.contains("CARSON SPUR") }
        #expect(spur.count == 2 && spur.allSatisfy { checkpoint in !CaltransCatalog.all.contains { $0.owns(checkpoint) } }, "Carson Spur is not Carson Pass")
    }

    @Test func theCatalogSaysWhatItReadAndWhatItLeftOut() throws {
        let catalog = try Self.catalog()
        let read = try #require(catalog["read"]?.arrayValue?.first)
        #expect(read["file"] == "caltrans_cc_d10_20260930.json" && read["checkpoints"] == 149)
        let digest = SHA256.hash(data: try fixture(Body.chainControls10)).map { String(format: "%02x", $0) }.joined()
        #expect(read["sha256"]?.stringValue == digest)
        #expect(CaltransCatalog.leftOut["tioga"]?.contains("Yosemite") == true)
        #expect(CaltransCatalog.all.map(\.id) == ["ebbetts", "carson", "luther", "monitor", "sonora", "donner", "echo", "yuba", "conway"])
        #expect(CaltransCatalog.all.filter { !$0.verified }.map(\.id) == ["donner", "echo", "yuba", "conway"])
        #expect(CaltransCatalog.all.filter { !$0.verified }.allSatisfy { $0.rule != nil && $0.checkpointIndexes.isEmpty })
        #expect(CaltransCatalog.districts == [3, 9, 10])
    }

    @Test func californiasOutlineIsTheStatesFrame() {
        let layer = CaliforniaMap.layer
        #expect(layer.rings.map(\.count).reduce(0, +) >= 150)
        #expect(CaltransCatalog.all.allSatisfy { layer.contains($0.summit) })
        let frame = layer.frame
        #expect(frame.south < 32.6 && frame.north > 41.9 && frame.west < -124.3 && frame.east > -114.2, "\(frame)")
    }
}
