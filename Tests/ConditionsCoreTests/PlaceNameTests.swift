import ConditionsKit
import Testing
@testable import ConditionsCore

/// The names `sources.json` may give places (`Places.isValidName`, the host's rule).
@Suite struct PlaceNameTests {
    @Test func oneURNSegmentAsWritten() {
        #expect(Places.isValidName("mt-baker") && Places.isValidName("A.b_9") && Places.isValidName(String(repeating: "a", count: 64)))
        for name in ["", "-x", ".x", "a b", "a:b", "a,b", "é", String(repeating: "a", count: 65), "a/b", "a%20"] {
            #expect(!Places.isValidName(name), "\(name)")
        }
    }
}
