import NWSStandIn
import ConditionsJSON
import ConditionsKit
import Foundation
import TestHarness
import Testing

/// The derived bodies hold the real values `derived/SOURCES.md` says they hold, and those are
/// in the real captures they were taken from (WSDOT's Stevens page, its Traveler API).
@Suite struct NWSFixtureTests {
    static func json(_ path: String) throws -> JSONValue { try JSONValue.parse(Data(try NWSStandIn.fixture(path).utf8)) }
    static func wsdot(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("Plugins/WSDOT/Tests/Resources/real/\(name)"), encoding: .utf8)
    }

    @Test func theStevensForecastCarriesNWSsPeriodsFromWSDOTsPage() throws {
        let page = try Self.wsdot("wsdot_new_stevens_fullpage_rendered_2025-11-02.html")
        for name in ["Today", "Tonight", "Monday"] {
            #expect(page.contains(#"<div class="weather-station-forecast"><span>\#(name)</span><img src="https://images.wsdot.wa.gov/traffic/weaicons/snow.gif" alt="snow.gif"><span>Snow</span></div>"#))
        }
        #expect(page.contains("34°F / 1°C as of 7:24 AM 11/02/2025") && page.contains("4061 ft / 1238 m"))

        let periods = try #require(try Self.json("derived/forecast_SEW_163_68.json")["properties"]?["periods"]?.arrayValue)
        #expect(periods.prefix(3).map { $0["name"]?.stringValue } == ["Today", "Tonight", "Monday"])
        #expect(periods.prefix(3).allSatisfy { $0["shortForecast"] == "Snow" })
        #expect(periods[0]["startTime"] == "2025-11-02T07:00:00-08:00")
        let elevation = try #require(try Self.json("derived/forecast_SEW_163_68.json")["properties"]?["elevation"]?["value"]?.doubleValue)
        #expect(Int((elevation / 0.3048).rounded()) == 4061)
        let hourly = try #require(try Self.json("derived/forecast_hourly_SEW_163_68.json")["properties"]?["periods"]?.arrayValue)
        #expect(hourly.first?["temperature"] == 34 && hourly.first?["startTime"] == "2025-11-02T07:00:00-08:00")
        #expect(hourly.allSatisfy { $0["shortForecast"] == "Snow" && $0["name"] == "" })
    }

    @Test func theSnoqualmieForecastStartsWithWSDOTsObservation() throws {
        let capture = try JSONValue.parse(Data(try Self.wsdot("DERIVED_wsdot_api_passes_2025-11-03_wcf_raw_form.json").utf8))
        let snoqualmie = try #require(capture.arrayValue?.first { $0["MountainPassId"] == 11 })
        #expect(snoqualmie["TemperatureInFahrenheit"] == 37 && snoqualmie["WeatherCondition"] == "Occasional rain" && snoqualmie["ElevationInFeet"] == 3022)
        let first = try #require(try Self.json("derived/forecast_SEW_151_53.json")["properties"]?["periods"]?.arrayValue?.first)
        #expect(first["temperature"] == 37 && first["shortForecast"] == "Occasional Rain")
    }

    @Test func derivedPointsKeepTheRealBodysShape() throws {
        let real = try Self.json("real/nws_points_30_-85_pynws-fixture.json")
        for name in ["derived/points_47.745_-121.0933.json", "derived/points_47.41_-121.4058.json"] {
            let derived = try Self.json(name)
            #expect(derived["@context"] == real["@context"], "\(name)")
            #expect(derived.objectValue?.keys == real.objectValue?.keys, "\(name)")
            #expect(derived["properties"]?.objectValue?.keys == real["properties"]?.objectValue?.keys, "\(name)")
            #expect(derived["properties"]?["timeZone"] == "America/Los_Angeles")
        }
        for name in ["derived/problem_503_ForecastGridExpired.json", "derived/problem_500_UnexpectedProblem.json"] {
            #expect(try Self.json(name).objectValue?.keys == Self.json("real/nws_problem_404_MarineForecastNotSupported.json").objectValue?.keys, "\(name)")
        }
    }
}
