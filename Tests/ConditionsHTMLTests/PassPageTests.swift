import ConditionsHTML
import Foundation
import Testing

/// A realistic WSDOT-style page: scripts and styles holding fake markup, nav, tables,
/// nested tags, entities and odd whitespace.
@Suite struct PassPageTests {
    let page: HTMLDocument

    init() throws {
        page = try HTMLDocument(data: try fixture("pass-page"), url: "https://wsdot.com/traffic/passes/snoqualmie/")
    }

    @Test func nestedElementTextIsKept() throws {
        #expect(try page.text("//span[@id='PassInfoRestrictionsOne']") == "Chains required over 10,000 GVW")
    }

    @Test func entitiesDecodeAndWhitespaceCollapses() throws {
        #expect(try page.text("//span[@id='PassInfoConditions']")
            == "Compact snow & ice on the roadway. Expect delays \u{2013} use caution near the Café.")
        #expect(try page.text("//span[@id='PassInfoRestrictionsTwo']")
            == "Traction tires advised, oversize vehicles prohibited.")
        #expect(try page.text("//span[@id='PassInfoTemperature']") == "28°F")
        #expect(try page.text("//h2") == "Snoqualmie Pass \u{2013} I-90")
    }

    @Test func commentsAreNotText() throws {
        #expect(try page.text("//span[@id='PassInfoWeather']") == "Snow showers, heavy at times")
    }

    @Test func scriptStyleAndNoscriptMarkupIsNotParsedAsElements() throws {
        // The only real spans are the ones in the body; fake ones inside <script>/<style> stay text.
        let restrictions = try page.nodes("//span[@id='PassInfoRestrictionsOne']")
        #expect(restrictions.count == 1)
        #expect(try page.nodes("//span[@id='PassInfoLastUpdate']").map(\.text) == ["Saturday November 5, 1955 9:41 AM"])
        #expect(try page.nodes("//span[@id='PassInfoConditions']").count == 1)
    }

    @Test func noscriptContentIsNotPartOfTheTree() throws {
        // As in a browser with scripting on: the fallback's span must not shadow the real one.
        #expect(try page.nodes("//noscript//span").isEmpty)
        #expect(try page.nodes("//noscript").count == 1)
        #expect(try page.nodes("//span[@id='PassInfoWeather']").count == 1)
    }

    @Test func hiddenContentNeverAppearsInText() throws {
        let body = try #require(try page.text("//body"))
        #expect(!body.contains("template"))
        #expect(!body.contains("analytics"))
        #expect(!body.contains("live weather"))
        #expect(!body.contains("color: #c00"))
        #expect(body.hasPrefix("Traffic Mountain Passes Snoqualmie Snoqualmie Pass"))
        #expect(body.hasSuffix("Washington State Department of Transportation"))
        let whole = try #require(page.root).text
        #expect(whole.hasPrefix("Snoqualmie Pass | WSDOT Traffic"))
    }

    @Test func blockElementsSeparateWords() throws {
        #expect(try page.text("//tr[th='Elevation:']") == "Elevation: 3022 ft")
        #expect(try page.text("//nav") == "Traffic Mountain Passes Snoqualmie")
    }

    @Test func attributes() throws {
        let link = try #require(try page.first("//a[@class='current']"))
        #expect(link.name == "a")
        #expect(link.attribute("href") == "/traffic/passes/snoqualmie/")
        #expect(link.attribute("HREF") == "/traffic/passes/snoqualmie/")
        #expect(link.attribute("title") == nil)
        let checkbox = try #require(try page.first("//input[@id='Subscribe']"))
        // libxml2 follows HTML 4 and gives a valueless attribute its own name as value.
        #expect(checkbox.attribute("disabled") == "disabled")
        #expect(try page.nodes("//a/@href").map(\.text) == ["/traffic/", "/traffic/passes/", "/traffic/passes/snoqualmie/"])
    }

    @Test func childrenAreElementsInOrder() throws {
        let list = try #require(try page.first("//nav/ul"))
        #expect(list.children.map(\.name) == ["li", "li", "li"])
        #expect(list.children.map(\.text) == ["Traffic", "Mountain Passes", "Snoqualmie"])
        let span = try #require(try page.first("//span[@id='PassInfoRestrictionsOne']"))
        #expect(span.children.map(\.name) == ["b"])
    }

    @Test func xpathRelativeToANode() throws {
        let panel = try #require(try page.first("//div[@id='PassPageBoxPanel']"))
        #expect(try panel.text(".//b") == "required")
        #expect(try panel.nodes(".//span").count == 7)
        #expect(try panel.nodes("span").isEmpty)
        let row = try #require(try panel.first(".//tr[2]"))
        #expect(try row.text("td") == "3022 ft")
        // Absolute paths still search the whole document.
        #expect(try row.nodes("//li").count == 3)
    }

    @Test func textNodesCanBeSelected() throws {
        #expect(try page.nodes("//span[@id='PassInfoRestrictionsOne']/text()").map(\.text) == ["Chains", "over 10,000 GVW"])
    }

    @Test func missingNodesAreNil() throws {
        #expect(try page.text("//span[@id='PassInfoNothing']") == nil)
        #expect(try page.first("//table[@id='nope']") == nil)
        #expect(try page.nodes("//blink").isEmpty)
        let span = try #require(try page.first("//span[@id='PassInfoTemperature']"))
        #expect(try span.first(".//b") == nil)
    }
}
