import ConditionsHTML
import Foundation
import Testing

/// The seed's own WSDOT test page: Passengr's minimal fixture of the old layout
/// (cocoascientist/Passengr PassengrTests/test.html at ae3850901c81, 2015-12-09; hand-made, dated "1955").
@Test func seedMinimalPassPage() throws {
    let page = try HTMLDocument(data: try fixture("minimal-pass-page"))
    #expect(try page.text("//span[@id='PassInfoRestrictionsOne']") == "No restrictions")
    #expect(try page.text("//span[@id='PassInfoRestrictionsTwo']") == "No restrictions")
    #expect(try page.text("//span[@id='PassInfoConditions']") == "The roadway is bare and dry.")
    #expect(try page.text("//span[@id='PassInfoLastUpdate']") == "Saturday November 5, 1955 9:41 AM")
    #expect(try page.text("//span[@id='PassInfoTemperature']") == nil)
    #expect(try page.nodes("//span").count == 4)
}
