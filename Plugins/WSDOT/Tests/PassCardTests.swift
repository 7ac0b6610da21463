import ConditionsKitTesting
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Testing
@testable import ConditionsPass
@testable import WSDOT

/// The dashboard's view of a pass (`PassPresentation.card`): built from the data contract,
/// positioned from the catalog, degrading on data that is not a pass.
@Suite struct PassCardTests {
    let presentation = PassPresentation.washington

    func context(_ urn: String = "pass:stevens") -> PresentationContext {
        PresentationContext(urn: urn, style: .plain, placeName: nil) { date, style in
            "\(style == .date ? "day" : "time") \(Timestamp.string(from: date))"
        }
    }

    static let stevens: JSONValue = [
        "id": "stevens", "name": "Stevens Pass US 2", "status": "closed", "conditions": "Snow.", "weather": "Heavy snow",
        "temperatureF": 24.5, "elevationFt": 4061,
        "restrictions": [["direction": "Eastbound", "text": "Pass Closed", "status": "closed"],
                         ["direction": "Westbound", "text": "Traction tires required", "status": "restricted"]],
        "updated": "2025-12-15T07:35:00Z", "reportAge": 300, "url": "https://wsdot.com/travel/real-time/mountainpasses/stevens",
        "travelAdvisory": true,
    ]

    @Test func aPassCardHasItsStatusDirectionsFactsLinkAndPlace() throws {
        let card = presentation.card(Self.stevens, context: context())
        #expect(card.title == "Stevens Pass US 2")
        #expect(card.status == .init("closed", tone: .bad))
        #expect(card.rows == [
            .init("Eastbound", "Pass Closed", tone: .bad), .init("Westbound", "Traction tires required", tone: .caution),
            .init("Conditions", "Snow."), .init("Weather", "Heavy snow"), .init("Temperature", "24.5°F"), .init("Elevation", "4,061 ft"),
        ])
        #expect(card.image == nil, "no cameras in the data")
        #expect(card.updated == Timestamp.parse("2025-12-15T07:35:00Z"))
        #expect(card.staleNote == nil, "five minutes old is news")
        #expect(card.link?.url.absoluteString == "https://wsdot.com/travel/real-time/mountainpasses/stevens")
        #expect(card.coordinate == .init(latitude: Place.stevens.latitude, longitude: Place.stevens.longitude), "WSDOT's feed coordinates, from the catalog")
    }

    @Test func anOffSeasonReportIsMarkedStale() {
        var data = Self.stevens.objectValue!
        data["reportAge"] = .int(86_400 * 200)
        let card = presentation.card(.object(data), context: context())
        #expect(card.staleNote == "report from day 2025-12-15T07:35:00Z, 6 months old")
    }

    @Test func passAllIsACardOfPasses() {
        let card = presentation.card(["passes": [Self.stevens, Self.stevens]], context: context("pass:all"))
        #expect(card.title == "Mountain passes")
        #expect(card.parts.count == 2)
        #expect(card.parts[0].status?.word == "closed")
    }

    @Test func everyCataloguedPassHasAPlaceInWashington() {
        for pass in PassCatalog.all {
            guard let coordinate = pass.coordinate else {
                Issue.record("\(pass.slug) has no coordinate")
                continue
            }
            #expect((45.5...49.0).contains(coordinate.latitude) && (-124.8 ... -116.9).contains(coordinate.longitude), "\(pass.slug)")
        }
    }

    @Test func dataThatIsNotAPassReadsAsItsText() {
        let card = presentation.card(["height": 7], context: context("pass:odd"))
        #expect(card.title == "pass:odd")
        #expect(card.status == nil)
        #expect(card.lines == ["  height  7"])
    }
}
