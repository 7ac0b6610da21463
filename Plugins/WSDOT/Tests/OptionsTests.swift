import ConditionsJSON
import ConditionsKit
import Foundation
import Testing
@testable import WSDOT

@Suite("Options")
struct OptionsTests {
    @Test("the access code is declared secret, so the host masks it even when written literally")
    func accessCodeIsASecretOption() {
        #expect(WSDOTPassSource.secretOptions == ["accessCode"])
    }

    @Test("defaults: every pass served; examples are the two busiest passes")
    func defaults() throws {
        let source = try makeSource()
        #expect(source.examples == ["pass:snoqualmie", "pass:stevens", "pass:all", "snowfall:snoqualmie", "snowfall:snoqualmie:2023"])
        #expect(source.routes.map(\.text) == ["pass:{name}", "pass:all", "snowfall:{pass}", "snowfall:{pass}:{season}"])
        #expect(WSDOTPassSource.moduleName == "WSDOT")
    }

    @Test("examples follow the configured passes")
    func examples() throws {
        let source = try makeSource(.json(#"{"passes": ["white", "chinook", "snoqualmie"]}"#))
        #expect(source.examples == ["pass:white", "pass:chinook", "pass:all", "snowfall:snoqualmie", "snowfall:snoqualmie:2023"])
    }

    @Test("configuration errors name the option's path", arguments: [
        (#"{"mode": "xml"}"#, #"sources.wsdot.options.mode: "xml" is not one of "html", "api", "feed""#),
        (#"{"mode": "api"}"#, #"sources.wsdot.options.accessCode: api mode needs WSDOT's access code (for example "${WSDOT_ACCESS_CODE}"); it is missing or empty"#),
        (#"{"mode": "api", "accessCode": "  "}"#, #"sources.wsdot.options.accessCode: api mode needs WSDOT's access code (for example "${WSDOT_ACCESS_CODE}"); it is missing or empty"#),
        (#"{"passes": ["snoqualmie", "stevns"]}"#, #"sources.wsdot.options.passes[1]: unknown pass "stevns"; did you mean "stevens"?"#),
        (#"{"passes": ["snoqualmie", "Snoqualmie"]}"#, #"sources.wsdot.options.passes[1]: "snoqualmie" is listed twice"#),
        (#"{"passes": []}"#, "sources.wsdot.options.passes: the list is empty; leave it out to serve every pass"),
        (#"{"passes": "snoqualmie"}"#, "sources.wsdot.options.passes: expected an array of strings, found string"),
        (#"{"pages": {"snowqualmie": "https://example.org/"}}"#, #"sources.wsdot.options.pages.snowqualmie: unknown pass "snowqualmie"; did you mean "snoqualmie"?"#),
        (#"{"pages": {"white": "ftp://example.org/white"}}"#, #"sources.wsdot.options.pages.white: "ftp://example.org/white" is not an absolute http or https URL"#),
        (#"{"pages": {"white": 5}}"#, "sources.wsdot.options.pages.white: expected a URL string, found number"),
        (#"{"baseURL": "wsdot.com/passes"}"#, #"sources.wsdot.options.baseURL: "wsdot.com/passes" is not an absolute http or https URL"#),
        (#"{"fields": {"condition": "//p"}}"#, #"unknown option sources.wsdot.options.fields.condition (did you mean "conditions"?); known: conditions, elevation, restrictionOne, restrictionTwo, temperature, updated, weather"#),
        (#"{"fields": {"updated": ""}}"#, "sources.wsdot.options.fields.updated: the XPath is empty"),
        (#"{"timeZone": "Pacific"}"#, #"sources.wsdot.options.timeZone: unknown time zone "Pacific" (use an IANA name such as America/Los_Angeles)"#),
        (#"{"acessCode": "x"}"#, #"unknown option sources.wsdot.options.acessCode (did you mean "accessCode"?); known: accessCode, baseURL, fields, layout, mode, pages, passes, render, snowfallURL, timeZone"#),
    ])
    func errors(options: String, message: String) throws {
        let error = try #require(configurationError(.json(options)))
        #expect(error.kind == .configuration)
        #expect(error.message == message)
    }

    @Test("an XPath that does not compile or does not select nodes fails when the config loads", arguments: [
        "//span[@id='PassInfoConditions'", "string(//span)", "count(//span)",
    ])
    func badXPath(xpath: String) throws {
        let error = try #require(configurationError(.json(#"{"fields": {"conditions": "\#(xpath)"}}"#)))
        #expect(error.kind == .configuration)
        #expect(error.message.hasPrefix("sources.wsdot.options.fields.conditions: invalid XPath expression '\(xpath)'"))
    }

    @Test("the access code never appears in a configuration error")
    func accessCodeNotEchoed() throws {
        let error = try #require(configurationError(.json(#"{"mode": "api", "accessCode": "s3cr3t", "baseURL": "nope"}"#)))
        #expect(!error.message.contains("s3cr3t"))
    }

    @Test("pass names accept any case, spaces or underscores, and WSDOT ids")
    func passNames() throws {
        #expect(PassCatalog.pass(named: "Mt_Baker")?.slug == "mt-baker")
        #expect(PassCatalog.pass(named: " loup  loup ")?.slug == "loup-loup")
        #expect(PassCatalog.pass(named: "CRYSTAL-greenwater")?.slug == "crystal-greenwater")
        #expect(PassCatalog.pass(named: "11")?.slug == "snoqualmie")
        #expect(PassCatalog.pass(named: "4") == nil)
        #expect(PassCatalog.pass(named: "rainy") == nil)
    }

    @Test("the catalog holds the sixteen passes with unique slugs and ids, north/south where WSDOT says so")
    func catalog() {
        #expect(PassCatalog.all.count == 16)
        #expect(Set(PassCatalog.all.map(\.id)) == Set([1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]))
        #expect(Set(PassCatalog.slugs).count == 16)
        #expect(PassCatalog.pass(named: "tiger-mountain")?.elevationFt == 1377)
        let northSouth = PassCatalog.all.filter { $0.directions.first == "Northbound" }.map(\.slug)
        #expect(northSouth == ["blewett", "cayuse", "satus", "disautel"])
    }
}
