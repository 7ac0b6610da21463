import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Foundation
import Synchronization
import Testing

@Suite struct PlacesAndFreshnessTests {
    @Test func placesAreFoundInAnyCaseAndHereIsTheLocation() {
        let seattle = Place(name: "Seattle", latitude: 47.6, longitude: -122.3)
        let places = Places(location: seattle, named: [("Stevens", Place(latitude: 47.7, longitude: -121.1)), ("stevens", Place(latitude: 0, longitude: 0)),
                                                       ("here", Place(latitude: 1, longitude: 1))])
        #expect(places.names == ["Stevens"], "a repeated name and here are never kept")
        #expect(places.place(named: "STEVENS")?.latitude == 47.7)
        #expect(places.place(named: "Here") == seattle)
    }

    @Test func freshnessFromCacheControl() {
        func freshness(_ headers: [String: String]) -> Double? {
            HTTPResponse(status: 200, headers: headers, body: Data(), url: URL(string: "http://x/")!).freshness
        }
        #expect(freshness([:]) == nil)
        #expect(freshness(["cache-control": "public, max-age=300"]) == 300)
        #expect(freshness(["cache-control": "public, max-age=300", "age": "100"]) == 200)
        #expect(freshness(["cache-control": "max-age=\"60\""]) == 60)
        #expect(freshness(["cache-control": "max-age=30", "age": "45"]) == 0)
        #expect(freshness(["cache-control": "public, s-maxage=600"]) == nil)
        #expect(freshness(["cache-control": "no-store"]) == 0)
        #expect(freshness(["cache-control": "max-age=300, no-cache"]) == 0)
        #expect(freshness(["cache-control": "max-age=-5"]) == nil)
        #expect(freshness(["cache-control": "max-age=" + String(repeating: "9", count: 400)]) == 9_999_999_999)
    }
}
