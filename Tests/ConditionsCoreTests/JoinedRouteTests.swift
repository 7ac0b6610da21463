import ConditionsKit
import Foundation
import LoopbackServer
import Testing
@testable import ConditionsCore

/// Joined chains (`"pass": {"join": [["a", "c"], "b"]}`, issue 42 item 3) in the resolver, with
/// the test-only upstream modules of `RouteFallbackTests`: the chains asked in order, the first
/// answer that is not `notFound` winning, `notFound`s merged, an upstream failure the answer
/// when no chain answers, a verdict the answer at once, and each chain keeping its fallback.
@Suite struct JoinedRouteTests {
    typealias Setup = RouteFallbackTests.Setup
    typealias Response = LoopbackServer.Response

    static func notFound(_ name: String) -> Response {
        .json(#"{"error": {"kind": "notFound", "message": "no pass named \#(name)"}}"#)
    }

    func seen(_ record: ResultRecord) -> RouteFallbackTests.Seen { RouteFallbackTests().seen(record) }

    @Test func theFirstChainThatKnowsTheNameAnswers() async throws {
        let setup = try Setup(joined: [["a", "c"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "stevens", value: "washington")
        setup.answer("a", "donner", Self.notFound("donner"))
        setup.answer("b", "donner", value: "california")
        #expect(seen(await setup.resolve("pass:stevens")) == .answer(source: "a", route: "pass:{name}", value: "washington", stale: false))
        #expect(setup.server("b").requestCount("/pass/stevens") == 0, "the first chain answered: the next is not asked")
        #expect(seen(await setup.resolve("pass:donner")) == .answer(source: "b", route: "pass:{name}", value: "california", stale: false))
        #expect(setup.server("c").requestCount("/pass/donner") == 0, "a notFound is a verdict inside a chain: its fallback is not asked")
    }

    @Test func everyChainSayingNotFoundMergesTheirWordsAndSuggestions() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "nowhere", Self.notFound("nowhere in Washington"))
        setup.answer("b", "nowhere", Self.notFound("nowhere in California"))
        let record = await setup.resolve("pass:nowhere")
        guard case .failure(let kind, let message, let suggestions) = record.outcome else { Issue.record("\(record)"); return }
        #expect(kind == .notFound)
        #expect(message.hasPrefix("no pass named nowhere in Washington; no pass named nowhere in California"), "\(message)")
        #expect(suggestions == ["pass:other"], "each chain's suggestions, once")
    }

    @Test func anUpstreamFailureIsTheAnswerWhenNoChainAnswers() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "white", .text("broken", status: 500))
        setup.answer("b", "white", Self.notFound("white"))
        guard case .failure(let kind, let message, _) = await setup.resolve("pass:white").outcome else { Issue.record("no failure"); return }
        #expect(kind == .http && message.contains("HTTP 500"), "\(kind) \(message)")
        // A later chain that knows it still answers.
        setup.answer("b", "white", value: "open")
        #expect(seen(await setup.resolve("pass:white", at: 1)) == .answer(source: "b", route: "pass:{name}", value: "open", stale: false))
    }

    @Test func aVerdictIsTheAnswerAtOnce() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "white", .json(#"{"error": {"kind": "invalidArguments", "message": "bad name"}}"#))
        setup.answer("b", "white", value: "open")
        guard case .failure(let kind, _, _) = await setup.resolve("pass:white").outcome else { Issue.record("no failure"); return }
        #expect(kind == .invalidArguments)
        #expect(setup.server("b").requestCount("/pass/white") == 0)
    }

    @Test func eachChainKeepsItsOwnFallback() async throws {
        let setup = try Setup(joined: [["a", "c"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "white", .text("broken", status: 500))
        setup.answer("c", "white", value: "from c")
        setup.answer("b", "white", value: "from b")
        #expect(seen(await setup.resolve("pass:white")) == .answer(source: "c", route: "pass:{pass}", value: "from c", stale: false))
        #expect(setup.server("b").requestCount("/pass/white") == 0)
    }

    /// `pass:all` matches a pattern of literals only: every chain is asked, and each answer is
    /// a result of its own, in chain order; the host merges no data.
    @Test func aLiteralURNGetsEveryChainsAnswerInOrder() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        // The test module asks `/pass/` for `pass:all` (no arguments).
        setup.answer("a", "", value: "washington")
        setup.answer("b", "", value: "california")
        let record = await setup.resolve("pass:all")
        #expect(record.answers.map(seen) == [.answer(source: "a", route: "pass:all", value: "washington", stale: false),
                                              .answer(source: "b", route: "pass:all", value: "california", stale: false)])
        #expect(!record.failed)
        // One object stands for the URN with the later answers under `joined`; a list has each
        // answer alone.
        #expect(record.json["joined"]?.arrayValue?.map { $0["source"]?.stringValue } == ["b"])
        #expect(record.answers.allSatisfy { $0.json["joined"] == nil })
        // A named URN still stops at the first chain answering.
        setup.answer("a", "stevens", value: "washington")
        #expect(await setup.resolve("pass:stevens").joined.isEmpty)
        #expect(setup.server("b").requestCount("/pass/stevens") == 0)
    }

    @Test func aLiteralURNKeepsAChainsFailureAsAnAnswerOfItsOwn() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "", value: "washington")
        setup.answer("b", "", .text("broken", status: 500))
        let record = await setup.resolve("pass:all")
        #expect(seen(record) == .answer(source: "a", route: "pass:all", value: "washington", stale: false))
        guard record.joined.count == 1, case .failure(let kind, let message, _) = record.joined[0].outcome else { Issue.record("\(record)"); return }
        #expect(kind == .http && message.hasPrefix("b: HTTP 500"), "the failing chain's source named: \(message)")
        #expect(record.failed, "a chain failing is a failure of the URN (exit status 1), with the other answer shown")
        // Only a chain saying notFound is left out: the other's failure is the answer alone.
        setup.answer("a", "", Self.notFound("all"))
        let alone = await setup.resolve("pass:all", at: 301)
        guard case .failure(.http, let alsoMessage, _) = alone.outcome else { Issue.record("\(alone)"); return }
        #expect(alone.joined.isEmpty && alsoMessage.hasPrefix("b: "))
        // Every chain failing: each one's answer, in order: a's cached result, stale, and b's failure.
        setup.answer("a", "", .text("down", status: 500))
        let both = await setup.resolve("pass:all", at: 602)
        #expect(seen(both) == .answer(source: "a", route: "pass:all", value: "washington", stale: true), "\(both)")
        guard both.joined.count == 1, case .failure(.http, let bMessage, _) = both.joined[0].outcome else { Issue.record("\(both)"); return }
        #expect(bMessage.hasPrefix("b: "))
    }

    @Test func aLiteralURNsStateIsEveryAnswersState() async throws {
        let setup = try Setup(joined: [["a"], ["b"]])
        defer { setup.stop() }
        setup.answer("a", "", value: "washington")
        setup.answer("b", "", value: "california")
        var tracker = WatchTracker(catalog: setup.runtime.catalog)
        let first = await setup.resolve("pass:all")
        #expect(tracker.changes(in: [first], at: Date()).count == 1, "the initial state")
        #expect(tracker.changes(in: [await setup.resolve("pass:all", at: 301)], at: Date()).isEmpty, "both the same: no change")
        setup.answer("b", "", value: "california closed")
        let changed = tracker.changes(in: [await setup.resolve("pass:all", at: 602)], at: Date())
        #expect(changed.count == 1, "the second chain's answer changing is the URN's change")
        #expect(changed.first.map { $0.before?.status != $0.after.status || $0.before?.detail != $0.after.detail } == true)
    }
}
