import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import ConditionsMemo
import Foundation
import Logging
import Synchronization
import Testing

/// A source answering `echo:{id}` and `echo:all` with what its context held, and `combo:{a}:{b}`
/// by resolving `echo:{a}` and `echo:{b}` through the host.
private struct EchoSource: ConditionsSource {
    static let moduleName = "Echo"
    static let summary = "echoes its context"
    let routes: [RoutePattern] = ["echo:{id}", "echo:all", "combo:{a}:{b}"]
    let examples = ["echo:harbor", "echo:all"]
    let greeting: String
    /// Values made so far, in this process: each memo value is a new number.
    static let made = Mutex(0)

    init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        greeting = try options.string("greeting") ?? "hello"
        try options.finish()
    }

    func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        if location.pattern.text == "combo:{a}:{b}" {
            let answers = await context.resolve(["echo:\(try location.argument("a"))", "echo:\(try location.argument("b"))"])
            return SourceResult(data: .array(answers.map { (try? $0.result.get().data["id"]) ?? .null }), inputs: answers.map(\.input))
        }
        let id = location.arguments["id"] ?? "all"
        let count = try await context.memo.value(for: id, maxAge: 60, now: context.now) { .int(Self.made.withLock { $0 += 1; return $0 }) }
        return SourceResult(data: [
            "id": .string(id), "pattern": .string(location.pattern.text), "greeting": .string(greeting),
            "now": JSONValue(context.now), "place": JSONValue(context.place.name), "timeZone": JSONValue(context.place.timeZone?.identifier),
            "maxAge": .double(context.maxAge), "made": count,
        ])
    }
}

@Suite struct SourceContextBuilderTests {
    @Test func defaultsArePinnedSeattleAndOffline() async throws {
        let context = SourceContextBuilder().build()
        #expect(context.now == SourceContextBuilder.defaultNow)
        #expect(JSONValue(context.now) == "2026-11-21T14:05:00Z")
        #expect(context.place == Place.seattle)
        #expect(context.place.latitude == 47.6097 && context.place.longitude == -122.3331)
        #expect(context.place.timeZone?.identifier == "America/Los_Angeles")
        #expect(context.places.place(named: "here") == .seattle)
        #expect(context.places.names.isEmpty)
        #expect(context.limits == HTTPLimits())
        #expect(context.maxAge == 0)
        #expect(context.urns == nil)
        let offline = try #require(context.http as? UnavailableHTTPClient)
        #expect(offline.reason.contains("no network"))
        await #expect(throws: HTTPError.self) { try await context.http.get(URL(string: "https://example.org")!) }
        // No memo: nothing is kept between calls.
        let first = try await context.memo.value(for: "k", maxAge: 60, now: context.now) { 1 }
        let second = try await context.memo.value(for: "k", maxAge: 60, now: context.now) { 2 }
        #expect([first, second] == [1, 2])
    }

    @Test func everyPartCanBeSet() throws {
        let http = RecordingHTTPClient(.status(200))
        let places = Places(location: .seattle, named: [("stevens", Place.stevens)])
        let urns = StubURNs([:])
        var builder = SourceContextBuilder(now: Date(timeIntervalSince1970: 0), places: places, http: http,
                                           limits: HTTPLimits(timeout: 5), maxAge: 300, urns: urns)
        builder.place = Place(name: "Miami", latitude: 25.7877, longitude: -80.2241)
        let context = builder.build()
        #expect(context.now == Date(timeIntervalSince1970: 0))
        #expect(context.place.name == "Miami")
        #expect(context.places.place(named: "Stevens")?.name == "Stevens Pass")
        #expect(context.http as? RecordingHTTPClient === http)
        #expect(context.limits.timeout == 5)
        #expect(context.maxAge == 300)
        #expect(context.urns as? StubURNs === urns)
    }

    @Test func keepingValuesSharesOneMemoryAcrossContexts() async throws {
        let source = try EchoSource(configuration: .testing())
        let keeping = SourceContextBuilder().keepingValues()
        let first = try await source.resolve("echo:x", context: keeping.build())
        let second = try await source.resolve("echo:x", context: keeping.build())
        #expect(first.data["made"] == second.data["made"])
        // Without it every context makes its own.
        let unkept = try await source.resolve("echo:x", context: SourceContextBuilder().build())
        #expect(unkept.data["made"] != first.data["made"])
        // The memory given is the one written to.
        let memory = FreshValues<JSONValue>()
        _ = try await source.resolve("echo:x", context: SourceContextBuilder().keepingValues(in: memory).build())
        #expect(memory.usage.entries == 1)
    }

    @Test func configurationsReadOptionsAsTheHostWrites() throws {
        let configuration = SourceConfiguration.testing(instance: "echo")
        #expect(configuration.instance == "echo")
        #expect(configuration.options.path == "sources.echo.options")
        #expect(configuration.place == .seattle)
        #expect(configuration.places.names.isEmpty)
        #expect(configuration.configDirectory == FileManager.default.temporaryDirectory)
        #expect(try EchoSource(configuration: .testing(instance: "echo", json: #"{"greeting": "hi"}"#)).greeting == "hi")
        #expect(try EchoSource(configuration: .testing(options: ["greeting": "hey"])).greeting == "hey")
        #expect(throws: ConditionsError.configuration(#"unknown option sources.echo.options.greting (did you mean "greeting"?); known: greeting"#)) {
            try EchoSource(configuration: .testing(instance: "echo", json: #"{"greting": "hi"}"#))
        }
        #expect(throws: ConditionsError.self) { try SourceConfiguration.testing(json: "[1]") }
        #expect(throws: ConditionsError.self) { try SourceConfiguration.testing(options: [1]) }
        #expect(try JSONObject.json(#"{"a": 1}"#)["a"] == 1)
    }

    @Test func urnsAreRoutedAsTheHostRoutesThem() async throws {
        let source = try EchoSource(configuration: .testing())
        #expect(try source.location(for: "echo:all").pattern.text == "echo:all", "the most literal pattern wins")
        let location = try source.location(for: "ECHO:harbor%207")
        #expect(location.pattern.text == "echo:{id}")
        #expect(location.arguments == ["id": "harbor 7"])
        let result = try await source.resolve("echo:harbor", context: SourceContextBuilder(maxAge: 60).build())
        #expect(result.data["pattern"] == "echo:{id}")
        #expect(result.data["now"] == "2026-11-21T14:05:00Z")
        #expect(result.data["place"] == "Seattle")
        #expect(result.data["timeZone"] == "America/Los_Angeles")
        #expect(result.data["maxAge"] == .double(60))

        let context = SourceContextBuilder().build()
        let unrouted = try #require(await source.error(resolving: "echo:a:b", context: context) as? ConditionsError)
        #expect(unrouted.kind == .notFound)
        #expect(unrouted.message.contains("echo routes: echo:{id}, echo:all"))
        let badURN = try #require(await source.error(resolving: "echo: x", context: context) as? ConditionsError)
        #expect(badURN.kind == .invalidURN)
        #expect(await source.error(resolving: "echo:x", context: context) == nil)
    }

    @Test func aWildcardSchemeIsBoundToTheURNsScheme() throws {
        struct Wildcard: ConditionsSource {
            static let moduleName = "Any"
            static let summary = "any scheme"
            let routes: [RoutePattern] = ["{scheme}:{name}"]
            init(configuration: SourceConfiguration) throws {}
            func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult { SourceResult(data: nil) }
        }
        let location = try Wildcard(configuration: .testing()).location(for: "pass:stevens")
        #expect(location.pattern.text == "pass:{name}")
        #expect(location.arguments == ["name": "stevens"])
    }

    @Test func stubURNsAnswerFromTheirDictionaryAndRecordWhatWasAsked() async throws {
        let urns = StubURNs([
            "echo:a": .success(SourceResult(data: ["id": "a"])),
            "echo:b": .failure(.upstream("HTTP 503")),
        ])
        let source = try EchoSource(configuration: .testing())
        let result = try await source.resolve("combo:a:c", context: SourceContextBuilder(urns: urns).build())
        #expect(result.data == ["a", nil])
        #expect(result.inputs.map(\.urn) == ["echo:a", "echo:c"])
        #expect(result.inputs.map(\.source) == ["stub", nil])
        #expect(result.inputs.map(\.failed) == [false, true])
        let answers = await urns.resolve(["echo:b", "echo:c"])
        #expect(answers.map(\.input.failed) == [true, true])
        if case .failure(let error) = answers[1].result { #expect(error.kind == .notFound) } else { Issue.record("echo:c answered") }
        #expect(urns.asked == [["echo:a", "echo:c"], ["echo:b", "echo:c"]])

        let stale = StubURNs(resolved: ["echo:a": ResolvedURN(urn: "echo:a", source: "cache", result: .success(SourceResult(data: 1)), staleAge: 90)])
        #expect(await stale.resolve(["echo:a"]).first?.input.staleAge == 90)
    }
}
