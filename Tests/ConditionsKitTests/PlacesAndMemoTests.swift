import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Foundation
import Synchronization
import Testing

@Suite struct PlacesAndMemoTests {
    @Test func placesAreFoundInAnyCaseAndHereIsTheLocation() {
        let seattle = Place(name: "Seattle", latitude: 47.6, longitude: -122.3)
        let places = Places(location: seattle, named: [("Stevens", Place(latitude: 47.7, longitude: -121.1)), ("stevens", Place(latitude: 0, longitude: 0)),
                                                       ("here", Place(latitude: 1, longitude: 1))])
        #expect(places.names == ["Stevens"], "a repeated name and here are never kept")
        #expect(places.place(named: "STEVENS")?.latitude == 47.7)
        #expect(places.place(named: "Here") == seattle)
        #expect(Places.isValidName("mt-baker") && Places.isValidName("A.b_9") && Places.isValidName(String(repeating: "a", count: 64)))
        for name in ["", "-x", ".x", "a b", "a:b", "a,b", "é", String(repeating: "a", count: 65), "a/b", "a%20"] {
            #expect(!Places.isValidName(name), "\(name)")
        }
    }

    @Test func theMemoSharesOneMakeAndKeepsItForMaxAge() async throws {
        let memo = MemoryMemo()
        let made = Mutex(0)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let make: @Sendable () async throws -> JSONValue = {
            try await Task.sleep(for: .milliseconds(20))
            return .int(made.withLock { $0 += 1; return $0 })
        }
        async let a = memo.value(for: "k", maxAge: 60, now: now, make: make)
        async let b = memo.value(for: "k", maxAge: 60, now: now, make: make)
        #expect(try await [a, b] == [1, 1])
        #expect(try await memo.value(for: "k", maxAge: 60, now: now.addingTimeInterval(59), make: make) == 1)
        #expect(try await memo.value(for: "k", maxAge: 60, now: now.addingTimeInterval(60), make: make) == 2)
        #expect(try await memo.value(for: "other", maxAge: 60, now: now, make: make) == 3)
        // A failure is not kept.
        await #expect(throws: ConditionsError.self) {
            try await memo.value(for: "f", maxAge: 60, now: now) { throw ConditionsError.upstream("down") }
        }
        #expect(try await memo.value(for: "f", maxAge: 60, now: now, make: make) == 4)
    }

    @Test func theMemoKeepsAtMostItsCapacity() async throws {
        let memo = MemoryMemo(capacity: 2)
        let now = Date(timeIntervalSince1970: 1_000_000)
        _ = try await memo.value(for: "a", maxAge: 60, now: now) { 1 }
        _ = try await memo.value(for: "b", maxAge: 60, now: now.addingTimeInterval(1)) { 2 }
        _ = try await memo.value(for: "c", maxAge: 60, now: now.addingTimeInterval(2)) { 3 }
        // The oldest ("a") went.
        #expect(try await memo.value(for: "b", maxAge: 60, now: now.addingTimeInterval(3)) { 20 } == 2)
        #expect(try await memo.value(for: "a", maxAge: 60, now: now.addingTimeInterval(3)) { 10 } == 10)
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
