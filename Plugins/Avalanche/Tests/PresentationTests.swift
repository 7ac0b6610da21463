import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsText
import Foundation
import Testing
@testable import Avalanche

/// `avalanche` results as text, and what `watch` counts as a change.
@Suite struct PresentationTests {
    let presentation = AvalancheSource.presentations.first { $0.kind == AvalancheSource.kind }!

    func textContext(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, _ in Timestamp.string(from: date) }
    }

    @Test func theRealForecastAsText() async throws {
        let result = try await makeSource().resolve("avalanche:baker", context: context(try april()))
        #expect(presentation.render(result.data, context: textContext("avalanche:baker")) == [
            "avalanche:baker  West Slopes North (NWAC) for Mt Baker: 3 Considerable today",
            "  today     above treeline 3 Considerable · near treeline 2 Moderate · below treeline 2 Moderate",
            "  tomorrow  above treeline 2 Moderate · near treeline 2 Moderate · below treeline 1 Low",
            "  Dangerous avalanche conditions. Careful snowpack evaluation, cautious route-finding and conservative decision-making essential.",
            "  Storm Slab: likely · D1–2 · above and near treeline · all aspects",
            "  Wet Loose: possible · D1–1.5 · near and below treeline · all aspects",
            "  Avalanche danger will rise through the day as a storm moves in and temperatures warm up. Shift to simpler, lower-angle terrain during stormy periods or if you see signs of instability like shooting cracks, rollerballs, or fresh avalanches.",
            "  by Lee Lazzara · published 2026-04-01T01:30:00Z · expires 2026-04-02T01:30:00Z",
            "  http://www.nwac.us/avalanche-forecast/#/west-slopes-north",
        ])
        #expect(presentation.changeKey(result.data) == ChangeKey(
            status: "Considerable",
            detail: "forecast; today 3/2/2; tomorrow 2/2/1; problems: Storm Slab, Wet Loose; warning: no"))
    }

    @Test func offSeasonAsText() async throws {
        let result = try await makeSource().resolve("avalanche:hurricane", context: context(try april()))
        let lines = presentation.render(result.data, context: textContext("avalanche:hurricane"))
        #expect(lines.first == "avalanche:hurricane  Olympics (NWAC) for Hurricane Ridge: off-season, no forecasts until next season")
        #expect(lines.dropFirst().first?.hasPrefix("  Avalanche forecasts have ended for the 2025-26 season in the Olympic Mountains.") == true)
        #expect(lines.contains("  by Sam Clairmont · published 2026-03-30T01:30:00Z"))
        #expect(presentation.changeKey(result.data).status == "off-season")
    }

    @Test func allAsText() async throws {
        let result = try await makeSource().resolve("avalanche:all", context: context(try april()))
        let lines = presentation.render(result.data, context: textContext("avalanche:all"))
        #expect(lines.count == 11)
        #expect(lines[0] == "avalanche:all  NWAC: 10 zones today")
        #expect(lines[1] == "  Olympics             off-season")
        #expect(lines[2] == "  West Slopes North    3 Considerable  above treeline 3 Considerable · near treeline 2 Moderate · below treeline 2 Moderate")
        #expect(lines[3] == "  West Slopes Central  no forecast")
        #expect(presentation.changeKey(result.data).status == "Considerable")
    }

    /// A level in any band today or tomorrow, a problem added or removed, a warning issued or
    /// lifted: a change. Wording, likelihood, size and times: not.
    @Test func whatCountsAsAChange() async throws {
        let data = try await makeSource().resolve("avalanche:baker", context: context(try april())).data
        let key = presentation.changeKey(data)
        func edited(_ edit: (inout JSONObject) -> Void) -> ChangeKey {
            var object = data.objectValue!
            edit(&object)
            return presentation.changeKey(.object(object))
        }
        func problems(_ edit: @escaping (inout [JSONValue]) -> Void) -> (inout JSONObject) -> Void {
            { object in
                var list = object["problems"]!.arrayValue!
                edit(&list)
                object["problems"] = .array(list)
            }
        }
        func band(_ day: String, _ band: String, _ level: Int) -> (inout JSONObject) -> Void {
            { object in
                var danger = object["danger"]!.objectValue!
                var bands = danger[day]!.objectValue!
                bands[band] = DangerScale.json(level)
                danger[day] = .object(bands)
                object["danger"] = .object(danger)
            }
        }
        // Not news.
        #expect(edited { $0["bottomLine"] = "Reworded." } == key)
        #expect(edited { $0["published"] = "2026-04-01T02:00:00Z"; $0["expires"] = "2026-04-02T02:00:00Z"; $0["forecaster"] = "Someone Else" } == key)
        #expect(edited(problems { list in
            var storm = list[0].objectValue!
            storm["likelihood"] = "very likely"
            storm["size"] = ["min": 1.5, "max": 2.5]
            list[0] = .object(storm)
        }) == key)
        // News.
        #expect(edited(band("today", "below", 3)) != key)
        #expect(edited(band("tomorrow", "above", 3)) != key)
        #expect(edited(band("today", "above", 4)).status == "High")
        #expect(edited(problems { $0.removeLast() }) != key)
        #expect(edited(problems { $0.append(["name": "Wind Slab"]) }) != key)
        #expect(edited { $0["warning"] = "warning" } != key)
        #expect(edited { $0["status"] = "off-season" } != key)
    }

    /// A warning in the map layer (its shape when set is not captured: here an object) is in
    /// the data, stands out in the text and is a change.
    @Test func aWarningInTheMapLayer() async throws {
        let layer = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": 1646, "properties": {"name": "West Slopes North", "off_season": false, "warning": {"product": {"product_type": "warning"}}}, "geometry": {"type": "Polygon", "coordinates": [[[-122.3, 47.85], [-121.0, 47.85], [-121.0, 49.0], [-122.3, 49.0], [-122.3, 47.85]]]}}]}"#
        let warned = try await makeSource().resolve("avalanche:baker", context: context(try april([Path.mapLayer: .json(layer)]))).data
        let calm = try await makeSource().resolve("avalanche:baker", context: context(try april())).data
        #expect(warned["warning"] == ["product_type": "warning"])
        #expect(presentation.render(warned, context: textContext("avalanche:baker")).first
            == "avalanche:baker  West Slopes North (NWAC) for Mt Baker: 3 Considerable today  ⚠ avalanche warning in effect")
        #expect(presentation.changeKey(warned) != presentation.changeKey(calm))
        #expect(presentation.changeKey(warned).detail.hasSuffix("warning: yes"))
    }

    /// Data from a hand-edited fixture or an old cache entry: read generically, never a trap.
    @Test func otherDataFallsBack() {
        let data: JSONValue = ["status": "open"]
        #expect(presentation.render(data, context: textContext("avalanche:x")) == GenericPresentation().render(data, context: textContext("avalanche:x")))
        #expect(presentation.changeKey(data) == GenericPresentation().changeKey(data))
    }
}
