import ConditionsJSON
import ConditionsMoon
import Foundation
import Testing

/// `phases:{count}` data: built by hand, the same JSON as its Codable type gives.
@Suite struct MoonDataTests {
    @Test func phasesAreWhatPhaseListEncodes() throws {
        let events: [(name: String, date: Date)] = [("last quarter", Date(timeIntervalSince1970: 1_796_097_480)),
                                                    ("new moon", Date(timeIntervalSince1970: 1_796_784_660.4)),
                                                    ("full moon", Date(timeIntervalSince1970: -86_400))]
        let built = MoonData.phases(events)
        let encoded = try JSONValue(encoding: MoonData.PhaseList(phases: events.map { MoonData.Phase(name: $0.name, date: $0.date) }))
        #expect(built == encoded)
        #expect(built.serialized() == encoded.serialized())
        #expect(built.serialized().contains(#""date":"2026-12-01T03:58:00Z""#), "\(built.serialized())")
        #expect(MoonData.phases([]) == (try JSONValue(encoding: MoonData.PhaseList(phases: []))))
    }
}
