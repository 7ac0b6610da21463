import ConditionsCore
import ConditionsJSON
import Foundation
import Logging
import TestHarness
import Testing
@testable import ConditionsServer

/// `/v1/events` with history on: every event carries its stored change's id, a client that
/// reconnects with `Last-Event-ID` gets exactly what it missed, in order, then live changes,
/// nothing twice; changes recorded elsewhere (a `ChangeFeed`) reach the streams; a malformed id
/// is refused; a long replay is paged. In process, and through the binary on loopback.
///
/// The stand-in is `ServeHistoryTests.config()`'s `pass:{name}`: an Exec script answering open,
/// then closed, then open… one flip per resolution, a local source (TTL 0). Only the URNs a
/// test asks for are recorded, so a URN's change ids in a fresh store are 1, 2, 3…: a gap in
/// them is a change lost, a repeat one sent twice.
@Suite struct EventResumeTests {
    /// The history store a server in `dir` writes (HOME is `dir`).
    static func storeFile(in dir: URL) -> URL {
        dir.appendingPathComponent(".local/state/conditions/history.sqlite")
    }

    /// Resolves `urn` once more, in a second that has not answered it yet (a local result is
    /// kept for the rest of the second it was made in), so the stand-in flips: one change.
    static func flip(_ urn: String, on server: some ServedHTTP) async throws {
        let reply = try await server.request("/v1/urn/\(urn)")
        #expect(reply.status == 200)
        let answered = Int(Date().timeIntervalSince1970)
        while Int(Date().timeIntervalSince1970) == answered { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Waits until the server counts no event stream (the client's close has reached it).
    static func noStreams(on server: some ServedHTTP) async throws {
        var clients = 1.0
        let deadline = ContinuousClock.now + .seconds(120)
        while clients > 0 {
            let expired = ContinuousClock.now >= deadline  // wall-clock-ok: a hang guard: the count drops once the close arrives; 2 min only end a hang
            clients = try await MemoryBoundTests.metric("conditions_sse_clients", in: server)
            if clients == 0 || expired { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(clients == 0, "the closed stream is still counted")
    }

    /// Each event's `id:` line is its change's id (in the data too), the ids are consecutive
    /// from `first`, and each `before` is the state the previous event showed.
    static func expectConsecutive(_ events: [EventStreamClient.Block], from first: Int64, after previous: String?,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        var state = previous
        for (offset, event) in events.enumerated() {
            #expect(event.id == first + Int64(offset), "event \(offset): \(event)", sourceLocation: sourceLocation)
            #expect((event.object["id"] as? NSNumber)?.int64Value == event.id, "\(event)", sourceLocation: sourceLocation)
            if let state { #expect(event.before == state, "\(event)", sourceLocation: sourceLocation) }
            #expect(event.after == (event.before == "open" ? "closed" : "open"), "\(event)", sourceLocation: sourceLocation)
            state = event.after
        }
    }

    /// The scenario, on any server of `ServeHistoryTests.config()` with history: a client reads
    /// a few events, drops the connection, changes happen, and it comes back with the last id.
    static func resumeMissesNothingAndRepeatsNothing(on server: some ServedHTTP, header: Bool = true) async throws {
        let first = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1")
        #expect(first.status == 200)
        let seen = try await first.events(3)
        await first.close()
        try #require(seen.count == 3, "\(seen)")
        #expect(seen.map(\.name) == ["initial", "change", "change"])
        #expect(seen[0].before == nil && seen[0].after == "open")
        expectConsecutive(seen, from: 1, after: nil)
        try await noStreams(on: server)

        // Changes the client does not see: three resolutions by someone else.
        for _ in 0..<3 { try await flip("pass:stevens", on: server) }
        let history = try await server.request("/v1/history/pass:stevens?since=1h")
        let stored = (history.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
        // The poller may have made one more before it saw the client go; a flip answered from
        // memory (the poller's answer of the same second) makes none.
        #expect(stored.count >= 5, "\(history.body)")
        let missed = Array(stored.dropFirst(3))

        let last = try #require(seen.last?.id)
        let second = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1" + (header ? "" : "&lastEventId=\(last)"),
                                                      headers: header ? [("Last-Event-ID", String(last))] : [])
        #expect(second.status == 200)
        // What was missed, then two live changes.
        let resumed = try await second.events(missed.count + 2)
        await second.close()
        try #require(resumed.count == missed.count + 2, "\(resumed)")
        #expect(resumed.allSatisfy { $0.name == "change" }, "no initial on a resumed stream: \(resumed)")
        #expect(resumed.prefix(missed.count).map(\.after) == missed, "the replay is what the store holds after the last id, in order")
        expectConsecutive(resumed, from: last + 1, after: seen.last?.after)
    }

    @Test func aResumedStreamMissesNothingAndRepeatsNothing() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, history: true) { server in
            try await Self.resumeMissesNothingAndRepeatsNothing(on: server)
        }
    }

    @Test func aResumedStreamThroughTheBinaryAndTheQueryParameter() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            try await Self.resumeMissesNothingAndRepeatsNothing(on: server, header: false)
        }
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    /// A feed standing in for another replica's notices: the test says which change was recorded.
    final class InjectedChanges: ChangeFeed {
        let stream: AsyncStream<RecordedChange>
        let continuation: AsyncStream<RecordedChange>.Continuation

        init() { (stream, continuation) = AsyncStream<RecordedChange>.makeStream() }

        func changes() -> AsyncStream<RecordedChange> { stream }
    }

    /// Another process (a second store on the same file) records a change, a feed tells the
    /// hub its id: every stream of that URN gets it, with its id, once however often it is told.
    @Test func aChangeRecordedByAnotherProcessReachesTheStreams() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        let feed = InjectedChanges()
        try await InProcessServer.with(in: dir, history: true, changeFeeds: [feed]) { server in
            // A day between polls: after the first, only the feed brings news.
            let one = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1d")
            let other = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1d")
            let initial = try await one.events(1)
            #expect(initial.first?.name == "initial" && initial.first?.id == 1 && initial.first?.after == "open", "\(initial)")
            #expect(try await other.events(1).first?.id == 1)

            let elsewhere = try await HistoryStore.open(Self.storeFile(in: dir), logger: Logger(label: "another process"))
            func record(_ status: String) async throws -> Int64 {
                let result: JSONValue = ["urn": "pass:stevens", "source": "replica-2", "data": ["status": .string(status)]]
                return try await elsewhere.record([HistoryObservation(urn: "pass:stevens", at: Date(), state: ResultState(status: status), result: result)])[0]
            }
            let closed = try await record("closed")
            #expect(closed == 2)
            feed.continuation.yield(RecordedChange(urn: "pass:stevens", id: closed))
            feed.continuation.yield(RecordedChange(urn: "pass:stevens", id: closed))
            for stream in [one, other] {
                let change = try #require(try await stream.events(1).first)
                #expect(change.name == "change" && change.id == closed, "\(change)")
                #expect(change.before == "open" && change.after == "closed", "\(change)")
                #expect((change.object["result"] as? [String: Any])?["source"] as? String == "replica-2", "the change as the other process stored it")
            }
            // A notice of an unrelated URN, then the next change: nothing in between, nothing twice.
            feed.continuation.yield(RecordedChange(urn: "pass:elsewhere", id: 99))
            let reopened = try await record("open")
            feed.continuation.yield(RecordedChange(urn: "pass:stevens", id: reopened))
            let next = try await one.events(1)
            #expect(next.first?.id == reopened && next.first?.before == "closed" && next.first?.after == "open", "\(next)")
            await elsewhere.close()
            await one.close()
            await other.close()
        }
    }

    /// A client far behind gets the changes in pages: 1,000, a comment saying so and the end of
    /// the stream; resuming after the last of them, the rest, then live changes.
    @Test func aLongReplayIsPaged() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 1,005 changes stored before the server starts.
        let store = try await HistoryStore.open(Self.storeFile(in: dir), logger: Logger(label: "test"))
        let start = Date().addingTimeInterval(-3600)
        let observations = (0..<1005).map { index in
            let status = index % 2 == 0 ? "open" : "closed"
            return HistoryObservation(urn: "pass:stevens", at: start.addingTimeInterval(Double(index)), state: ResultState(status: status),
                                      result: ["urn": "pass:stevens", "data": ["status": .string(status)]])
        }
        let ids = try await store.record(observations)
        await store.close()
        #expect(ids == Array(1...1005))
        try await InProcessServer.with(in: dir, history: true) { server in
            let first = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1", headers: [("Last-Event-ID", "0")])
            var comments: [String] = []
            let page = try await first.events(1001, comments: &comments)
            await first.close()
            #expect(page.count == 1000, "the stream ends after a page")
            Self.expectConsecutive(page, from: 1, after: nil)
            #expect(page.first?.before == nil, "nothing was stored before the first change")
            #expect(comments.contains("replay capped at 1000 changes; resume with Last-Event-ID 1000 for the rest"), "\(comments)")

            let second = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1", headers: [("Last-Event-ID", "1000")])
            let rest = try await second.events(7)
            await second.close()
            #expect(rest.count == 7)
            #expect(rest.allSatisfy { $0.name == "change" })
            // The stored ones, then the server's own resolutions (its poller ran during the first
            // page too), replayed or live: one sequence.
            #expect(rest.map(\.id) == Array(1001...1007), "\(rest)")
            #expect(rest.first?.before == "closed", "the state before the first of a page is read from the store")
        }
    }

    @Test func aMalformedLastEventIDIsRefused() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, history: true) { server in
            for (path, headers, named) in [
                ("/v1/events?urn=pass:stevens", [("Last-Event-ID", "abc")], "Last-Event-ID: \"abc\""),
                ("/v1/events?urn=pass:stevens", [("Last-Event-ID", "-1")], "Last-Event-ID: \"-1\""),
                ("/v1/events?urn=pass:stevens", [("Last-Event-ID", "1234567890123456789")], "Last-Event-ID: \"1234567890123456789\""),
                ("/v1/events?urn=pass:stevens&lastEventId=1.5", [], "lastEventId: \"1.5\""),
                ("/v1/events?urn=pass:stevens&lastEventId=", [], "lastEventId: \"\""),
                // The header wins, but a malformed parameter beside it is refused all the same.
                ("/v1/events?urn=pass:stevens&lastEventId=x", [("Last-Event-ID", "12")], "lastEventId: \"x\""),
            ] {
                let reply = try await server.request(path, headers: headers)
                #expect(reply.status == 400, "\(path) \(headers)")
                #expect(reply.body.split(separator: "\n").count == 1)
                let error = reply.object["error"] as? [String: Any]
                #expect(error?["kind"] as? String == "invalidRequest")
                #expect((error?["message"] as? String)?.hasPrefix(named + " is not an event id") == true, "\(reply.body)")
                #expect(try await server.request(path, method: .HEAD, headers: headers).status == 400)
            }
            #expect(try await server.request("/v1/events?urn=pass:stevens", method: .HEAD, headers: [("Last-Event-ID", "12")]).status == 200)
        }
    }

    /// Without history, events carry no id; a client resuming anyway is told so and gets the
    /// current state.
    @Test func withoutHistoryEventsHaveNoIDs() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir) { server in
            let stream = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1")
            let events = try await stream.events(2)
            await stream.close()
            #expect(events.map(\.name) == ["initial", "change"])
            #expect(events.allSatisfy { $0.id == nil && $0.object["id"] == nil }, "\(events)")

            let resumed = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1", headers: [("Last-Event-ID", "7")])
            let notice = try #require(try await resumed.next())
            #expect(notice.comments == ["cannot resume after 7: this server records no history; the current state follows"], "\(notice)")
            let initial = try await resumed.events(1)
            await resumed.close()
            #expect(initial.first?.name == "initial" && initial.first?.id == nil, "\(initial)")
        }
    }

    /// An id newer than every change stored of the stream's URNs was not sent by such a stream
    /// (the store was replaced, or pruned): the client gets the current state, as a new stream.
    @Test func anIDNewerThanTheStoreStartsAfresh() async throws {
        let dir = try ServeHistoryTests.config()
        defer { try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, history: true) { server in
            let first = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1d")
            #expect(try await first.events(1).first?.id == 1)
            let resumed = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&every=1d", headers: [("Last-Event-ID", "500")])
            let notice = try #require(try await resumed.next())
            #expect(notice.comments == ["cannot resume after 500: no change of these URNs is that recent (newest 1); the current state follows"], "\(notice)")
            let initial = try await resumed.events(1)
            #expect(initial.first?.name == "initial" && initial.first?.id == 1, "\(initial)")
            // Up to date with pass:stevens: nothing of it is replayed, and nothing but its next
            // change comes; of a URN never stored (it routes nowhere), the state, as `initial`.
            let current = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens&urn=nowhere:at-all&every=1d",
                                                           headers: [("Last-Event-ID", "1")])
            let unstored = try await current.events(1)
            #expect(unstored.first?.name == "initial" && unstored.first?.object["urn"] as? String == "nowhere:at-all", "\(unstored)")
            #expect(unstored.first?.id == nil && unstored.first?.after == "error: notFound", "\(unstored)")
            try await Self.flip("pass:stevens", on: server)
            let next = try await current.events(1)
            #expect(next.first?.name == "change" && next.first?.id == 2 && next.first?.before == "open", "\(next)")
            for stream in [first, resumed, current] { await stream.close() }
        }
    }

    /// A stream of several URNs: each event's id line only moves forward, so the id a client
    /// resumes from never skips a change it has not seen, even when one URN's `initial` shows an
    /// older change than another's (which then has no id line; its data still says its id).
    @Test func idLinesOnlyMoveForward() async throws {
        let (upstream, dir) = try ServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await InProcessServer.with(in: dir, environment: ServeTests.environment, history: true) { server in
            // Kept in memory for the TTL: each recorded once, snoqualmie's change first.
            #expect(try await server.request("/v1/urn/pass:snoqualmie").status == 200)
            #expect(try await server.request("/v1/urn/pass:stevens").status == 200)
            let stevens = try await EventStreamClient.open(server, "/v1/events?urn=pass:stevens")
            #expect(try await stevens.events(1).first?.id == 2)
            // Stevens' poller has an answer: its initial comes at once; snoqualmie's poller is new.
            let both = try await EventStreamClient.open(server, "/v1/events?urn=pass:snoqualmie&urn=pass:stevens")
            let initials = try await both.events(2)
            await both.close()
            await stevens.close()
            #expect(initials.map { $0.object["urn"] as? String } == ["pass:stevens", "pass:snoqualmie"], "\(initials)")
            #expect(initials.map { ($0.object["id"] as? NSNumber)?.int64Value } == [2, 1])
            #expect(initials.map(\.id) == [2, nil], "the id line never goes back: \(initials)")
        }
    }
}
