import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import SpaceWeather

/// `aurora` results as text and as a card, and what `watch` counts as a change.
@Suite struct PresentationTests {
    @Test func nowAsText() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc()))
        #expect(presentation.render(result.data, context: textContext("aurora:now")) == [
            "aurora:now  Kp 2 now, next 24 h up to 4- (G0) at 2026-02-09T21:00:00Z",
            "  3 days    up to 4- (G0) at 2026-02-09T21:00:00Z",
            "  observed  Kp 2 (2.00) for the 3 h from 2026-02-09T15:00:00Z",
        ])
    }

    @Test func aPlaceBeforeAStormAsText() async throws {
        let result = try await makeSource().resolve("aurora:tromso", context: context(try swpc(), now: stormEve))
        #expect(presentation.render(result.data, context: textContext("aurora:tromso")) == [
            "aurora:tromso  Tromsø: Kp 4+ now, next 24 h up to 5+ (G1 minor storm) at 2026-02-05T03:00:00Z",
            "  3 days    up to 5+ (G1 minor storm) at 2026-02-05T03:00:00Z",
            "  observed  Kp 4+ (4.33) for the 3 h from 2026-02-05T00:00:00Z",
            "  aurora    23 % chance at Tromsø (cell 70° N, 19° E), OVATION for 2025-01-12T22:51:00Z",
            "  note      the OVATION forecast is for 2025-01-12T22:51:00Z, 9314 h before the report's time",
        ])
    }

    @Test func noForecastAheadAsText() async throws {
        let result = try await makeSource().resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse("2026-02-20T00:00:00Z")!))
        let lines = presentation.render(result.data, context: textContext("aurora:now"))
        #expect(lines.first == "aurora:now  Kp 2 now, no Kp forecast for the next 24 h")
        #expect(presentation.changeKey(result.data) == ChangeKey(status: "G0", detail: "now G0"))
    }

    /// A new G-level ahead is a change; Kp moving within a level, or its peak moving, is not.
    @Test func changeKey() async throws {
        let source = try makeSource()
        func key(at time: String) async throws -> ChangeKey {
            presentation.changeKey(try await source.resolve("aurora:now", context: context(try swpc(), now: Timestamp.parse(time)!)).data)
        }
        let quiet = try await key(at: "2026-02-03T12:00:00Z")     // peak 2 at 18:00
        let quieter = try await key(at: "2026-02-09T19:30:00Z")   // peak 4- at 21:00
        let storm = try await key(at: "2026-02-05T01:00:00Z")     // peak 5+ G1
        #expect(quiet == ChangeKey(status: "G0", detail: "now G0"))
        #expect(quiet == quieter)
        #expect(storm == ChangeKey(status: "G1", detail: "now G0"))
        // Under way: 03:00's 5+ is now observed too.
        #expect(try await key(at: "2026-02-05T04:00:00Z") == ChangeKey(status: "G1", detail: "now G1"))
    }

    @Test func card() async throws {
        let result = try await makeSource().resolve("aurora:tromso", context: context(try swpc(), now: stormEve))
        let card = presentation.card(result.data, context: textContext("aurora:tromso"))
        #expect(card.title == "Aurora at Tromsø")
        #expect(card.subtitle == "NOAA Space Weather Prediction Center")
        #expect(card.status == .init("G1 minor storm", tone: .caution))
        #expect(card.rows == [
            .init("Kp now", "4+ (4.33) from 2026-02-05T00:00:00Z", tone: .good),
            .init("Next 24 hours", "up to 5+ (G1 minor storm) at 2026-02-05T03:00:00Z", tone: .caution),
            .init("Next 3 days", "up to 5+ (G1 minor storm) at 2026-02-05T03:00:00Z", tone: .caution),
            .init("Aurora probability", "23 %"),
            .init("OVATION forecast for", "2025-01-12T22:51:00Z"),
        ])
        #expect(card.lines == ["the OVATION forecast is for 2025-01-12T22:51:00Z, 9314 h before the report's time"])
        #expect(card.updated == Timestamp.parse("2026-02-05T00:00:00Z"))
        #expect(card.link?.url.absoluteString == "https://www.swpc.noaa.gov/products/aurora-30-minute-forecast")
        #expect(card.coordinate == .init(latitude: 69.65, longitude: 18.96))

        let now = presentation.card(try await makeSource().resolve("aurora:now", context: context(try swpc())).data, context: textContext("aurora:now"))
        #expect(now.title == "Aurora and geomagnetic activity")
        #expect(now.status == .init("G0", tone: .good))
        #expect(now.coordinate == nil)
        #expect(!now.rows.contains { $0.label == "Aurora probability" })
    }

    @Test func tones() {
        #expect(["G0", "G1", "G2", "G3", "G4", "G5", "?"].map(AuroraPresentation.tone) == [.good, .caution, .caution, .bad, .bad, .bad, .good])
    }

    /// Data not in this shape (a fixture, another kind) reads as generic data, never a crash.
    @Test func otherData() {
        let data: JSONValue = ["kp": "high"]
        #expect(presentation.render(data, context: textContext("aurora:now")) == GenericPresentation().render(data, context: textContext("aurora:now")))
        let odd: JSONValue = ["observed": ["kp": 12], "next24h": "soon", "ovation": ["probability": "x"], "place": 3]
        #expect(presentation.render(odd, context: textContext("aurora:now")) == ["aurora:now  Kp unknown now, no Kp forecast for the next 24 h", "  aurora  no probability"])
        _ = presentation.card(odd, context: textContext("aurora:now"))
        #expect(presentation.changeKey(odd) == ChangeKey(status: "unknown", detail: "now unknown"))
    }
}
