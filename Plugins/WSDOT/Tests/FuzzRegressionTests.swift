import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import WSDOT

/// Inputs the fuzz targets (Fuzz/wsdot-html.swift, Fuzz/wsdot-api.swift) found crashing,
/// kept so they never crash again.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    static let snoqualmiePage = "https://wsdot.com/travel/real-time/mountainpasses/snoqualmie"
    static let feedURL = "https://www.wsdot.wa.gov/Traffic/api/MountainPassConditions/MountainPassConditionsREST.svc/GetMountainPassConditionsAsJson?AccessCode=code"

    @Test("a page's elevation too large for an Int falls back to the catalog's (found by wsdot-html)")
    func hugeElevationOnAPage() async throws {
        // The fuzzer's input: a mangled page whose elevation is a 78-digit number of feet.
        let http = RecordingHTTPClient([Self.snoqualmiePage: try .htmlFixture("fuzz-huge-elevation.html")])
        let source = try makeSource()
        if let data = try? await resolve("pass:snoqualmie", with: source, http: http) {
            #expect(data["elevationFt"] == .int(3022))
        }
        // The same on a real page.
        var page = String(decoding: try fixture("snoqualmie-winter.html"), as: UTF8.self)
        page = page.replacingOccurrences(of: "3022", with: String(repeating: "9", count: 40))
        let edited = RecordingHTTPClient([Self.snoqualmiePage: .body(Data(page.utf8), contentType: "text/html")])
        let data = try await resolve("pass:snoqualmie", with: source, http: edited)
        #expect(data["elevationFt"] == .int(3022))
    }

    @Test("a feed elevation of 1e300 or -1e300 falls back to the catalog's", arguments: ["1e300", "-1e300", "9223372036854775808"])
    func hugeElevationInTheFeed(value: String) async throws {
        var feed = String(decoding: try fixture("api-winter.json"), as: UTF8.self)
        feed = feed.replacingOccurrences(of: #""ElevationInFeet":3022"#, with: #""ElevationInFeet":\#(value)"#)
        let http = RecordingHTTPClient([Self.feedURL: .body(Data(feed.utf8), contentType: "application/json")])
        let source = try makeSource(.json(#"{"mode": "api", "accessCode": "code"}"#))
        let data = try await resolve("pass:snoqualmie", with: source, http: http)
        #expect(data["elevationFt"] == .int(3022))
    }
}
