import ConditionsText
import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMoon
import Foundation
import Testing

@testable import Aeris

@Suite("Aeris source: routes, requests, results")
struct AerisSourceTests {
    @Test func bothCredentialsAreDeclaredSecret() {
        #expect(AerisSource.secretOptions == ["clientId", "clientSecret"])
    }

    static let base = "https://api.aerisapi.com"
    static let credentials = "client_id=aeris-ID-4711&client_secret=s3cr3t-VALUE"
    static let seattleJSON = #"{"name":"Seattle","latitude":47.6097,"longitude":-122.3331,"timeZone":"America/Los_Angeles"}"#

    @Test func moonNowAsksForTheContextClockAndReturnsTheContract() async throws {
        let (result, http) = try await AerisHarness.resolve("moon:now", body: AerisFixture.sunMoon.body)
        let requests = http.requests
        #expect(requests.map(\.url.absoluteString) == [
            "\(Self.base)/sunmoon/47.6097,-122.3331?\(Self.credentials)&from=1428940800&limit=1",
        ])
        #expect(requests.first?.method == "GET")
        #expect(result.data.serialized() == """
            {"phase":"waning crescent","illumination":31,"age":24.02,"cycle":0.8134,\
            "rise":"2015-04-13T07:00:00Z","set":"2015-04-13T18:32:00Z","location":\(Self.seattleJSON)}
            """)
        #expect(result.fetchedAt == nil)
    }

    // `:` separates URN segments, so the colons of a time are percent-encoded.
    @Test(arguments: [
        ("moon:2026-12-04", 1_796_414_400),  // local noon in Seattle
        ("moon:2026-12-04T18%3A00%3A00Z", 1_796_407_200),
        ("moon:2026-12-04T10%3A00%3A00-08%3A00", 1_796_407_200),
        ("moon:2026-12-04T10%3a00", 1_796_407_200),  // no offset: the place's zone
        ("moon:NOW", 1_428_940_800),
    ])
    func moonAtADateAsksForThatInstant(_ urn: String, _ unix: Int) async throws {
        let (_, http) = try await AerisHarness.resolve(urn, body: AerisFixture.sunMoon.body)
        let urls = http.requests.map(\.url.absoluteString)
        #expect(urls == ["\(Self.base)/sunmoon/47.6097,-122.3331?\(Self.credentials)&from=\(unix)&limit=1"])
    }

    @Test func datesWithoutAZoneAreUTCWhenThePlaceHasNone() async throws {
        let source = try AerisHarness.source()
        let http = RecordingHTTPClient(.body(try AerisFixture.sunMoon.body))
        let place = Place(latitude: 47.6097, longitude: -122.3331)
        _ = try await source.resolve("moon:2026-12-04", context: SourceContextBuilder(now: AerisHarness.now, place: place, http: http).build())
        #expect(http.requests.first?.url.query?.contains("from=1796385600") == true)
    }

    @Test(arguments: ["tomorrow", "2026-13-01", "2026-02-30", "12/04/2026", "2026-12-04T25:00Z", "1796342400"])
    func invalidDatesSayWhatIsAllowed(_ text: String) async throws {
        let http = RecordingHTTPClient(.body(Data()))
        let source = try AerisHarness.source()
        let location = try source.location(for: "moon:\(text.replacingOccurrences(of: ":", with: "%3A"))")
        await #expect(throws: ConditionsError.invalidArguments(argument: "date", value: text, allowed: Timestamp.instantForms)) {
            try await source.resolve(location, context: SourceContextBuilder(now: AerisHarness.now, http: http).build())
        }
        #expect(http.requests.isEmpty)
    }

    @Test func phasesAskForTheNextCountFromNow() async throws {
        let (result, http) = try await AerisHarness.resolve("phases:3", body: AerisFixture.moonPhases.body)
        #expect(http.requests.map(\.url.absoluteString) == [
            "\(Self.base)/sunmoon/moonphases/47.6097,-122.3331?\(Self.credentials)&from=1428940800&limit=3",
        ])
        #expect(result.data.serialized() == """
            {"phases":[{"name":"new moon","date":"2015-04-18T18:59:19Z"},\
            {"name":"first quarter","date":"2015-04-25T23:56:49Z"},\
            {"name":"full moon","date":"2015-05-04T03:44:47Z"}]}
            """)
    }

    @Test(arguments: ["1", "100", "007"])
    func countsFromOneToAHundredAreAccepted(_ text: String) throws {
        #expect(try MoonData.phaseCount(text) == Int(text))
    }

    @Test(arguments: ["0", "101", "-1", "+5", "5.0", "five", "99999999999999999999", "٣"])
    func otherCountsSayWhatIsAllowed(_ text: String) async throws {
        let http = RecordingHTTPClient(.body(Data()))
        let source = try AerisHarness.source()
        let location = try source.location(for: "phases:\(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text)")
        await #expect(throws: ConditionsError.invalidArguments(argument: "count", value: text, allowed: "a whole number from 1 to 100")) {
            try await source.resolve(location, context: SourceContextBuilder(now: AerisHarness.now, http: http).build())
        }
        #expect(http.requests.isEmpty)
    }

    @Test func optionsLocationOverridesTheConfigPlace() async throws {
        let source = try AerisHarness.source(AerisHarness.credentials + [
            ("location", ["name": "Miami", "latitude": 25.7877, "longitude": -80.2241]),
        ])
        let (result, http) = try await AerisHarness.resolve("moon:now", body: AerisFixture.sunMoon.body, source: source)
        #expect(http.requests.first?.url.path == "/sunmoon/25.7877,-80.2241")
        #expect(result.data["location"] == ["name": "Miami", "latitude": 25.7877, "longitude": -80.2241])
    }

    @Test func baseURLKeepsItsPathPrefix() async throws {
        let source = try AerisHarness.source(AerisHarness.credentials + [("baseURL", "http://127.0.0.1:8080/aeris/")])
        let (_, http) = try await AerisHarness.resolve("phases:1", body: AerisFixture.moonPhases.body, source: source)
        #expect(http.requests.first?.url.absoluteString
            == "http://127.0.0.1:8080/aeris/sunmoon/moonphases/47.6097,-122.3331?\(Self.credentials)&from=1428940800&limit=1")
    }

    @Test func credentialsAreQueryEncoded() async throws {
        let source = try AerisHarness.source([("clientId", "id with space"), ("clientSecret", "a+b&c=d/é")])
        let (_, http) = try await AerisHarness.resolve("moon:now", body: AerisFixture.sunMoon.body, source: source)
        let url = try #require(http.requests.first?.url)
        #expect(url.query == "client_id=id%20with%20space&client_secret=a%2Bb%26c%3Dd%2F%C3%A9&from=1428940800&limit=1")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "client_secret" }?.value == "a+b&c=d/é")
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (47.6097, "47.6097"), (-122.3331, "-122.3331"),
        (0.00001, "0.00001"), (1e-7, "0"), (-90.0, "-90"), (179.9999999, "180"),
    ])
    func coordinatesAreWrittenWithSixDecimalsAtMost(_ degrees: Double, _ text: String) {
        #expect(AerisEndpoint.coordinate(degrees) == text)
    }

    @Test func examplesMatchTheRoutes() throws {
        let source = try AerisHarness.source()
        #expect(source.examples == ["moon:now", "moon:2026-12-04", "phases:5"])
        let patterns = try source.examples.map { try source.location(for: $0).pattern.text }
        #expect(patterns == ["moon:now", "moon:{date}", "phases:{count}"])
        #expect(AerisSource.moduleName == "Aeris")
    }
}
