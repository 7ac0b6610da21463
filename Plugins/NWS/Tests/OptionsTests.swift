import ConditionsHelpers
import ConditionsKitTesting
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing
@testable import NWS

@Suite struct OptionsTests {
    @Test func defaults() throws {
        let source = try makeSource(userAgent: "conditions/9.9")
        #expect(source.examples == ["forecast:stevens", "forecast:stevens:hourly", "alerts:stevens", "sky:stevens"])
        var options = Self.options([:])
        let settings = try NWSSettings(options: &options, hostAgent: "conditions/9.9")
        #expect(settings.baseURL.absoluteString == "https://api.weather.gov")
        #expect(settings.userAgent == "conditions/9.9")
        #expect(settings.pointsURL(NWSPoint(latitude: Place.stevens.latitude, longitude: Place.stevens.longitude)).absoluteString == "https://api.weather.gov/points/\(Place.stevensPoint)")
        #expect(settings.alertsURL(NWSPoint(latitude: 30, longitude: -85)).absoluteString == "https://api.weather.gov/alerts/active?point=30,-85")
        // Without places the examples use here.
        #expect(try makeSource(places: Places(location: .seattle)).examples.first == "forecast:here")
    }

    @Test func aContactInTheUserAgentAndABaseURLWithAPath() throws {
        var options = Self.options(["userAgent": "conditions/0.1.0 (ops@example.com)", "baseURL": "http://127.0.0.1:8080/nws"])
        let settings = try NWSSettings(options: &options, hostAgent: "x")
        #expect(settings.userAgent == "conditions/0.1.0 (ops@example.com)")
        #expect(settings.pointsURL(NWSPoint(latitude: 1, longitude: 2)).absoluteString == "http://127.0.0.1:8080/nws/points/1,2")
    }

    @Test func badOptionsNameTheirPath() {
        let cases: [(JSONValue, String)] = [
            (["userAgent": "a\r\nX-Injected: 1"], "sources.nws.options.userAgent: expected 1 to 256 printable ASCII characters"),
            (["userAgent": "  "], "sources.nws.options.userAgent: expected 1 to 256"),
            (["userAgent": 7], "sources.nws.options.userAgent: expected a string, found number"),
            (["baseURL": "api.weather.gov"], "sources.nws.options.baseURL: \"api.weather.gov\" is not an absolute http or https URL"),
            (["baseURL": "https://api.weather.gov/?key=1"], "is not an absolute http or https URL without a query"),
            (["useragent": "x"], "unknown option sources.nws.options.useragent (did you mean \"userAgent\"?)"),
        ]
        for (options, message) in cases {
            do {
                _ = try makeSource(options.objectValue ?? JSONObject())
                Issue.record("accepted \(options)")
            } catch let error as ConditionsError {
                #expect(error.kind == .configuration)
                #expect(error.message.contains(message), "\(error.message)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func placesByNameHereAndNotFoundWithSuggestions() throws {
        func place(_ argument: String) throws -> PlacePoint {
            try Location(urn: URN("forecast:\(argument):hourly"), pattern: NWSSource.hourlyPattern, arguments: ["place": argument]).place(in: places)
        }
        let here = try place("HERE")
        #expect(here.id == "here" && here.name == "Seattle" && here.nwsPoint.text == "47.6097,-122.3331")
        let stevens = try place("Stevens")
        #expect(stevens.id == "stevens" && stevens.name == "Stevens Pass")
        #expect(try place("puget-sound").id == "Puget-Sound")
        #expect(try place("+47.5,-121").nwsPoint.text == "47.5,-121")
        do {
            _ = try place("stevns")
            Issue.record("found")
        } catch let error as ConditionsError {
            #expect(error.kind == .notFound)
            #expect(error.message == "no place named \"stevns\" (places: stevens, snoqualmie, sumatra, Puget-Sound; or here, latitude,longitude)")
            #expect(error.suggestions == ["forecast:stevens:hourly"])
        }
    }

    static func options(_ object: JSONValue) -> SourceOptions {
        SourceOptions(path: "sources.nws.options", object: object.objectValue ?? JSONObject(), baseDirectory: URL(fileURLWithPath: "/tmp"))
    }
}
