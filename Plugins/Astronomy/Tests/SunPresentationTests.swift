@testable import Astronomy
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing

/// How `sun` results read (`SunPresentation`): text, what `watch` compares and the dashboard
/// card. The data here is written out by hand so the wording is tested apart from the
/// algorithm; one case renders computed data end to end.
@Suite struct SunPresentationTests {
    let presentation = SunPresentation()

    /// Times as the host prints them, `07:45 PST` and `Fri Dec 4 2026`, in `place`'s zone.
    func context(_ urn: String = "sun:2026-12-04", place: Place = Places.seattle) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: place.name, place: place) { date, style in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = place.timeZone
            formatter.dateFormat = style == .date ? "EEE MMM d yyyy" : "HH:mm zzz"
            return formatter.string(from: date)
        }
    }

    /// A Seattle December day (UTC times; 8 hours ahead of PST).
    var december: JSONValue {
        [
            "date": "2026-12-04", "sunrise": "2026-12-04T15:45:10Z", "sunset": "2026-12-05T00:18:20Z",
            "solarNoon": "2026-12-04T20:01:45Z", "dayLengthSeconds": 30790, "polar": nil,
            "twilight": [
                "civil": ["dawn": "2026-12-04T15:08:00Z", "dusk": "2026-12-05T00:55:00Z"],
                "nautical": ["dawn": "2026-12-04T14:29:00Z", "dusk": "2026-12-05T01:34:00Z"],
                "astronomical": ["dawn": "2026-12-04T13:52:00Z", "dusk": "2026-12-05T02:11:00Z"],
            ],
            "goldenHour": ["morning": ["start": "2026-12-04T15:19:00Z", "end": "2026-12-04T16:35:00Z"],
                           "evening": ["start": "2026-12-04T23:28:00Z", "end": "2026-12-05T00:44:00Z"]],
            "blueHour": ["morning": ["start": "2026-12-04T15:08:00Z", "end": "2026-12-04T15:19:00Z"],
                         "evening": ["start": "2026-12-05T00:44:00Z", "end": "2026-12-05T00:55:00Z"]],
            "location": Places.seattle.json,
        ]
    }

    @Test func aDayReadsAtAGlance() {
        #expect(presentation.render(december, context: context()) == [
            "sun:2026-12-04  ☀️ sunrise 07:45, sunset 16:18 PST, 8h 33m of daylight",
            "  solar noon 12:01 PST (Seattle)",
            "  dawn: astronomical 05:52, nautical 06:29, civil 07:08 PST",
            "  dusk: civil 16:55, nautical 17:34, astronomical 18:11 PST",
            "  golden hour: 07:19–08:35 and 15:28–16:44 PST",
            "  blue hour: 07:08–07:19 and 16:44–16:55 PST",
        ])
    }

    @Test func midnightSunSaysSoAndKeepsTheGoldenNight() throws {
        let data: JSONValue = [
            "date": "2026-06-21", "sunrise": nil, "sunset": nil, "solarNoon": "2026-06-21T10:46:00Z",
            "dayLengthSeconds": 86400, "polar": "day",
            "twilight": ["civil": ["dawn": nil, "dusk": nil], "nautical": ["dawn": nil, "dusk": nil],
                         "astronomical": ["dawn": nil, "dusk": nil]],
            "goldenHour": ["morning": ["start": nil, "end": "2026-06-21T00:56:00Z"],
                           "evening": ["start": "2026-06-21T20:35:00Z", "end": nil]],
            "blueHour": ["morning": nil, "evening": nil],
            "location": Places.tromso.json,
        ]
        let tromso = context("sun:2026-06-21", place: Places.tromso)
        let lines = presentation.render(data, context: tromso)
        let zone = try #require(lines.dropFirst().first?.split(separator: " ").dropFirst(3).first)  // as the formatter names it
        #expect(lines == [
            "sun:2026-06-21  ☀️ The sun does not set (midnight sun)",
            "  solar noon 12:46 \(zone) (Tromsø)",
            "  golden hour: until 02:56 and from 22:35 \(zone)",
        ])
        let card = presentation.card(data, context: tromso)
        #expect(card.status == .init("midnight sun", tone: .neutral))
        #expect(card.lines == ["The sun does not set (midnight sun)"])
        #expect(card.rows.first == .init("Sunrise", "none (midnight sun)"))
        #expect(!card.rows.contains { $0.label == "Dawn" || $0.label == "Blue hour" })
    }

    @Test func polarNightKeepsItsTwilightsAndAMiddayGoldenHour() throws {
        let data: JSONValue = [
            "date": "2026-12-21", "sunrise": nil, "sunset": nil, "solarNoon": "2026-12-21T10:42:00Z",
            "dayLengthSeconds": 0, "polar": "night",
            "twilight": ["civil": ["dawn": "2026-12-21T08:31:00Z", "dusk": "2026-12-21T12:53:00Z"],
                         "nautical": ["dawn": "2026-12-21T06:46:00Z", "dusk": "2026-12-21T14:37:00Z"],
                         "astronomical": ["dawn": nil, "dusk": nil]],
            "goldenHour": ["morning": ["start": "2026-12-21T09:29:00Z", "end": nil],
                           "evening": ["start": nil, "end": "2026-12-21T11:54:00Z"]],
            "blueHour": ["morning": ["start": "2026-12-21T08:31:00Z", "end": "2026-12-21T09:29:00Z"],
                         "evening": ["start": "2026-12-21T11:54:00Z", "end": "2026-12-21T12:53:00Z"]],
            "location": Places.tromso.json,
        ]
        let tromso = context("sun:2026-12-21", place: Places.tromso)
        let lines = presentation.render(data, context: tromso)
        let zone = try #require(lines.dropFirst().first?.split(separator: " ").dropFirst(3).first)
        #expect(lines == [
            "sun:2026-12-21  🌌 The sun does not rise (polar night)",
            "  solar noon 11:42 \(zone) (Tromsø)",
            "  dawn: astronomical —, nautical 07:46, civil 09:31 \(zone)",
            "  dusk: civil 13:53, nautical 15:37 \(zone), astronomical —",
            "  golden hour: 10:29–12:54 \(zone)",
            "  blue hour: 09:31–10:29 and 12:54–13:53 \(zone)",
        ])
        let card = presentation.card(data, context: tromso)
        #expect(card.status?.word == "polar night")
        #expect(card.rows.map(\.label) == ["Sunrise", "Sunset", "Daylight", "Solar noon", "Dawn", "Dusk", "Golden hour", "Blue hour"])
        #expect(card.rows[2] == .init("Daylight", "0h 0m"))
    }

    @Test func aDayWithASunriseButNoSunset() {
        var data = december
        data = data.replacing("sunset", with: .null)
        #expect(presentation.render(data, context: context()).first == "sun:2026-12-04  ☀️ sunrise 07:45 PST, no sunset, 8h 33m of daylight")
    }

    /// On a line whose times fall either side of a clock change each keeps its own zone.
    @Test func timesInTwoZonesKeepTheirOwn() {
        let data = december.replacing("date", with: "2026-03-08").replacing("solarNoon", with: "2026-03-08T20:14:00Z").replacing("twilight", with: [
            "civil": ["dawn": "2026-03-08T09:30:00Z", "dusk": nil],  // 01:30 PST
            "nautical": ["dawn": "2026-03-08T10:30:00Z", "dusk": nil],  // 03:30 PDT
            "astronomical": ["dawn": nil, "dusk": nil],
        ])
        #expect(presentation.render(data, context: context()).contains("  dawn: astronomical —, nautical 03:30 PDT, civil 01:30 PST"))
    }

    @Test func theCardHasARowPerFact() {
        let card = presentation.card(december, context: context())
        #expect(card.title == "Sun" && card.subtitle == "Seattle" && card.status == nil && card.lines.isEmpty)
        #expect(card.rows == [
            .init("Sunrise", "07:45 PST"), .init("Sunset", "16:18 PST"), .init("Daylight", "8h 33m"),
            .init("Solar noon", "12:01 PST"),
            .init("Dawn", "astronomical 05:52, nautical 06:29, civil 07:08 PST"),
            .init("Dusk", "civil 16:55, nautical 17:34, astronomical 18:11 PST"),
            .init("Golden hour", "07:19–08:35 and 15:28–16:44 PST"),
            .init("Blue hour", "07:08–07:19 and 16:44–16:55 PST"),
        ])
    }

    @Test func watchReportsANewDayAndNothingElse() {
        let key = presentation.changeKey(december)
        #expect(key == ChangeKey(status: "2026-12-04"))
        // The same day recomputed a second differently is not news.
        #expect(presentation.changeKey(december.replacing("sunrise", with: "2026-12-04T15:45:11Z")) == key)
        #expect(presentation.changeKey(december.replacing("date", with: "2026-12-05")) != key)
    }

    @Test func dataThatIsNotASunDayReadsGenerically() {
        let other: JSONValue = ["status": "open", "temperature": 4]
        let generic = GenericPresentation()
        #expect(presentation.render(other, context: context()) == generic.render(other, context: context()))
        #expect(presentation.changeKey(other) == generic.changeKey(other))
        #expect(presentation.card(other, context: context()) == generic.card(other, context: context()))
        // Hand-edited data with odd types degrades without trapping.
        let odd = december.replacing("dayLengthSeconds", with: .double(1e300)).replacing("goldenHour", with: "soon")
        let lines = presentation.render(odd, context: context())
        #expect(lines.first == "sun:2026-12-04  ☀️ sunrise 07:45, sunset 16:18 PST")
        #expect(!lines.contains { $0.contains("golden") })
        for huge in [Int.max, Int.max / 2] {
            let first = presentation.render(december.replacing("dayLengthSeconds", with: .int(huge)), context: context()).first
            #expect(first?.hasPrefix("sun:2026-12-04  ☀️ sunrise 07:45, sunset 16:18 PST") == true)
        }
    }

    /// Computed data, rendered: the text of a real day in Seattle.
    @Test func aComputedDay() throws {
        let report = SunReport(at: try instant("2026-06-21T12:00:00-07:00"), place: Places.seattle)
        let lines = presentation.render(report.json(place: Places.seattle), context: context("sun:2026-06-21"))
        #expect(lines.count == 6)
        #expect(lines.first?.hasPrefix("sun:2026-06-21  ☀️ sunrise 05:1") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("PDT, 15h 59m of daylight") == true, "\(lines)")
        #expect(lines[1].hasPrefix("  solar noon 13:1"))
        // Astronomical dusk comes after midnight at midsummer, and says so.
        #expect(lines[3].hasPrefix("  dusk: civil 21:") && lines[3].hasSuffix(", astronomical 00:19 PDT (next day)"), "\(lines[3])")
    }
}

extension JSONValue {
    /// This object with member `key` set to `value`.
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard var object = objectValue else { return self }
        object[key] = value
        return .object(object)
    }
}
