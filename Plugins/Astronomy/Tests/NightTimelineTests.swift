@testable import Astronomy
import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing

/// The Tonight card's timeline (issue 34): the night's data carries the twilights and the
/// Moon's altitude, and the card draws one stretch from sunset to sunrise out of them.
@Suite struct NightTimelineTests {
    /// The night's timeline, and the card's figure drawn from it.
    static func timeline(_ data: JSONValue) -> Timeline? {
        let context = textContext("night:stevens:2026-11-26")
        guard let night = NightPresentation.Night(data), let timeline = NightTimeline(data: data, night: night, context: context).timeline else { return nil }
        #expect(NightPresentation().card(data, context: context).figure == timeline.drawing, "the card draws the timeline")
        return timeline
    }

    static func instant(_ value: JSONValue?) -> Date? { value?.dateValue }

    /// Stevens Pass, 2026-11-26, Moon ignored, 24 recorded hours from 00:00Z with one unknown.
    static func stevens() async throws -> JSONValue {
        var covers: [Double?] = Array(repeating: 10, count: 24)
        covers[4] = 80
        covers[9] = nil
        let urns = StubURNs(["sky:stevens": try NightTests.sky(from: "2026-11-27T00:00:00Z", covers)])
        return try await NightTests.night("night:stevens:2026-11-26", urns: urns, options: JSONObject([("nightMaxMoonIllumination", 100)])).data
    }

    /// Dusk after dusk in order, dawn after dawn mirrored; the astronomical ones are the dark
    /// span's edges; the Moon's altitude is sampled every 20 minutes from sunset to sunrise and
    /// is at or above 0 exactly inside the Moon-up spans.
    @Test func theDataHasTheTwilightsAndTheMoonsAltitude() async throws {
        let data = try await Self.stevens()
        let sunset = try #require(Self.instant(data["sunset"])), sunrise = try #require(Self.instant(data["sunrise"]))
        let dusks = try ["civil", "nautical", "astronomical"].map { try #require(Self.instant(data["twilight"]?[$0]?["dusk"])) }
        let dawns = try ["civil", "nautical", "astronomical"].map { try #require(Self.instant(data["twilight"]?[$0]?["dawn"])) }
        #expect([sunset] + dusks == ([sunset] + dusks).sorted() && dawns.reversed() + [sunrise] == (dawns.reversed() + [sunrise]).sorted())
        #expect(dusks[2] < dawns[2])
        let dark = try #require(NightTests.spans(data["dark"]).first)
        #expect(dark.0 == dusks[2] && dark.1 == dawns[2])
        // Twilights last about 30–45 minutes each at 47.7°N in late November.
        #expect((25 * 60...50 * 60).contains(dusks[0].timeIntervalSince(sunset)))

        let samples = (data["moon"]?["altitude"]?.arrayValue ?? []).compactMap { sample -> (Date, Double)? in
            guard let time = Self.instant(sample["time"]), let degrees = sample["degrees"]?.doubleValue else { return nil }
            return (time, degrees)
        }
        #expect(samples.first?.0 == sunset && samples.last?.0 == sunrise)
        for (a, b) in zip(samples, samples.dropFirst().dropLast()) { #expect(b.0.timeIntervalSince(a.0) == 1_200) }
        #expect(samples.allSatisfy { (-90...90).contains($0.1) })
        let up = NightTests.spans(data["moon"]?["up"])
        #expect(!up.isEmpty, "the Moon is up for part of this night")
        for (time, degrees) in samples where abs(degrees) > 0.5 {
            #expect(up.contains { $0.0 <= time && time < $0.1 } == (degrees > 0), "\(time): \(degrees)°")
        }
    }

    @Test func theCardDrawsOneTimelineFromSunsetToSunrise() async throws {
        let data = try await Self.stevens()
        let timeline = try #require(Self.timeline(data))
        let sunset = try #require(Self.instant(data["sunset"])), sunrise = try #require(Self.instant(data["sunrise"]))
        #expect(timeline.start == sunset && timeline.end == sunrise)

        // The bands tile the night, lightening back in the order they darkened.
        #expect(timeline.bands.first?.start == sunset && timeline.bands.last?.end == sunrise)
        for (a, b) in zip(timeline.bands, timeline.bands.dropFirst()) { #expect(a.end == b.start) }
        #expect(timeline.bands.map(\.shade) == [.civil, .nautical, .astronomical, .night, .astronomical, .nautical, .civil])
        let night = try #require(timeline.bands.first { $0.shade == .night })
        let dark = try #require(NightTests.spans(data["dark"]).first)
        #expect(night.start == dark.0 && night.end == dark.1 && night.label == "Astronomical night")

        // The windows, highlighted and named as the rows name them.
        let windows = NightTests.spans(data["windows"])
        #expect(!windows.isEmpty)
        #expect(timeline.highlights.map { [$0.start, $0.end] } == windows.map { [$0.0, $0.1] })
        #expect(timeline.highlights.first?.label.hasPrefix("Window ") == true)

        // A bar per recorded hour inside sunset…sunrise, the unknown one nil, not 0.
        let hours = (data["sky"]?["hours"]?.arrayValue ?? []).compactMap { Self.instant($0["time"]) }
            .filter { $0.addingTimeInterval(3_600) > sunset && $0 < sunrise }
        #expect(timeline.bars.count == hours.count)
        #expect(timeline.bars.first?.start == sunset && timeline.bars.last?.end == sunrise, "edge hours are cut to the night")
        let one = try #require(Timestamp.parse("2026-11-27T09:00:00Z"))
        #expect(timeline.bars.filter { $0.value == nil }.map(\.label) == [textContext("").localTime(one, .time)], "01:00 local")
        #expect(timeline.bars.compactMap(\.value).max() == 80)

        let curve = try #require(timeline.curve)
        #expect(curve.samples.count == data["moon"]?["altitude"]?.arrayValue?.count && curve.baseline == 0 && curve.range == -90...90)

        // Even local hours, labelled without their zone, inside the night.
        #expect(timeline.ticks.map(\.label) == ["18:00", "20:00", "22:00", "00:00", "02:00", "04:00", "06:00"])
        #expect(timeline.ticks.allSatisfy { $0.time > sunset && $0.time < sunrise })

        // The summary says what the eye sees.
        #expect(timeline.summary.hasPrefix("From sunset 16:"), "\(timeline.summary)")
        #expect(timeline.summary.contains("Astronomical night 18:"), "\(timeline.summary)")
        #expect(timeline.summary.contains("The Moon is up "), "\(timeline.summary)")
        #expect(timeline.summary.contains("Sky cover 10–80%, unknown at \(textContext("").localTime(one, .time))."), "\(timeline.summary)")
        #expect(timeline.summary.contains("Dark, moonless and clear: " + windows.map { NightPresentation.range($0.0, $0.1, textContext("")) }.joined(separator: ", ") + "."))
    }

    /// Mt. Baker at midsummer: nautical darkness only, so no band reaches the night shade, and
    /// the summary says nautical.
    @Test func aNightWithoutAstronomicalDarknessNeverReachesTheDarkestShade() async throws {
        let data = try await NightTests.night("night:mt-baker:2026-06-20").data
        let timeline = try #require(Self.timeline(data))
        #expect(timeline.bands.map(\.shade) == [.civil, .nautical, .astronomical, .nautical, .civil])
        #expect(data["twilight"]?["astronomical"]?["dusk"] == .null && data["twilight"]?["astronomical"]?["dawn"] == .null)
        #expect(timeline.summary.contains("Nautical darkness "), "\(timeline.summary)")
        #expect(timeline.summary.contains("Sky cover unknown."))
        #expect(timeline.bars.isEmpty && timeline.ticks.map(\.label) == ["22:00", "00:00", "02:00", "04:00"], "\(timeline.ticks.map(\.label))")
    }

    /// Data without what the timeline needs keeps the rows and the old hourly bars; a sunset
    /// after the sunrise draws no timeline.
    @Test func dataWithoutTheTimelinesKeysDegrades() async throws {
        var object = try #require(try await Self.stevens().objectValue)
        object["moon"] = ["up": [], "illumination": 50]
        object["sunset"] = .null
        let card = NightPresentation().card(.object(object), context: textContext("night:stevens:2026-11-26"))
        guard let chart = card.figure else { Issue.record("expected the hourly bars: \(String(describing: card.figure))"); return }
        #expect(chart.notes.first == "Sky cover per hour")
        #expect(chart.marks.count == object["sky"]?["hours"]?.arrayValue?.filter { $0["skyCover"]?.doubleValue != nil }.count, "a bar per hour with a value")
        #expect(card.rows.first?.label == "Window")

        var backwards = try #require(try await Self.stevens().objectValue)
        (backwards["sunset"], backwards["sunrise"]) = (backwards["sunrise"] ?? .null, backwards["sunset"] ?? .null)
        #expect(Self.timeline(.object(backwards)) == nil)
    }
}
