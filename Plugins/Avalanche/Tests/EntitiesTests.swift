import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Avalanche

/// Avalanche danger as Home Assistant entities, on the real NWAC bodies the module reads
/// (Resources/real/SOURCES.md): West Slopes North's forecast of 2026-04-01 (3/2/2 today, 2/2/1
/// tomorrow), the Olympics off-season summary, the all-null forecast of 2023 ("no rating").
@Suite struct EntitiesTests {
    let presentation = AvalancheSource.presentations.first { $0.kind == AvalancheSource.kind }!
    static let keys = ["danger_above", "danger_near", "danger_below", "danger_highest", "considerable_or_higher"]

    func entities(_ data: JSONValue, _ urn: String) -> [Entity] {
        presentation.entities(data, context: PresentationContext(urn: urn, style: .plain, placeName: nil) { date, _ in Timestamp.string(from: date) })
    }

    @Test func theRealForecastToday() async throws {
        let data = try await makeSource().resolve("avalanche:baker", context: context(try april())).data
        let all = entities(data, "avalanche:baker")
        checkAvalancheShape(all)
        #expect(all.map(\.state) == [3, 2, 2, 3, true])
        #expect(entity("danger_above", in: all)?.attributes == ["level": "Considerable"])
        #expect(entity("danger_near", in: all)?.attributes == ["level": "Moderate"])
        #expect(entity("danger_above", in: all)?.name == "Danger above treeline")
        let highest = try #require(entity("danger_highest", in: all))
        #expect(highest.attributes["level"] == "Considerable")
        #expect(highest.attributes["bottomLine"] == data["bottomLine"] && data["bottomLine"]?.stringValue?.isEmpty == false)
        let considerable = try #require(entity("considerable_or_higher", in: all))
        #expect(considerable.component == .binarySensor && considerable.deviceClass == "safety")
        #expect(all.allSatisfy { $0.icon == "mdi:alert" })
    }

    /// `avalanche:{place}:tomorrow`'s device shows the day its URN asks about.
    @Test func tomorrowsURNShowsTomorrow() async throws {
        let all = entities(try await makeSource().resolve("avalanche:baker:tomorrow", context: context(try april())).data, "avalanche:baker:tomorrow")
        checkAvalancheShape(all)
        #expect(all.map(\.state) == [2, 2, 1, 2, false])
        #expect(entity("danger_below", in: all)?.attributes["level"] == "Low")
    }

    @Test func offSeasonIsUnknown() async throws {
        let data = try await makeSource().resolve("avalanche:hurricane", context: context(try april())).data
        #expect(data["status"] == "off-season")
        let all = entities(data, "avalanche:hurricane")
        checkAvalancheShape(all)
        #expect(all.allSatisfy { $0.state == .null })
        #expect(entity("danger_above", in: all)?.attributes["level"] == .null)
    }

    /// The real forecast of 2023-01-24 with every band null.
    @Test func noRatingIsUnknownSaidSo() async throws {
        let list = try JSONValue.parse(try fixture(Body.productsList2023))
        let olympics = try #require(list.arrayValue?.first { $0["forecast_zone"]?.arrayValue?.first?["name"] == "Olympics" })
        let http = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayer2023), Path.product(1128): .json(olympics),
                                        Path.warning(1128): try .jsonFixture(Body.warningNone)])
        let data = try await makeSource().resolve("avalanche:olympics", context: context(http, now: try #require(Timestamp.parse("2023-01-24T18:00:00Z")))).data
        let all = entities(data, "avalanche:olympics")
        checkAvalancheShape(all)
        #expect(all.allSatisfy { $0.state == .null })
        #expect(entity("danger_above", in: all)?.attributes["level"] == "No rating")
        #expect(entity("danger_highest", in: all)?.attributes["bottomLine"] == "The next avalanche forecast will be issued on Thursday, January 27th at 6 PM.")
    }

    /// Every zone of NWAC: each band its highest zone's, named.
    @Test func allZonesIsEachBandsHighest() async throws {
        let data = try await makeSource().resolve("avalanche:all", context: context(try april())).data
        let all = entities(data, "avalanche:all")
        checkAvalancheShape(all)
        #expect(all.map(\.state) == [3, 2, 2, 3, true])
        #expect(entity("danger_highest", in: all)?.attributes["zone"] == "West Slopes North")
        #expect(entity("danger_below", in: all)?.attributes["zone"] == "West Slopes North")
        let zone = try #require(data["zones"]?.arrayValue?.first { $0["zone"]?["name"] == "West Slopes North" })
        #expect(entity("danger_highest", in: all)?.attributes["bottomLine"] == zone["bottomLine"])
    }

    @Test func offTheScaleAndGarbageAreUnknown() {
        let odd: JSONValue = ["day": "today", "danger": ["today": ["above": ["level": -1], "near": ["level": 0], "below": ["level": 7]]],
                              "bottomLine": 5]
        let all = entities(odd, "avalanche:odd")
        checkAvalancheShape(all)
        #expect(all.allSatisfy { $0.state == .null })
        #expect(entity("danger_near", in: all)?.attributes["level"] == "No rating")
        #expect(entity("danger_highest", in: all)?.attributes["bottomLine"] == .null)
        // A level as a whole double counts; the day the data names is read.
        let tomorrow = entities(["day": "tomorrow", "danger": ["tomorrow": ["near": ["level": 4.0]], "today": ["near": ["level": 1]]]], "avalanche:odd")
        #expect(tomorrow.map(\.state) == [.null, 4, .null, 4, true])
        #expect(entity("danger_highest", in: tomorrow)?.attributes["level"] == "High")
        for garbage: JSONValue in [.null, "x", 3, [], [:], ["danger": "high"], ["danger": ["today": [1, 2]]], ["zones": [1, [:], ["danger": 3]]],
                                   ["zones": []], ["day": 4, "danger": ["today": ["above": "3"]]]] {
            let all = entities(garbage, "avalanche:odd")
            checkAvalancheShape(all)
            #expect(all.allSatisfy { $0.state == .null }, "\(garbage)")
        }
    }
}

/// The five keys, each once, in order and `[a-z0-9_]`; sensors of integers 1–5 or unknown.
private func checkAvalancheShape(_ entities: [Entity], sourceLocation: SourceLocation = #_sourceLocation) {
    let keys = entities.map(\.key)
    #expect(keys == EntitiesTests.keys, sourceLocation: sourceLocation)
    #expect(keys.allSatisfy { $0.wholeMatch(of: /[a-z0-9_]+/) != nil }, sourceLocation: sourceLocation)
    for entity in entities.dropLast() {
        #expect(entity.component == .sensor && (entity.state == .null || (1...5).contains(entity.state.intValue ?? 0)), "\(entity.key)",
                sourceLocation: sourceLocation)
    }
}
