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
final class EventHub: Service, Sendable {
    struct Key: Hashable, Sendable {
        let urn: String
        let interval: Int
    }

    private struct Poller {
        var task: Task<Void, Never>?
        var subscribers: Set<Int> = []
        /// The latest record, replayed as an `initial` event to clients that join later.
        var latest: ResultRecord?
    }

    private struct State {
        var pollers: [Key: Poller] = [:]
        var clients: [Int: AsyncStream<String>.Continuation] = [:]
        var nextClient = 0
        var closed = false
    }

    private let coordinator: ResultCoordinator
    private let metrics: ServerMetrics
    private let logger: Logger
    private let state = Mutex(State())
    /// How often an idle stream gets a comment line: writing is how a gone client is noticed.
    static let heartbeat: Duration = .seconds(15)

    init(coordinator: ResultCoordinator, metrics: ServerMetrics, logger: Logger) {
        self.coordinator = coordinator
        self.metrics = metrics
        self.logger = logger
    }

    /// Sends heartbeats until graceful shutdown, then ends every stream.
    func run() async throws {
        await withGracefulShutdownHandler {
            while !Task.isCancelled {
                // Cancelled by graceful shutdown, so the hub ends at once rather than a heartbeat later.
                do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.heartbeat) } } catch { break }
                let clients = state.withLock { Array($0.clients.values) }
                for client in clients { client.yield(": keep-alive\n\n") }
            }
        } onGracefulShutdown: {
            self.closeAll()
        }
    }

    /// A stream of SSE text for `keys`, ended by `unsubscribe` or shutdown; nil once shut down.
    func subscribe(_ keys: [Key]) -> (id: Int, stream: AsyncStream<String>)? {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.nextClient
            state.nextClient += 1
            state.clients[id] = continuation
            for key in keys {
                var poller = state.pollers[key] ?? Poller()
                poller.subscribers.insert(id)
                if let latest = poller.latest { continuation.yield(Self.sse(Self.initialEvent(latest, at: Date(), catalog: coordinator.catalog), name: "initial")) }
                if poller.task == nil {
                    poller.task = Task { await self.poll(key) }
                }
                state.pollers[key] = poller
            }
            return id
        }
        guard let id else { return nil }
        metrics.sseClients.increment()
        return (id, stream)
    }

    /// Forgets client `id`; a poller nobody listens to any more stops.
    func unsubscribe(_ id: Int) {
        let removed = state.withLock { state -> Bool in
            guard let continuation = state.clients.removeValue(forKey: id) else { return false }
            continuation.finish()
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
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { client.finish() }
        metrics.sseClients.set(to: 0)
    }

    private func poll(_ key: Key) async {
        var tracker = WatchTracker(catalog: coordinator.catalog)
        while !Task.isCancelled {
            let answer = await coordinator.resolve(key.urn)
            let now = Date()
            let events = tracker.changes(in: [answer.record], at: now).map { change in
                Self.sse(change.event, name: change.before == nil ? "initial" : "change")
            }
            let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
                guard var poller = state.pollers[key] else { return [] }
                poller.latest = answer.record
                state.pollers[key] = poller
                return poller.subscribers.compactMap { state.clients[$0] }
            }
            for event in events {
                for listener in listeners { listener.yield(event) }
            }
            do { try await Task.sleep(for: .seconds(key.interval)) } catch { return }
        }
    }

    /// The event a client joining late gets: the current state, as `watch` prints a first poll.
    static func initialEvent(_ record: ResultRecord, at now: Date, catalog: SourceCatalog) -> JSONValue {
        ["event": "initial", "urn": .string(record.urn), "at": JSONValue(now), "before": .null,
         "after": .string(ResultState(record, catalog: catalog).status), "result": record.json]
    }

    static func sse(_ event: JSONValue, name: String) -> String {
        "event: \(name)\ndata: \(event.serialized())\n\n"
    }
}
