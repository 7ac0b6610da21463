import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import TestHarness
import Testing
@testable import NWS

/// How results read as text and cards, and what `watch` counts as a change.
@Suite struct PresentationTests {
    static let pacific = TimeZone(identifier: "America/Los_Angeles")!

    /// A context formatting times as the host does for a Pacific location (`Sun Nov 2 10:00 PST`).
    func context(_ urn: String) -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: "Seattle") { date, style in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = Self.pacific
            formatter.dateFormat = style == .time ? "HH:mm zzz" : style == .date ? "EEE MMM d yyyy" : "EEE MMM d HH:mm zzz"
            return formatter.string(from: date)
        }
    }

    func resolved(_ urn: String) async throws -> SourceResult {
        let standIn = try standIn()
        defer { standIn.stop() }
        return try await resolve(urn, with: try makeSource(standIn))
    }

    @Test func aForecastReadsAlertsFirstThenFourPeriods() async throws {
        let result = try await resolved("forecast:stevens")
        let lines = ForecastPresentation().render(result.data, context: context("forecast:stevens"))
        #expect(lines == [
            "forecast:stevens  Stevens Pass · 4,061 ft · updated Sun Nov 2 06:45 PST",
            "  ⚠ Winter Weather Advisory until Mon Nov 3 10:00 PST (Moderate · Expected · Likely)",
            "  Today         35°F  Snow · wind SW 5 to 10 mph · precip 90%",
            "  Tonight       28°F  Snow · wind SW 5 to 10 mph · precip 90%",
            "  Monday        33°F  Snow · wind W 5 mph · precip 80%",
            "  Monday Night  26°F  Snow Showers Likely · wind NW 0 to 5 mph · precip 60%",
        ])
        // With colour, the alert stands out (bold yellow; red when severe).
        let plain = context("forecast:stevens")
        let styled = PresentationContext(urn: plain.urn, style: TextStyle(enabled: true), placeName: nil) { plain.localTime($0, $1) }
        #expect(ForecastPresentation().render(result.data, context: styled)[1] == "  \u{1B}[1m\u{1B}[33m⚠ Winter Weather Advisory until Mon Nov 3 10:00 PST (Moderate · Expected · Likely)\u{1B}[0m\u{1B}[0m")
    }

    @Test func aForecastOverADayOldSaysHowOld() async throws {
        guard case .object(var data) = try await resolved("forecast:stevens").data else { Issue.record("not an object"); return }
        #expect(data["age"]?.intValue.map { $0 < 86_400 } == true, "the stand-in's forecast is fresh at the test's clock")
        data["age"] = .int(86_400 * 388)
        let lines = ForecastPresentation().render(.object(data), context: context("forecast:stevens"))
        #expect(lines[0] == "forecast:stevens  Stevens Pass · 4,061 ft · issued Sun Nov 2 2025, 388 days old")
        data["age"] = .int(86_400 + 60)
        #expect(ForecastPresentation().render(.object(data), context: context("forecast:stevens"))[0].hasSuffix("issued Sun Nov 2 2025, 1 day old"))
    }

    @Test func anHourlyForecastReadsTwelveHours() async throws {
        let result = try await resolved("forecast:stevens:hourly")
        let lines = ForecastPresentation().render(result.data, context: context("forecast:stevens:hourly"))
        #expect(lines.count == 13)
        #expect(lines[0] == "forecast:stevens:hourly  Stevens Pass hourly · 4,061 ft · updated Sun Nov 2 06:45 PST")
        #expect(lines[1] == "  07:00 PST  34°F  Snow · wind SW 10 mph · precip 90%")
        #expect(lines[12] == "  18:00 PST  31°F  Snow · wind SW 5 mph · precip 90%")
    }

    @Test func alertsReadWithWhatToDo() async throws {
        let result = try await resolved("alerts:stevens")
        #expect(AlertsPresentation().render(result.data, context: context("alerts:stevens")) == [
            "alerts:stevens  Stevens Pass: 1 active alert",
            "  ⚠ Winter Weather Advisory until Mon Nov 3 10:00 PST (Moderate · Expected · Likely)",
            "    Winter Weather Advisory issued November 2 at 3:12AM PST until November 3 at 10:00AM PST by NWS Seattle WA",
            "    from Sun Nov 2 10:00 PST until Mon Nov 3 10:00 PST",
            "    Area: Cascades of Snohomish and King Counties",
            "    What to do: Slow down and use caution while traveling. Carry chains, a flashlight, food and water in case of an emergency.",
        ])
        let none = try await resolved("alerts:snoqualmie")
        #expect(AlertsPresentation().render(none.data, context: context("alerts:snoqualmie")) == ["alerts:snoqualmie  Snoqualmie Pass: no active alerts"])
    }

    /// `watch`: a re-issued forecast saying the same is no change; a new or ended alert is one.
    @Test func changeKeys() async throws {
        let forecast = try await resolved("forecast:stevens").data
        let presentation = ForecastPresentation()
        var reissued = try #require(forecast.objectValue)
        reissued["updated"] = "2025-11-02T16:10:00Z"
        reissued["generatedAt"] = "2025-11-02T16:12:00Z"
        #expect(presentation.changeKey(.object(reissued)) == presentation.changeKey(forecast))

        var ended = try #require(forecast.objectValue)
        ended["alerts"] = []
        #expect(presentation.changeKey(.object(ended)) != presentation.changeKey(forecast))
        #expect(presentation.changeKey(.object(ended)).status == "35°F  Snow · wind SW 5 to 10 mph · precip 90%")
        #expect(presentation.changeKey(forecast).status == "Winter Weather Advisory")

        var warmer = try #require(forecast.objectValue)
        var periods = try #require(warmer["periods"]?.arrayValue)
        var first = try #require(periods[0].objectValue)
        first["temperature"] = 38
        periods[0] = .object(first)
        warmer["periods"] = .array(periods)
        #expect(presentation.changeKey(.object(warmer)) != presentation.changeKey(forecast))

        let alerts = try await resolved("alerts:stevens").data
        let alertsPresentation = AlertsPresentation()
        #expect(alertsPresentation.changeKey(alerts).status == "1 alert: Winter Weather Advisory")
        // Re-issued under a new id with a later expiry: the same alert.
        var object = try #require(alerts.objectValue)
        var alert = try #require(object["alerts"]?.arrayValue?.first?.objectValue)
        alert["id"] = "urn:oid:reissued"
        alert["expires"] = "2025-11-03T06:00:00Z"
        object["alerts"] = [.object(alert)]
        #expect(alertsPresentation.changeKey(.object(object)) == alertsPresentation.changeKey(alerts))
        // Another alert beside it, or none: changes.
        var second = alert
        second["event"] = "Avalanche Warning"
        object["alerts"] = [.object(alert), .object(second)]
        #expect(alertsPresentation.changeKey(.object(object)) != alertsPresentation.changeKey(alerts))
        object["alerts"] = []
        #expect(alertsPresentation.changeKey(.object(object)).status == "no alerts")
    }

    @Test func cards() async throws {
        let forecast = try await resolved("forecast:stevens")
        let card = ForecastPresentation().card(forecast.data, context: context("forecast:stevens"))
        #expect(card.title == "Stevens Pass")
        #expect(card.subtitle == "Forecast (NWS)")
        #expect(card.status == .init("1 alert", tone: .caution))
        #expect(card.rows.first == .init("Alert", "Winter Weather Advisory until Mon Nov 3 10:00 PST", tone: .caution))
        #expect(card.rows.dropFirst().prefix(4).map(\.label) == ["Today", "Tonight", "Monday", "Monday Night"])
        #expect(card.rows.last == .init("Elevation", "4,061 ft"))
        #expect(card.link?.url.absoluteString == "https://forecast.weather.gov/MapClick.php?lat=47.745&lon=-121.0933")
        #expect(card.updated == Timestamp.parse("2025-11-02T14:45:00Z"))

        let alerts = try await resolved("alerts:snoqualmie")
        let alertsCard = AlertsPresentation().card(alerts.data, context: context("alerts:snoqualmie"))
        #expect(alertsCard.title == "Snoqualmie Pass")
        #expect(alertsCard.status == .init("no alerts", tone: .good))
        #expect(alertsCard.rows.isEmpty)
    }

    /// Data from elsewhere (a hand-edited fixture, an old cache entry) degrades, never traps.
    @Test func strangeDataDegrades() {
        let strange: [JSONValue] = [
            [:], ["periods": "no"], ["place": [:], "periods": [1, "x", [:], ["temperature": 1e300, "start": "never"]], "elevationM": 1e300],
            ["place": ["id": 3], "alerts": [["event": 5], ["event": "X", "onset": "2025-11-03T00:00:00Z", "ends": "2025-11-02T00:00:00Z"]], "periods": []],
        ]
        for data in strange {
            for presentation in [ForecastPresentation() as any ResultPresentation, AlertsPresentation()] {
                _ = presentation.render(data, context: context("forecast:x"))
                _ = presentation.changeKey(data)
                _ = presentation.card(data, context: context("forecast:x"))
            }
        }
    }
}
