import Testing
@testable import ConditionsKit

/// Compass semantics: specificity, segment counts, decoding, case, ambiguity and "did you mean".
@Suite struct RouterTests {
    private func router(_ patterns: [(RoutePattern, [String])]) throws -> Router<String> {
        var router = Router<String>()
        for (pattern, examples) in patterns { try router.register(pattern, pattern.text, examples: examples) }
        return router
    }

    @Test(arguments: [false, true])
    func literalBeatsPlaceholderWhateverTheOrder(literalFirst: Bool) throws {
        var router = Router<String>()
        let patterns: [RoutePattern] = literalFirst ? ["moon:now", "moon:{when}"] : ["moon:{when}", "moon:now"]
        for pattern in patterns { try router.register(pattern, pattern.text) }

        let now = try router.match(URN("moon:now"))
        #expect(now.handler == "moon:now")
        #expect(now.location.pattern.text == "moon:now")
        #expect(now.location.arguments.isEmpty)

        let other = try router.match(URN("moon:2026-12-04T00%3A00Z"))
        #expect(other.handler == "moon:{when}")
        #expect(other.location.arguments == ["when": "2026-12-04T00:00Z"])
    }

    @Test func segmentCountsMustMatch() throws {
        let router = try router([("pass:{name}", [])])
        #expect(try router.match(URN("pass:a")).location.arguments == ["name": "a"])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("pass:a:b")) }
        #expect(error?.kind == .notFound)
        #expect(error?.message.contains("pass:{name}") == true)
        #expect(throws: ConditionsError.self) { try router.match(URN("pass")) }
    }

    @Test func argumentsArePercentDecoded() throws {
        let router = try router([("pass:{name}", [])])
        #expect(try router.match(URN("pass:white%20pass")).location.argument("name") == "white pass")
        #expect(try router.match(URN("pass:caf%C3%A9")).location.argument("name") == "café")
        #expect(try router.match(URN("pass:caf%c3%a9")).location.argument("name") == "café")
        #expect(try router.match(URN("pass:a%3Ab")).location.argument("name") == "a:b")
        // The URN keeps its text as given; only arguments are decoded.
        #expect(try router.match(URN("pass:white%20pass")).location.urn.rawValue == "pass:white%20pass")
    }

    @Test func literalsCompareCaseInsensitively() throws {
        let router = try router([("moon:now", []), ("Phases:{count}", [])])
        #expect(try router.match(URN("MOON:Now")).handler == "moon:now")
        let phases = try router.match(URN("phases:5"))
        #expect(phases.handler == "Phases:{count}")
        #expect(phases.location.arguments == ["count": "5"])
    }

    @Test func placeholderArgumentsKeepTheirCase() throws {
        let router = try router([("pass:{name}", [])])
        #expect(try router.match(URN("pass:SnoQualmie")).location.argument("name") == "SnoQualmie")
    }

    @Test(arguments: [
        ("moon:{a}", "moon:{b}"),
        ("a:{x}:c", "a:b:{y}"),
        ("pass:{name}", "pass:{name}"),
        ("moon:now", "MOON:NOW"),
        ("{scheme}:{name}", "{s}:{n}"),
    ] as [(String, String)])
    func ambiguousPatternsAreRefused(first: String, second: String) throws {
        var router = Router<String>()
        try router.register(RoutePattern(first), "first")
        let error = #expect(throws: ConditionsError.self) { try router.register(RoutePattern(second), "second") }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains("ambiguous") == true)
        #expect(error?.message.contains(first) == true)
        #expect(error?.message.contains(second) == true)
        #expect(router.routes.count == 1)
    }

    @Test(arguments: [
        ("moon:now", "moon:{when}"),
        ("pass:{name}", "pass:{name}:{direction}"),
        ("moon:now", "moon:rise"),
        ("a:{x}:c", "a:{y}:d"),
        ("pass:{name}", "{scheme}:{name}"),
    ] as [(String, String)])
    func distinguishablePatternsAreAccepted(first: String, second: String) throws {
        var router = Router<String>()
        try router.register(RoutePattern(first), "first")
        try router.register(RoutePattern(second), "second")
        #expect(router.routes.map(\.pattern.text) == [first, second])
    }

    @Test(arguments: ["", "pass:", ":pass", "a::b"])
    func patternsWithEmptySegmentsAreRefused(pattern: String) {
        var router = Router<String>()
        let error = #expect(throws: ConditionsError.self) { try router.register(RoutePattern(pattern), "x") }
        #expect(error?.kind == .configuration)
        #expect(router.routes.isEmpty)
    }

    @Test func mostSpecificOfThreeWins() throws {
        let router = try router([("{scheme}:{name}", []), ("pass:{name}", []), ("pass:all", [])])
        #expect(try router.match(URN("pass:all")).handler == "pass:all")
        #expect(try router.match(URN("pass:white")).handler == "pass:{name}")
        let wildcard = try router.match(URN("moon:now"))
        #expect(wildcard.handler == "{scheme}:{name}")
        #expect(wildcard.location.arguments == ["scheme": "moon", "name": "now"])
    }

    @Test func unknownSchemeSuggestsSameURNUnderClosestScheme() throws {
        let router = try router([("pass:{name}", []), ("moon:now", []), ("phases:{count}", [])])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("pas:snoqualmie")) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == ["pass:snoqualmie"])
        #expect(error?.message.contains("scheme \"pas\"") == true)
        #expect(error?.description.hasSuffix("did you mean pass:snoqualmie?") == true)
    }

    @Test func unknownSchemeKeepsEveryRemainingSegment() throws {
        let router = try router([("moon:{when}", [])])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("mon:2026-12-04T00%3A00Z")) }
        #expect(error?.suggestions == ["moon:2026-12-04T00%3A00Z"])
    }

    @Test func unrelatedSchemeGetsNoSuggestion() throws {
        let router = try router([("pass:{name}", []), ("moon:now", [])])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("weather:seattle")) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == [])
        #expect(error?.description == error?.message)
    }

    @Test func knownSchemeSuggestsCloseExamples() throws {
        let examples = ["pass:snoqualmie", "pass:stevens", "pass:white", "pass:all"]
        let router = try router([("pass:{name}:{direction}", examples), ("pass:all", ["pass:all"])])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("pass:snoqalmie")) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions.first == "pass:snoqualmie")
        #expect(error?.suggestions.contains("pass:white") == false)
        #expect(error?.message.contains("pass:{name}:{direction}") == true)
        #expect(error?.message.contains("pass:all") == true)
    }

    @Test func knownSchemeDoesNotSuggestUnrelatedExamples() throws {
        // Every example shares the scheme, so the scheme alone must not make them "close".
        let router = try router([("pass:{name}:{direction}", ["pass:snoqualmie", "pass:stevens", "pass:white"])])
        let error = #expect(throws: ConditionsError.self) { try router.match(URN("pass:xyzzy")) }
        #expect(error?.kind == .notFound)
        #expect(error?.suggestions == [])
    }

    @Test func missingArgumentIsInvalidArguments() throws {
        let router = try router([("pass:{name}", [])])
        let location = try router.match(URN("pass:white")).location
        let error = #expect(throws: ConditionsError.self) { try location.argument("direction") }
        #expect(error?.kind == .invalidArguments)
        #expect(error?.message.contains("\"direction\"") == true)
    }

    @Test func boundPatternReplacesPlaceholderScheme() {
        let bound = RoutePattern("{scheme}:{name}").bound(toScheme: "pass")
        #expect(bound.text == "pass:{name}")
        #expect(bound.scheme == "pass")
        #expect(bound.placeholders == ["name"])
        #expect(RoutePattern("moon:now").bound(toScheme: "pass").text == "moon:now")
    }

    @Test func patternParsing() {
        let pattern = RoutePattern("a:{x}:{}:c")
        #expect(pattern.segments == [.literal("a"), .placeholder("x"), .literal("{}"), .literal("c")])
        #expect(pattern.literalCount == 3)
        #expect(pattern.placeholders == ["x"])
        #expect(RoutePattern("{s}:n").scheme == nil)
    }
}
