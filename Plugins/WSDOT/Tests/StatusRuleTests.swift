import Testing
@testable import ConditionsPass
@testable import WSDOT

@Suite("Status rule")
struct StatusRuleTests {
    @Test("a direction's status from its text, whatever the case and spacing", arguments: [
        ("No restrictions", PassStatus.open),
        ("NO   RESTRICTIONS", .open),
        ("  no\trestrictions.  ", .open),
        ("No Restriction", .open),
        ("Pass Closed", .closed),
        ("PASS\u{00A0}CLOSED", .closed),
        ("pass   closed due to collision", .closed),
        ("The pass is closed for avalanche control.", .closed),
        ("Closed for the season", .closed),
        ("Pass closed. No restrictions west of North Bend.", .closed),
        ("Traction Tires Required, Chains Required On Vehicles Over 10,000 GVW", .restricted),
        ("Traction tires advised, oversize vehicles prohibited.", .restricted),
        ("Road work: expect single-lane closures near Hyak", .restricted),
    ])
    func direction(text: String, expected: PassStatus) {
        #expect(PassStatus(restriction: text) == expected)
    }

    @Test("a pass is closed if any direction is, open if all are, else restricted", arguments: [
        ([PassStatus.open, .open], PassStatus.open),
        ([.open, .restricted], .restricted),
        ([.restricted, .restricted], .restricted),
        ([.open, .closed], .closed),
        ([.restricted, .closed], .closed),
        ([.open], .open),
        ([.closed], .closed),
        ([], .unknown),
    ])
    func pass(directions: [PassStatus], expected: PassStatus) {
        #expect(PassStatus(directions: directions) == expected)
    }
}
