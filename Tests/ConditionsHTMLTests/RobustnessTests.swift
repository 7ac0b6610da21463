import ConditionsHTML
import Foundation
import Testing

@Suite struct RobustnessTests {
    @Test func brokenMarkupStillParses() throws {
        let html = """
        <html><body>
        <div id="PassPageBoxPanel"><table><tr><td><span id="PassInfoConditions">Bare <b>and <i>wet</span>
        <span id="PassInfoWeather">Rain</p></div></td>
        <div><span id=PassInfoLastUpdate>Monday 6:00 PM
        """
        let page = try HTMLDocument(data: utf8(html))
        #expect(try page.text("//span[@id='PassInfoConditions']") == "Bare and wet")
        #expect(try page.text("//span[@id='PassInfoWeather']") == "Rain")
        #expect(try page.text("//span[@id='PassInfoLastUpdate']") == "Monday 6:00 PM")
    }

    @Test func fragmentWithoutHtmlElementGetsARoot() throws {
        let page = try HTMLDocument(data: utf8("just text, <b>bold</b>"))
        let root = try #require(page.root)
        #expect(root.name == "html")
        #expect(root.text == "just text, bold")
    }

    @Test func binaryGarbageStillParses() throws {
        // A fixed linear congruential sequence: arbitrary bytes, identical on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20 {
            let bytes = (0..<2048).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            let page = try HTMLDocument(data: Data(bytes))
            let everything = try page.nodes("//node()")
            #expect(!everything.isEmpty)
            _ = everything.map { ($0.name, $0.text, $0.children.count, $0.attribute("id")) }
        }
    }

    @Test func everyKindOfNodeIsSafeToRead() throws {
        let page = try HTMLDocument(data: try fixture("pass-page"))
        for node in try page.nodes("/ | //node() | //@*") {
            _ = (node.name, node.text, node.children, node.attribute("id"), try node.nodes("node()"))
        }
        let document = try #require(try page.first("/"))
        #expect(document.children.map(\.name) == ["html"])
        let comment = try #require(try page.first("//comment()"))
        #expect(comment.text == "updated hourly")
        #expect(comment.children.isEmpty)
        let id = try #require(try page.first("//span/@id"))
        #expect(id.name == "id")
        #expect(id.text == "PassInfoTemperature")
        #expect(id.attribute("id") == nil)
    }

    @Test func emptyPageIsAClearError() {
        #expect(throws: HTMLError.unparsable(reason: "the page is empty")) {
            try HTMLDocument(data: Data())
        }
    }

    @Test func pagesWithoutElementsHaveNoRoot() throws {
        for body in ["  \n\t", "<!-- maintenance -->", "\u{1}\u{2}"] {
            let page = try HTMLDocument(data: utf8(body))
            #expect(page.root == nil)
            #expect(try page.text("//span[@id='PassInfoConditions']") == nil)
        }
    }

    @Test func invalidXPathThrowsNamingTheExpression() throws {
        let page = try HTMLDocument(data: try fixture("minimal-pass-page"))
        let error = try #require(throws: HTMLError.self) { try page.nodes("//span[@id='x'") }
        guard case .invalidXPath(let expression, let reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(expression == "//span[@id='x'")
        #expect(!reason.isEmpty)
        #expect(error.description.contains("//span[@id='x'"))

        #expect(throws: HTMLError.self) { try page.text("//span[") }
        #expect(throws: HTMLError.self) { try page.first("no-such-function(//span)") }
        #expect(throws: HTMLError.self) { try page.root?.nodes("..//[") }
        #expect(throws: HTMLError.self) { try page.nodes("") }
    }

    @Test func nonNodeResultsAreRejected() throws {
        let page = try HTMLDocument(data: try fixture("minimal-pass-page"))
        #expect(throws: HTMLError.invalidXPath(expression: "count(//span)", reason: "it yields a number, not nodes")) {
            try page.nodes("count(//span)")
        }
        #expect(throws: HTMLError.self) { try page.text("string(//span)") }
    }

    @Test func nodesOutliveTheirDocumentVariable() throws {
        func spans() throws -> [HTMLNode] {
            try HTMLDocument(data: try fixture("minimal-pass-page")).nodes("//span")
        }
        let nodes = try spans()
        #expect(nodes.map(\.text).last == "Saturday November 5, 1955 9:41 AM")
        #expect(try nodes.first?.text("..") == "No restrictions")
    }
}
