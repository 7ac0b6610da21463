import ConditionsKitTesting
import NWSStandIn
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import TestHarness
import Testing
@testable import NWS

/// The decoders on their own: the real `/points` body, and what tolerance means for the rest.
@Suite struct DecodingTests {
    let url = URL(string: "https://api.weather.gov/x")!

    @Test func theRealPointsBody() throws {
        let grid = try NWSGrid(pointsBody: Data(try NWSStandIn.fixture("real/nws_points_30_-85_pynws-fixture.json").utf8), url: url)
        #expect(grid.forecast.absoluteString == "https://api.weather.gov/gridpoints/TAE/58,65/forecast")
        #expect(grid.forecastHourly.absoluteString == "https://api.weather.gov/gridpoints/TAE/58,65/forecast/hourly")
        #expect(grid.gridText == "TAE 58,65")
        #expect(grid.nearby == "Sumatra, FL")
        #expect(grid.timeZone == "America/New_York")
        // What the memo keeps reads back the same.
        #expect(NWSGrid(json: grid.json) == grid)
        #expect(NWSGrid(json: ["forecast": "ftp://x/y", "forecastHourly": "https://x/y"]) == nil)
        #expect(NWSGrid(json: "garbage") == nil)
    }

    @Test func aPointsBodyWithoutUsableURLsIsABadResponse() {
        for (body, field) in [(#"{"properties": {"forecastHourly": "https://a/b"}}"#, "properties.forecast is missing"),
                              (#"{"properties": {"forecast": "javascript:alert(1)", "forecastHourly": "https://a/b"}}"#, "properties.forecast is \"javascript:alert(1)\""),
                              (#"{"properties": {"forecast": "https://a/b", "forecastHourly": 7}}"#, "properties.forecastHourly is missing"),
                              (#"{"type": "Feature"}"#, "no \"properties\" object"), ("<html>", "not JSON")] {
            #expect(throws: ConditionsError.self) { try NWSGrid(pointsBody: Data(body.utf8), url: url) }
            do { _ = try NWSGrid(pointsBody: Data(body.utf8), url: url) } catch {
                #expect(error.kind == .badResponse && error.message.contains(field), "\(error.message)")
            }
        }
    }

    @Test func periodsAreReadTolerantly() throws {
        let body = """
        {"properties": {"updateTime": "2025-11-02T06:45:00-08:00", "elevation": {"unitCode": "wmoUnit:ft", "value": 4061},
         "periods": [
          {"number": 1, "name": "Tonight", "startTime": "2025-11-02T18:00:00-08:00", "endTime": "2025-11-03T06:00:00-08:00",
           "temperature": {"unitCode": "wmoUnit:degC", "value": -2.2}, "windSpeed": {"unitCode": "wmoUnit:km_h-1", "minValue": 8, "maxValue": 16},
           "probabilityOfPrecipitation": 140, "shortForecast": "Snow\\nShowers", "detailedForecast": ""},
          {"startTime": "2025-11-03T06:00:00-08:00", "endTime": "2025-11-03T18:00:00-08:00", "temperature": "warm", "windSpeed": {"unitCode": "wmoUnit:m_s-1", "value": 3.4},
           "probabilityOfPrecipitation": {"unitCode": "wmoUnit:percent", "value": null}, "isDaytime": "yes", "name": 5}
         ]}}
        """
        let forecast = try NWSForecast(body: Data(body.utf8), url: url)
        #expect(forecast.updated == Timestamp.parse("2025-11-02T14:45:00Z"))
        #expect(forecast.generatedAt == nil)
        #expect(forecast.elevationM.map { Int(($0 / 0.3048).rounded()) } == 4061)
        let first = forecast.periods[0]
        #expect(first["temperature"] == -2.2 && first["temperatureUnit"] == "C")
        #expect(first["windSpeed"] == "8 to 16 km/h")
        #expect(first["precipitationChance"] == 100)
        #expect(first["shortForecast"] == "Snow\nShowers")
        #expect(first["detailedForecast"] == .null)
        let second = forecast.periods[1]
        #expect(second["number"] == 2 && second["name"] == "" && second["isDaytime"] == .null)
        #expect(second["temperature"] == .null && second["windSpeed"] == "3 m/s" && second["precipitationChance"] == .null)
    }

    @Test func aPeriodWithoutTimesFailsNamingIt() {
        let body = #"{"properties": {"periods": [{"startTime": "2025-11-02T18:00:00-08:00", "endTime": "2025-11-03T06:00:00-08:00"}, {"startTime": "soon"}]}}"#
        do {
            _ = try NWSForecast(body: Data(body.utf8), url: url)
            Issue.record("decoded")
        } catch {
            #expect(error.kind == .badResponse)
            #expect(error.message == "https://api.weather.gov/x: properties.periods[1] has no readable startTime and endTime")
        }
        #expect(throws: ConditionsError.self) { try NWSForecast(body: Data(#"{"properties": {"periods": {}}}"#.utf8), url: url) }
    }

    @Test func alertsAreOrderedBySeverityThenOnset() throws {
        func feature(_ event: String, _ severity: String, _ onset: String, status: String = "Actual") -> String {
            #"{"properties": {"event": "\#(event)", "severity": "\#(severity)", "onset": "\#(onset)", "status": "\#(status)"}}"#
        }
        let body = #"{"features": [\#(feature("Wind Advisory", "Moderate", "2025-11-02T10:00:00-08:00")), \#(feature("Flood Watch", "Severe", "2025-11-03T10:00:00-08:00")), "#
            + #"\#(feature("Special Weather Statement", "Minor", "2025-11-02T08:00:00-08:00")), \#(feature("Winter Storm Warning", "Severe", "2025-11-02T16:00:00-08:00")), "#
            + #"\#(feature("Exercise", "Extreme", "2025-11-02T00:00:00-08:00", status: "Exercise")), {"type": "Feature"}, 7]}"#
        let alerts = try NWSAlerts(body: Data(body.utf8), url: url)
        #expect(alerts.alerts.map { $0["event"]?.stringValue } == ["Winter Storm Warning", "Flood Watch", "Wind Advisory", "Special Weather Statement"])
        #expect(throws: ConditionsError.self) { try NWSAlerts(body: Data(#"{"type": "FeatureCollection"}"#.utf8), url: url) }
    }

    @Test func problemsCarryTitleAndDetailOnOneLine() throws {
        let response = HTTPResponse(status: 500, headers: ["retry-after": "2"],
                                    body: Data(#"{"title": "Unexpected\nProblem", "type": "https://api.weather.gov/problems/UnexpectedProblem", "status": 500, "detail": "line one\r\nline\u001B[31mtwo"}"#.utf8),
                                    url: url)
        let error = try #require(NWSProblem.error(for: response, what: "the point 1,2", optionsPath: "sources.nws.options") as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message == "NWS: Unexpected Problem (HTTP 500, UnexpectedProblem) for the point 1,2: line one line [31mtwo (retry after 2)")
        let invalid = try #require(NWSProblem.error(for: HTTPResponse(status: 400, body: Data(try NWSStandIn.fixture("real/nws_problem_400_InvalidParameter.json").utf8), url: url),
                                                    what: "the point 39.7456,-20000", optionsPath: "p") as? ConditionsError)
        #expect(invalid.kind == .invalidArguments)
        #expect(invalid.message == #"NWS: Invalid Parameter (HTTP 400, InvalidParameter) for the point 39.7456,-20000: Parameter "point" is invalid: '39.7456,-20000' does not appear to be a valid coordinate"#)
        // Not a problem body: the plain HTTP error.
        let plain = NWSProblem.error(for: HTTPResponse(status: 502, body: Data("<html>bad gateway</html>".utf8), url: url), what: "x", optionsPath: "p")
        #expect(plain as? HTTPError == .status(502, url: "https://api.weather.gov/x", retryAfter: nil))
    }

    @Test func pointsAreWrittenWithAtMostFourDecimals() {
        #expect(NWSPoint(latitude: Place.stevens.latitude, longitude: Place.stevens.longitude).text == "\(Place.stevensPoint)")
        #expect(NWSPoint(latitude: 30, longitude: -85).text == "30,-85")
        #expect(NWSPoint(latitude: 47.41, longitude: -121.405833).text == "47.41,-121.4058")
        #expect(NWSPoint(latitude: 45.45805556, longitude: -122.66361111).text == "45.4581,-122.6636")
        #expect(NWSPoint(latitude: 45.4580, longitude: -122.6636).text == "45.458,-122.6636")
        #expect(NWSPoint(latitude: -0.00001, longitude: 179.99999).text == "0,180")
        #expect(NWSPoint(latitude: 90, longitude: -180).text == "90,-180")
    }
}
