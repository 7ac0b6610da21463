@testable import Astronomy
import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Logging
import Testing

/// `night:{place}[:{date}]`: the dark-sky windows of one night (issue 34).
@Suite struct NightTests {
    static let stevens = Place.stevens
    static let mtBaker = Place(name: "Mt. Baker Highway", latitude: 48.86461, longitude: -121.668538)
    static let places = ConditionsKit.Places(location: Places.seattle, named: [("stevens", stevens), ("mt-baker", mtBaker)])

    /// Resolves `urn` with `urns` answering `sky:` and `aurora:` (nothing by default).
    static func night(_ urn: String, now: String = "2026-11-26T20:00:00Z", urns: StubURNs = StubURNs([:]),
                      options: JSONObject = JSONObject()) async throws -> SourceResult {
        let source = try makeSource(options: options)
        let context = SourceContextBuilder(now: try instant(now), place: Places.seattle, places: places, logger: Logger(label: "night-tests"),
                                           http: UnavailableHTTPClient(reason: "night: asks no network"), urns: urns)
        return try await source.resolve(urn, context: context.build())
    }

    /// A `sky:` answer with one hour per `covers` entry from `start` (nil: unknown).
    static func sky(from start: String, _ covers: [Double?]) throws -> Result<SourceResult, ConditionsError> {
        let first = try instant(start)
        let hours: [JSONValue] = covers.enumerated().map { index, cover in
            ["time": .string(Timestamp.string(from: first.addingTimeInterval(Double(index) * 3_600))), "skyCover": cover.map(JSONValue.double) ?? .null]
        }
        return .success(SourceResult(data: ["hours": .array(hours)], kind: "sky"))
    }

    static func spans(_ value: JSONValue?) -> [(Date, Date)] {
        NightPresentation.Night.spans(value)
    }

    @Test func seattleHasAboutAnHourOfAstronomicalNightAtMidsummer() async throws {
        let data = try await Self.night("night:here:2026-06-20").data
        #expect(data["darkness"] == "astronomical")
        let minutes = try #require(data["totals"]?["darkMinutes"]?.intValue)
        #expect((80...130).contains(minutes), "\(minutes) min of astronomical night")
        let dark = Self.spans(data["dark"])
        #expect(dark.count == 1)
        // Around local solar midnight, ~01:10 PDT (08:10Z).
        let middle = dark[0].0.addingTimeInterval(dark[0].1.timeIntervalSince(dark[0].0) / 2)
        #expect(abs(middle.timeIntervalSince(try instant("2026-06-21T08:10:00Z"))) < 15 * 60)
    }

    /// Mt. Baker Highway (48.86°N) on 2026-06-20: the Sun never reaches −18°; said so, with
    /// nautical darkness instead.
    @Test func mtBakerHasNoAstronomicalDarknessAtMidsummer() async throws {
        let result = try await Self.night("night:mt-baker:2026-06-20")
        #expect(result.data["darkness"] == "nautical")
        #expect(result.data["notes"]?.arrayValue?.first?.stringValue?.hasPrefix("no astronomical darkness this night") == true)
        #expect(Self.spans(result.data["dark"]).count == 1)
        let lines = NightPresentation().render(result.data, context: textContext("night:mt-baker:2026-06-20"))
        #expect(lines.contains { $0.contains("nautical darkness") }, "\(lines)")
        // Its sunset is after Seattle's (further north, further west).
        let seattle = try await Self.night("night:here:2026-06-20").data
        #expect(try #require(Self.spans(seattle["dark"]).first).0 < Date.distantFuture)
    }

    /// With the Moon ignored (any illumination allowed), the windows are exactly astronomical
    /// night ∩ the clear hours: edges at the Sun's crossings and at hour boundaries.
    @Test func windowsAreTheDarkClearHours() async throws {
        // Stevens Pass, 2026-11-26: astronomical night ~18:07–05:36 PST (02:07Z–13:36Z).
        // Hours from 02:00Z: clear, clear, cloudy ×3, clear ×4, unknown, clear ×3, then past the grid.
        let covers: [Double?] = [10, 30, 80, 95, 31, 0, 5, 20, 25, nil, 15, 10, 10]
        let urns = StubURNs(["sky:stevens": try Self.sky(from: "2026-11-27T02:00:00Z", covers)])
        let result = try await Self.night("night:stevens:2026-11-26", urns: urns, options: JSONObject([("nightMaxMoonIllumination", 100)]))
        let dark = try #require(Self.spans(result.data["dark"]).first)
        let windows = Self.spans(result.data["windows"])
        #expect(windows.count == 3, "\(windows)")
        #expect(windows[0].0 == dark.0)
        let (four, seven, eleven, noon) = (try instant("2026-11-27T04:00:00Z"), try instant("2026-11-27T07:00:00Z"),
                                           try instant("2026-11-27T11:00:00Z"), try instant("2026-11-27T12:00:00Z"))
        #expect(windows[0].1 == four)
        #expect(windows[1].0 == seven && windows[1].1 == eleven)
        #expect(windows[2].0 == noon && windows[2].1 == dark.1)
        #expect(Self.spans(result.data["unknownClouds"]).map { $0.0 } == [eleven])
        #expect(result.data["moon"]?["rule"] == "below the horizon or at most 100% lit")
        #expect(urns.asked == [["sky:stevens", "aurora:stevens"]])
        #expect(result.inputs.map(\.urn) == ["sky:stevens", "aurora:stevens"])
    }

    /// The default: the Moon's upper limb below the horizon, as for moonrise and moonset. The
    /// Moon-up stretches end and start at this module's own moonset and moonrise.
    @Test func theMoonMustBeDownByDefault() async throws {
        let urns = StubURNs(["sky:here": try Self.sky(from: "2026-11-27T00:00:00Z", Array(repeating: 0, count: 20))])
        let data = try await Self.night("night:here:2026-11-26", urns: urns).data
        let up = Self.spans(data["moon"]?["up"])
        let windows = Self.spans(data["windows"])
        for window in windows {
            #expect(!up.contains { $0.0 < window.1 && $0.1 > window.0 }, "a window overlaps the Moon being up")
        }
        // The moonset inside the night is where MoonRiseSet puts it (to the minute it rounds to).
        let start = try instant("2026-11-27T08:00:00Z")
        let events = MoonRiseSet.events(from: start, to: start.addingTimeInterval(86_400), latitude: Places.seattle.latitude, longitude: Places.seattle.longitude)
        if let set = events.set, let ending = up.first(where: { abs($0.1.timeIntervalSince(set)) < 3_600 }) {
            #expect(abs(ending.1.timeIntervalSince(set)) <= 31)
        }
        let dark = Self.spans(data["dark"])
        let total = windows.reduce(0) { $0 + $1.1.timeIntervalSince($1.0) }
        #expect(total <= dark.reduce(0) { $0 + $1.1.timeIntervalSince($1.0) })
    }

    /// Without `sky:` answered, the clouds are unknown and said; the dark, moonless hours are
    /// still given, never as clear.
    @Test func cloudsUnknownWhenSkyFails() async throws {
        let urns = StubURNs(["sky:stevens": .failure(.upstream("NWS: grid expired"))])
        let result = try await Self.night("night:stevens:2026-11-26", urns: urns, options: JSONObject([("nightMaxMoonIllumination", 100)]))
        #expect(result.data["windows"]?.arrayValue?.isEmpty == true)
        #expect(Self.spans(result.data["unknownClouds"]).count == 1)
        #expect(result.data["notes"]?.arrayValue?.contains { $0.stringValue?.hasPrefix("clouds unknown: sky:stevens failed (upstream: NWS: grid expired)") == true } == true)
        #expect(result.inputs.first?.failed == true)
        let lines = NightPresentation().render(result.data, context: textContext("night:stevens:2026-11-26"))
        #expect(lines.first?.hasSuffix("dark and moonless, clouds unknown") == true, "\(lines)")
    }

    /// A night outside the forecast's hours says so.
    @Test func aNightOutsideTheForecast() async throws {
        let urns = StubURNs(["sky:stevens": try Self.sky(from: "2026-11-20T00:00:00Z", [0, 0, 0])])
        let data = try await Self.night("night:stevens:2026-12-10", urns: urns).data
        #expect(data["notes"]?.arrayValue?.first == "this night is outside the sky forecast's hours: clouds unknown")
    }

    /// G1 or more predicted within the night shows beside the windows; G0 does not.
    @Test func theAuroraWhenG1IsPredicted() async throws {
        let storm: JSONValue = ["next24h": ["kp": 5.33, "kpText": "5+", "gScale": "G1", "time": "2026-11-27T09:00:00Z"],
                                "ovation": ["probability": 12]]
        let quiet: JSONValue = ["next24h": ["kp": 2.0, "kpText": "2", "gScale": "G0", "time": "2026-11-27T09:00:00Z"]]
        let stormy = try await Self.night("night:stevens:2026-11-26", urns: StubURNs(["aurora:stevens": .success(SourceResult(data: storm, kind: "aurora"))])).data
        #expect(stormy["aurora"]?["gScale"] == "G1")
        #expect(stormy["aurora"]?["probability"] == 12)
        let lines = NightPresentation().render(stormy, context: textContext("night:stevens:2026-11-26"))
        #expect(lines.contains { $0.contains("G1 predicted (Kp 5+) around") && $0.hasSuffix("12% chance here") }, "\(lines)")
        let calm = try await Self.night("night:stevens:2026-11-26", urns: StubURNs(["aurora:stevens": .success(SourceResult(data: quiet, kind: "aurora"))])).data
        #expect(calm["aurora"] == .null)
        #expect(NightPresentation().changeKey(stormy) != NightPresentation().changeKey(calm))
    }

    /// `night:{place}`: the night in progress, or the coming one in daytime (Seattle, PST).
    @Test func theCurrentNight() async throws {
        for (now, date) in [("2026-11-27T10:00:00Z", "2026-11-26"),  // 02:00 PST: last evening's night
                            ("2026-11-27T17:00:00Z", "2026-11-27"),  // 09:00 PST, after sunrise: tonight
                            ("2026-11-27T20:00:00Z", "2026-11-27"),  // noon
                            ("2026-11-28T03:00:00Z", "2026-11-27")] { // 19:00 PST
            #expect(try await Self.night("night:here", now: now).data["date"] == .string(date), "at \(now)")
        }
    }

    @Test func badArgumentsAreOneLineErrors() async throws {
        for (urn, argument) in [("night:here:2026-02-30", "date"), ("night:here:26-11-26", "date"), ("night:here:2201-01-01", "date"),
                                ("night:91,0", "place"), ("night:x,y", "place")] {
            let error = await conditionsError { _ = try await Self.night(urn) }
            #expect(error?.kind == .invalidArguments, "\(urn)")
            #expect(error?.message.contains(argument) == true, "\(urn): \(error?.message ?? "")")
        }
        let unknown = await conditionsError { _ = try await Self.night("night:stevns") }
        #expect(unknown?.kind == .notFound)
        #expect(unknown?.suggestions.contains("night:stevens") == true)
        let option = await conditionsError { _ = try makeSource(options: JSONObject([("nightMaxSkyCover", 120)])) }
        #expect(option?.kind == .configuration)
    }

    @Test func presentationAndChangeKey() async throws {
        let urns = StubURNs(["sky:stevens": try Self.sky(from: "2026-11-27T02:00:00Z", Array(repeating: 10, count: 12))])
        let result = try await Self.night("night:stevens:2026-11-26", urns: urns, options: JSONObject([("nightMaxMoonIllumination", 100)]))
        let presentation = NightPresentation()
        let lines = presentation.render(result.data, context: textContext("night:stevens:2026-11-26"))
        #expect(lines.first?.hasPrefix("night:stevens:2026-11-26  Stevens Pass, night of 2026-11-26: ") == true)
        #expect(lines.first?.hasSuffix("dark, moonless and clear") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  clouds   ▁▁▁▁▁▁▁▁▁▁▁▁") }, "\(lines)")
        #expect(presentation.changeKey(result.data) == presentation.changeKey(result.data))
        #expect(presentation.changeKey(result.data).status == "clear dark window")
        let card = presentation.card(result.data, context: textContext("night:stevens:2026-11-26"))
        #expect(card.title == "Tonight")
        #expect(card.status?.tone == .good)
        #expect(card.rows.first?.label == "Window")
        if let timeline = card.figure {
            #expect(timeline.caption == "Tonight, sunset to sunrise")
            #expect(timeline.marks.filter { $0.ink == .accent || $0.ink == .unknown }.count == 12, "a bar per hour")
        } else {
            Issue.record("no timeline")
        }
        #expect(presentation.render(["date": 3], context: textContext("night:x")).isEmpty == false, "other data degrades")
    }
}

/// A plain-text context in Seattle's zone.
func textContext(_ urn: String) -> PresentationContext {
    PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, style in
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let zone = calendar.timeZone.abbreviation(for: date) ?? ""
        return String(format: "%02d:%02d %@", parts.hour ?? 0, parts.minute ?? 0, zone)
    }
}
