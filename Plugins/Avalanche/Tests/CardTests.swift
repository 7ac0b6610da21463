import ConditionsFigures
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Avalanche

/// `avalanche` results as dashboard cards: the danger as coloured bands with each level written
/// out, the warning first, problems and bottom line as rows, neutral off-season and "no rating".
@Suite struct CardTests {
    let presentation = AvalancheSource.presentations.first { $0.kind == AvalancheSource.kind }!

    func cardContext(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
    }

    /// The bands as the card's drawing shows them, read back from its marks: each caption, then
    /// per band its label, its level written out and the colour under the level.
    static func bands(_ card: ResultCard) -> DangerChart? {
        guard let drawing = card.figure else { return nil }
        var groups: [DangerChart.Group] = []
        var label: String?, fill: String?
        for mark in drawing.marks {
            switch (mark.shape, mark.ink) {
            case (.text(let words, _, _, .note, _), _): groups.append(.init(caption: words, bands: []))
            case (.text(let words, _, _, .body, _), _): label = words
            case (.rect, .fill(let colour)): fill = colour
            case (.text(let words, _, _, .value, _), _):
                guard !groups.isEmpty, let label, let fill else { return nil }
                groups[groups.count - 1].bands.append(.init(label: label, value: words, fill: fill))
            default: continue
            }
        }
        return DangerChart(title: drawing.title, groups: groups)
    }

    /// The scale's colours by level, written out here rather than read from `DangerScale`.
    static let scale = [1: "#50B848", 2: "#FFF200", 3: "#F7941E", 4: "#ED1C24", 5: "#231F20"]

    @Test func theRealForecastAsACard() async throws {
        let result = try await makeSource().resolve("avalanche:baker", context: context(try april()))
        let card = presentation.card(result.data, context: cardContext("avalanche:baker"))
        #expect(card.title == "West Slopes North")
        #expect(card.subtitle == "NWAC avalanche forecast for Mt Baker")
        #expect(card.status == .init("3 Considerable", tone: .caution))

        let chart = try #require(Self.bands(card))
        #expect(chart.groups.map(\.caption) == ["Today", "Tomorrow"])
        let today = try #require(chart.groups.first)
        #expect(today.bands.map(\.label) == ["Above treeline", "Near treeline", "Below treeline"])
        #expect(today.bands.map(\.value) == ["3 Considerable", "2 Moderate", "2 Moderate"])
        #expect(today.bands.map(\.fill) == [3, 2, 2].map { Self.scale[$0]! })
        let tomorrow = try #require(chart.groups.last)
        #expect(tomorrow.bands.map(\.value) == ["2 Moderate", "2 Moderate", "1 Low"])
        #expect(tomorrow.bands.map(\.fill) == [2, 2, 1].map { Self.scale[$0]! })

        // No warning: the rows start with the scale's advice, then the two problems with
        // likelihood, size, elevations and aspects, then the bottom line.
        #expect(card.rows.map(\.label) == ["Travel advice", "Storm Slab", "Wet Loose", "Bottom line", "Forecaster", "Expires"])
        #expect(card.rows.allSatisfy { $0.tone == nil })
        #expect(card.rows[1].value == "likely · D1–2 · above and near treeline · all aspects")
        #expect(card.rows[2].value == "possible · D1–1.5 · near and below treeline · all aspects")
        #expect(card.rows[3].value.hasPrefix("Avalanche danger will rise through the day as a storm moves in"))
        #expect(card.rows[4].value == "Lee Lazzara")
        #expect(card.rows[5].value == "2026-04-02T01:30:00Z")
        #expect(card.staleNote == nil, "in force at 09:00 on Apr 1")
        #expect(card.updated == Timestamp.parse("2026-04-01T01:30:00Z"))
        #expect(card.link == .init(url: URL(string: "http://www.nwac.us/avalanche-forecast/#/west-slopes-north")!, label: "NWAC's forecast for West Slopes North"))
        #expect(card.coordinate == .init(latitude: 48.857, longitude: -121.665))
    }

    @Test func aWarningComesFirstInTheBadTone() async throws {
        var data = try await makeSource().resolve("avalanche:baker", context: context(try april())).data.objectValue!
        data["warning"] = ["title": "Avalanche Warning until 6 PM Thursday"]
        let card = presentation.card(.object(data), context: cardContext("avalanche:baker"))
        #expect(card.status == .init("avalanche warning", tone: .bad))
        #expect(card.rows.first == .init("Warning", "Avalanche Warning until 6 PM Thursday", tone: .bad))
        #expect(card.rows.dropFirst().first == .init("Danger today", "3 Considerable"), "the day's rating right after it")
        #expect(Self.bands(card)?.groups.first?.bands.map(\.value) == ["3 Considerable", "2 Moderate", "2 Moderate"])
        // A warning of a shape not seen before still reads as one.
        data["warning"] = [1, 2]
        #expect(presentation.card(.object(data), context: cardContext("avalanche:baker")).rows.first == .init("Warning", "Avalanche warning in effect", tone: .bad))
    }

    @Test func anExpiredForecastIsMarked() async throws {
        let later = try #require(Timestamp.parse("2026-04-03T16:00:00Z"))
        let result = try await makeSource().resolve("avalanche:baker", context: context(try april(), now: later))
        let card = presentation.card(result.data, context: cardContext("avalanche:baker"))
        #expect(card.staleNote == "forecast expired 2026-04-02T01:30:00Z")
        #expect(!card.rows.contains { $0.label == "Expires" })
        #expect(Self.bands(card) != nil, "the bands are still shown, marked old")
    }

    @Test func offSeasonIsAPlainNeutralStatus() async throws {
        let result = try await makeSource().resolve("avalanche:hurricane", context: context(try april()))
        let card = presentation.card(result.data, context: cardContext("avalanche:hurricane"))
        #expect(card.title == "Olympics")
        #expect(card.status == .init("off-season", tone: .neutral))
        #expect(card.figure == nil, "no bands off season")
        #expect(card.rows.first?.label == "Summary")
        #expect(card.rows.first?.value.hasPrefix("Avalanche forecasts have ended for the 2025-26 season in the Olympic Mountains.") == true)
        #expect(card.rows.allSatisfy { $0.tone == nil })
        #expect(card.staleNote == nil)
        #expect(card.coordinate == .init(latitude: 47.9698, longitude: -123.4985))
    }

    /// The real all-null forecast of 2023: "no rating", neutral, every band grey and said so.
    @Test func noRatingIsNeutralAndGrey() async throws {
        let list = try JSONValue.parse(try fixture(Body.productsList2023))
        let olympics = try #require(list.arrayValue?.first { $0["forecast_zone"]?.arrayValue?.first?["name"] == "Olympics" })
        let http = RecordingHTTPClient([Path.mapLayer: try .jsonFixture(Body.mapLayer2023), Path.product(1128): .json(olympics),
                                        Path.warning(1128): try .jsonFixture(Body.warningNone)])
        let result = try await makeSource().resolve("avalanche:olympics", context: context(http, now: try #require(Timestamp.parse("2023-01-24T18:00:00Z"))))
        let card = presentation.card(result.data, context: cardContext("avalanche:olympics"))
        #expect(card.status == .init("no rating", tone: .neutral))
        #expect(card.subtitle == "NWAC avalanche forecast", "the URN named the zone")
        #expect(card.coordinate == nil)
        let today = try #require(Self.bands(card)?.groups.first)
        #expect(today.bands.map(\.value) == ["No rating", "No rating", "No rating"])
        #expect(today.bands.map(\.fill) == ["#888888", "#888888", "#888888"])
    }

    @Test func everyLevelHasTheScalesColour() {
        let danger: JSONValue = ["today": ["above": DangerScale.json(5), "near": DangerScale.json(4), "below": DangerScale.json(-1)],
                                 "tomorrow": ["above": DangerScale.json(1), "near": DangerScale.json(2), "below": DangerScale.json(3)]]
        let chart = AvalanchePresentation.dangerChart(danger)
        #expect(chart?.groups.flatMap(\.bands).map(\.value) == ["5 Extreme", "4 High", "No rating", "1 Low", "2 Moderate", "3 Considerable"])
        #expect(chart?.groups.flatMap(\.bands).map(\.fill) == [Self.scale[5]!, Self.scale[4]!, "#888888", Self.scale[1]!, Self.scale[2]!, Self.scale[3]!])
        // Tomorrow null (a forecast without one): today alone.
        #expect(AvalanchePresentation.dangerChart(["today": danger["today"]!, "tomorrow": .null])?.groups.map(\.caption) == ["Today"])
        #expect(AvalanchePresentation.dangerChart(["today": .null, "tomorrow": .null]) == nil)
        // What is drawn is what the chart holds.
        var card = ResultCard(title: "Zone")
        card.figure = chart?.drawing
        #expect(Self.bands(card) == chart)
    }

    @Test func allZonesAsParts() async throws {
        let result = try await makeSource().resolve("avalanche:all", context: context(try april()))
        let card = presentation.card(result.data, context: cardContext("avalanche:all"))
        #expect(card.title == "NWAC avalanche forecasts")
        #expect(card.subtitle == "10 zones today")
        #expect(card.status == .init("3 Considerable", tone: .caution))
        #expect(card.parts.count == 10)
        #expect(card.parts.map(\.title).prefix(3) == ["Olympics", "West Slopes North", "West Slopes Central"])
        #expect(card.parts[0].status == .init("off-season", tone: .neutral))
        #expect(card.parts[2].status == .init("no forecast", tone: .neutral))
        let north = card.parts[1]
        #expect(north.status == .init("3 Considerable", tone: .caution))
        #expect(Self.bands(north)?.groups.first?.bands.map(\.value) == ["3 Considerable", "2 Moderate", "2 Moderate"])
        #expect(north.rows.isEmpty, "a part is compact: no problems or bottom line")
        #expect(north.link?.url.absoluteString == "http://www.nwac.us/avalanche-forecast/#/west-slopes-north")
    }

    /// Data of another shape never traps: the generic card, or a card with what could be read.
    @Test func unrecognisedDataDegrades() {
        let context = cardContext("avalanche:odd")
        for data: JSONValue in [.string("x"), .null, [:], ["zone": 5, "status": "forecast"], ["zone": ["name": "Z"]],
                                ["zone": ["name": "Z"], "status": "forecast", "danger": "high", "rating": ["level": 9], "problems": "none",
                                 "place": ["latitude": "north"], "url": 3, "expires": "yesterday"],
                                ["zone": ["name": "Z"], "status": "forecast", "danger": ["today": ["above": ["level": 99], "near": 1]]],
                                ["zones": [1, "a", ["zone": ["name": "Z"], "status": "forecast", "rating": ["level": 0]]]]] {
            let card = presentation.card(data, context: context)
            #expect(!card.title.isEmpty)
        }
        let odd = presentation.card(["zone": ["name": "Z"], "status": "forecast", "danger": ["today": ["above": ["level": 99], "near": 1]]], context: context)
        #expect(odd.status == .init("forecast", tone: .neutral))
        #expect(Self.bands(odd)?.groups.first?.bands.map(\.value) == ["No rating", "No rating", "No rating"])
        let all = presentation.card(["zones": [1, "a"]], context: context)
        #expect(all.parts.count == 2)
        #expect(all.status == .init("no rating", tone: .neutral))
    }
}
