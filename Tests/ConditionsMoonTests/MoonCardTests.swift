import ConditionsFigures
import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation
import Testing

/// The moon kinds' cards (`MoonData.presentations`): the drawing's lit fraction and side,
/// and the rows the dashboard shows.
@Suite struct MoonCardTests {
    let moon = MoonData.presentations.first { $0.kind == .moon }!
    let phases = MoonData.presentations.first { $0.kind == .phases }!

    func context(_ urn: String, latitude: Double = 47.6) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Here", place: Place(name: "Here", latitude: latitude, longitude: 0)) { date, _ in
            Timestamp.string(from: date)
        }
    }

    func observation(_ phase: String, illumination: Double, cycle: Double, latitude: Double = 47.6) -> JSONValue {
        MoonData.observation(phase: phase, illumination: illumination, age: cycle * 29.53, cycle: cycle,
                             rise: Timestamp.parse("2026-11-21T22:27:00Z"), set: nil, place: Place(name: "Here", latitude: latitude, longitude: 0))
    }

    @Test func waxingIsLitOnTheRightAndWaningOnTheLeftInTheNorth() {
        let waxing = moon.card(observation("waxing gibbous", illumination: 87.7, cycle: 0.41), context: context("moon:now"))
        #expect(waxing.figure == MoonDrawing(illuminated: 0.877, waxing: true, southern: false).drawing(rem: 9))
        #expect(MoonDrawing(illuminated: 0.877, waxing: true, southern: false).litOnRight)
        let waning = moon.card(observation("waning crescent", illumination: 20, cycle: 0.85), context: context("moon:now"))
        guard let drawing = waning.figure else { Issue.record("no drawing"); return }
        #expect(drawing.title == "20% lit, lit on the left")
        #expect(drawing.frame == .square(rem: 9))
        #expect(waning.rows.map(\.label) == ["Phase", "Illumination", "Age", "Rises", "Sets"])
        #expect(waning.rows[1].value == "20%")
        #expect(waning.rows[3].value == "2026-11-21T22:27:00Z", "rise in the context's local time")
        #expect(waning.rows[4].value == "no moonset this day")
        #expect(waning.subtitle == "Here")
    }

    @Test func theSouthernHemisphereSeesItMirrored() {
        let card = moon.card(observation("waxing crescent", illumination: 20, cycle: 0.1, latitude: -33.9), context: context("moon:now", latitude: -33.9))
        guard let drawing = card.figure else { Issue.record("no drawing"); return }
        #expect(drawing.title == "20% lit, lit on the left")
        #expect(drawing.summary.contains("southern hemisphere"))
    }

    @Test func phasesHaveDrawnIconsForTheirPhase() {
        let data = MoonData.phases([("first quarter", Date(timeIntervalSince1970: 0)), ("full moon", Date(timeIntervalSince1970: 86_400 * 7)),
                                    ("last quarter", Date(timeIntervalSince1970: 86_400 * 14)), ("new moon", Date(timeIntervalSince1970: 86_400 * 21))])
        let card = phases.card(data, context: context("phases:4"))
        #expect(card.rows.map(\.label) == ["first quarter", "full moon", "last quarter", "new moon"])
        #expect(card.rows.map(\.figure) == [
            MoonDrawing(illuminated: 0.5, waxing: true, southern: false), MoonDrawing(illuminated: 1, waxing: true, southern: false),
            MoonDrawing(illuminated: 0.5, waxing: false, southern: false), MoonDrawing(illuminated: 0, waxing: true, southern: false),
        ].map { $0.drawing(rem: 1.25) })
        let south = phases.card(data, context: context("phases:4", latitude: -33.9))
        #expect(south.rows.allSatisfy { if let drawing = $0.figure { drawing.summary.contains("southern") } else { false } })
    }

    @Test func otherDataDegradesToText() {
        let card = moon.card(["tide": 3], context: context("moon:odd"))
        #expect(card.figure == nil)
        #expect(card.lines == ["  tide  3"])
    }
}

/// The moon as marks: a dark disc, its lit part (a path in the unit box), the rim over both.
@Suite struct MoonDrawingTests {
    @Test func aQuarterIsHalfTheDiscOnItsLitSide() throws {
        let north = MoonDrawing(illuminated: 0.5, waxing: true, southern: false).drawing(rem: 9)
        #expect(north.x == -50...50 && north.y == -50...50 && north.frame == .square(rem: 9))
        #expect(north.marks.map(\.ink) == [.dark, .lit, .rim])
        guard case .path(let lit) = north.marks[1].shape else { Issue.record("no lit path"); return }
        // Top to bottom along the right limb (sweep 1), back up a terminator of no width.
        #expect(lit == "M0.5000,0.0200A0.4800,0.4800 0 0 1 0.5000,0.9800A0.0000,0.4800 0 0 1 0.5000,0.0200Z")
        let south = MoonDrawing(illuminated: 0.5, waxing: true, southern: true).drawing(rem: 9)
        guard case .path(let mirrored) = south.marks[1].shape else { Issue.record("no lit path"); return }
        #expect(mirrored.contains(" 0 0 0 0.5000,0.9800"), "the left limb: \(mirrored)")
        #expect(south.title == "50% lit, lit on the left")
    }

    @Test func newAndFullAreNoneAndAllOfIt() {
        guard case .path(let new) = MoonDrawing(illuminated: 0, waxing: true, southern: false).drawing(rem: 1.25).marks[1].shape,
              case .path(let full) = MoonDrawing(illuminated: 1, waxing: true, southern: false).drawing(rem: 1.25).marks[1].shape else {
            Issue.record("no lit path"); return
        }
        #expect(new.isEmpty)
        #expect(full.hasPrefix("M0.5000,0.0200A0.4800,0.4800 0 1 1 0.5000,0.9800"))
        #expect(MoonDrawing(illuminated: .nan, waxing: true, southern: false).description == "new moon, not lit")
    }
}
