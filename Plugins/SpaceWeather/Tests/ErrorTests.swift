import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Testing
@testable import SpaceWeather

/// Bad input is a one-line `ConditionsError` naming the problem and where.
@Suite struct ErrorTests {
    @Test func htmlWith200IsABadResponse() async throws {
        for (path, what) in [(Path.kp, "the planetary K-index"), (Path.forecast, "the planetary K-index forecast")] {
            // A source each: the instance keeps the document that did come for the TTL.
            let source = try makeSource()
            let error = try #require(await source.error(resolving: "aurora:now", context: context(try swpc([path: .htmlPage]))) as? ConditionsError)
            #expect(error.kind == .badResponse)
            #expect(error.message == "https://services.swpc.noaa.gov\(path): NOAA SWPC answered HTTP 200 with an HTML page, not JSON, for \(what)")
        }
        let ovation = try #require(await makeSource().error(resolving: "aurora:tromso", context: context(try swpc([Path.ovation: .htmlPage]))) as? ConditionsError)
        #expect(ovation.message.hasSuffix("NOAA SWPC answered HTTP 200 with an HTML page, not JSON, for the OVATION aurora forecast"))
    }

    @Test func anEmptyArrayIsNotFound() async throws {
        let error = try #require(await makeSource().error(resolving: "aurora:now", context: context(try swpc([Path.forecast: .json("[]")]))) as? ConditionsError)
        #expect(error.kind == .notFound)
        #expect(error.message == "https://services.swpc.noaa.gov\(Path.forecast): the planetary K-index forecast is an empty array (SWPC lists no periods)")
    }

    @Test func notJSON() async throws {
        let error = try #require(await makeSource().error(resolving: "aurora:now", context: context(try swpc([Path.kp: .text("Kp 2.33", contentType: "text/plain")]))) as? ConditionsError)
        #expect(error.kind == .badResponse)
        #expect(error.message.hasPrefix("https://services.swpc.noaa.gov\(Path.kp): the planetary K-index is not JSON ("))
        #expect(!error.message.contains("\n"))
    }

    @Test func anHTTPErrorNamesTheURL() async throws {
        let error = try #require(await makeSource().error(resolving: "aurora:now", context: context(try swpc([Path.kp: .status(503)]))))
        #expect(ConditionsError.report(error).message.contains("noaa-planetary-k-index.json"))
    }

    /// A bad place is refused before any request.
    @Test func placesAreCheckedFirst() async throws {
        let http = try swpc()
        let source = try makeSource()
        let unknown = try #require(await source.error(resolving: "aurora:trmoso", context: context(http)) as? ConditionsError)
        #expect(unknown.kind == .notFound)
        #expect(unknown.suggestions.first == "aurora:tromso")
        let far = try #require(await source.error(resolving: "aurora:91,0", context: context(http)) as? ConditionsError)
        #expect(far.kind == .invalidArguments)
        #expect(http.requests.isEmpty)
    }

    @Test func options() throws {
        #expect(throws: ConditionsError.self) { try makeSource(["baseURL": "ftp://example.com"]) }
        #expect(throws: ConditionsError.self) { try makeSource(["center": "NWAC"]) }
        let source = try makeSource(["baseURL": "https://mirror.example/swpc"])
        #expect(source.examples == ["aurora:now", "aurora:stevens"])
    }
}
