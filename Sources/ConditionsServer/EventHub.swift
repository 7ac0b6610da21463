import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// `/v1/events`: one poller per URN and interval, shared by every client streaming it, running
/// only while at least one client listens. Each poll goes through the coordinator, so a poll
/// within the TTL costs nothing upstream.
///
/// With history on, every event shows a stored change and carries its id, and a client's
/// stream is kept to the store's order of changes (`EventHub+StoredChanges.swift`): a change
/// heard of, from a poll or from a `ChangeFeed` (this process's recorder, or another replica),
/// is read from the store and sent to each stream that has not shown it yet, so no stream sends
/// one twice or skips one, and a stream resumes after the last id its client saw.
final class EventHub: Service, Sendable {
    struct Key: Hashable, Sendable {
        let urn: String
        let interval: Int
    }

    struct Poller {
        var task: Task<Void, Never>?
        var subscribers: Set<Int> = []
        /// The latest answer, replayed as an `initial` event to clients that join later.
        var latest: RenderedResult?
    }

    /// What a stream has shown of one URN.
    struct Shown {
        /// The stored change it showed last; nil when that was not stored (no history).
        var id: Int64?
        /// The state it showed last; nil when not known (a resumed stream, until its first event).
        var status: String?
    }

    struct Client {
        let continuation: AsyncStream<String>.Continuation
        let urns: [String]
        /// A URN absent here is still to get its `initial` event.
        var shown: [String: Shown] = [:]
        /// The highest id an `id:` line has carried. An event showing an older change (one
        /// URN's `initial` after another's later change) carries none, so the client's
        /// Last-Event-ID never goes back and resuming after it skips nothing it has not seen.
        var lastEventID: Int64 = 0
        /// Stored changes are being replayed to it (Last-Event-ID): live ones wait their turn.
        var replaying = false
    }

    struct State {
        var pollers: [Key: Poller] = [:]
        var clients: [Int: Client] = [:]
        /// The clients streaming each URN, whatever their interval.
        var listeners: [String: Set<Int>] = [:]
        /// The newest change heard of for each URN someone streams.
        var newest: [String: Int64] = [:]
        var nextClient = 0
        var closed = false
    }

    let coordinator: ResultCoordinator
    /// Where changes are read back from; nil with `--no-history` (events then carry no ids).
    let history: HistoryRecorder?
    /// What tells of changes recorded outside the pollers.
    private let feeds: [any ChangeFeed]
    private let metrics: ServerMetrics
    let logger: Logger
    let state = Mutex(State())
    /// How often an idle stream gets a comment line: writing is how a gone client is noticed.
    static let heartbeat: Duration = .seconds(15)

    init(coordinator: ResultCoordinator, history: HistoryRecorder? = nil, feeds: [any ChangeFeed] = [], metrics: ServerMetrics, logger: Logger) {
        self.coordinator = coordinator
        self.history = history
        self.feeds = feeds
        self.metrics = metrics
        self.logger = logger
    }

    /// Listens to the change feeds and sends heartbeats until graceful shutdown, then ends
    /// every stream.
    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for feed in feeds {
                    group.addTask {
                        for await change in feed.changes() { await self.heard(change) }
                    }
                }
                while !Task.isCancelled {
                    // Cancelled by graceful shutdown, so the hub ends at once rather than a heartbeat later.
                    do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.heartbeat) } } catch { break }
                    let clients = state.withLock { $0.clients.values.map(\.continuation) }
                    for client in clients { client.yield(": keep-alive\n\n") }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.closeAll()
        }
    }

    /// A stream of SSE text for `keys`, ended by `unsubscribe` or shutdown; nil once shut down.
    /// `resumingAfter`: the client's Last-Event-ID; it gets no `initial` events, and `replay`
    /// must then be called before its stream is read.
    func subscribe(_ keys: [Key], resumingAfter lastEventID: Int64? = nil) -> (id: Int, stream: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let subscribed: (id: Int, behind: [String])? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextClient
            state.nextClient += 1
            var client = Client(continuation: continuation, urns: keys.map(\.urn))
            if let lastEventID {
                client.replaying = true
                client.lastEventID = lastEventID
                for key in keys { client.shown[key.urn] = Shown(id: lastEventID, status: nil) }
            }
            state.clients[id] = client
            var behind: [String] = []
            for key in keys {
                var poller = state.pollers[key] ?? Poller()
                poller.subscribers.insert(id)
                state.listeners[key.urn, default: []].insert(id)
                if lastEventID == nil, let latest = poller.latest {
                    state.send(initialEvent(latest, at: Date()), to: id)
                    // A change was heard of since the poller's latest answer: read it now.
                    if let shown = latest.changeID, let newest = state.newest[key.urn], newest > shown { behind.append(key.urn) }
                }
                if poller.task == nil {
                    poller.task = Task { await self.poll(key) }
                }
                state.pollers[key] = poller
            }
            return (id, behind)
        }
        guard let subscribed else { return nil }
        metrics.sseClients.increment()
        if !subscribed.behind.isEmpty {
            Task { for urn in subscribed.behind { await self.catchUp(urn) } }
        }
        return (subscribed.id, stream)
    }

    /// Forgets client `id`; a poller nobody listens to any more stops.
    func unsubscribe(_ id: Int) {
        let removed = state.withLock { state -> Bool in
            guard let client = state.clients.removeValue(forKey: id) else { return false }
            client.continuation.finish()
            for urn in client.urns {
                state.listeners[urn]?.remove(id)
                if state.listeners[urn]?.isEmpty == true {
                    state.listeners[urn] = nil
                    state.newest[urn] = nil
                }
            }
            for (key, var poller) in state.pollers where poller.subscribers.contains(id) {
                poller.subscribers.remove(id)
                if poller.subscribers.isEmpty {
                    poller.task?.cancel()
                    state.pollers[key] = nil
                } else {
                    state.pollers[key] = poller
                }
            }
            return true
        }
        if removed { metrics.sseClients.decrement() }
    }

    private func closeAll() {
        let clients = state.withLock { state in
            state.closed = true
            for poller in state.pollers.values { poller.task?.cancel() }
            state.pollers = [:]
            state.listeners = [:]
            state.newest = [:]
            defer { state.clients = [:] }
            return state.clients.values.map(\.continuation)
        }
        for client in clients { client.finish() }
        metrics.sseClients.set(to: 0)
    }

    private func poll(_ key: Key) async {
        var tracker = WatchTracker(catalog: coordinator.catalog)
        while !Task.isCancelled {
            let answer = await coordinator.resolve(key.urn)
            let now = Date()
            // The tracker decides for streams that show no stored change (no history, or a
            // write that failed); the store's ids decide for the others.
            let changed = tracker.changes(in: [answer.record], at: now).contains { $0.before != nil }
            let rendered = answer.rendered
            let after = ResultState(rendered.record, catalog: coordinator.catalog).status
            let initial = StreamEvent(.initial, rendered, after: after, before: nil, at: now)
            var changes = EventsByBefore { StreamEvent(.change, rendered, after: after, before: $0, at: now) }
            let behind = state.withLock { state -> Bool in
                guard var poller = state.pollers[key] else { return false }
                poller.latest = rendered
                state.pollers[key] = poller
                for client in poller.subscribers {
                    guard let shown = state.clients[client]?.shown[key.urn] else {
                        state.send(initial, to: client)
                        continue
                    }
                    guard state.clients[client]?.replaying == false, shown.id == nil || rendered.changeID == nil else { continue }
                    if changed {
                        state.send(changes.event(before: shown.status), to: client)
                    } else if let id = rendered.changeID {
                        // The store holds what this stream shows: from now on, it follows the store.
                        state.clients[client]?.shown[key.urn]?.id = id
                    }
                }
                guard let id = rendered.changeID else { return false }
                return state.heard(RecordedChange(urn: key.urn, id: id))
            }
            if behind {
                await catchUp(key.urn, orElse: (rendered, now))
            }
            do { try await Task.sleep(for: .seconds(key.interval)) } catch { return }
        }
    }

    /// The `initial` event of an answer.
    func initialEvent(_ rendered: RenderedResult, at now: Date) -> StreamEvent {
        StreamEvent(.initial, rendered, after: ResultState(rendered.record, catalog: coordinator.catalog).status, before: nil, at: now)
    }
}

extension EventHub.State {
    /// Sends `event` to `client`, with an `id:` line when its change is newer than any the
    /// stream has carried, and notes what the stream now shows of the URN.
    mutating func send(_ event: StreamEvent, to client: Int) {
        guard var stream = clients[client] else { return }
        var withID = false
        if let id = event.id, id > stream.lastEventID {
            withID = true
            stream.lastEventID = id
        }
        stream.shown[event.urn] = EventHub.Shown(id: event.id ?? stream.shown[event.urn]?.id, status: event.after)
        clients[client] = stream
        stream.continuation.yield(event.sse(withID: withID))
    }

    /// Notes that `change` was recorded; whether a stream of its URN shows an older change
    /// (and so has it to read).
    mutating func heard(_ change: RecordedChange) -> Bool {
        guard let streams = listeners[change.urn] else { return false }
        newest[change.urn] = max(newest[change.urn] ?? 0, change.id)
        return streams.contains { client in
            guard let stream = clients[client], !stream.replaying, let shown = stream.shown[change.urn]?.id else { return false }
            return shown < change.id
        }
    }
}
