import ConditionsCore
import Foundation

/// The hub with history on: streams follow the store's changes by id. A change is heard of
/// (from a poll, or a `ChangeFeed`), then read from the store for the streams that show an
/// older one; a resuming stream first replays what was stored after its Last-Event-ID. A
/// change heard of while a read is under way is read by the next; one read twice is sent once,
/// since each stream only takes changes newer than the one it shows.
extension EventHub {
    /// At most this many stored changes in one replay, and in one read for live streams.
    static let replayLimit = 1000

    /// A change a feed told of: read for the streams of its URN that have not shown it.
    func heard(_ change: RecordedChange) async {
        if state.withLock({ $0.heard(change) }) { await catchUp(change.urn) }
    }

    /// Sends every stream of `urn` that shows a stored change the changes stored after it, up
    /// to the newest heard of. `orElse`: a poll's answer, which those streams get instead when
    /// the store cannot be read (so a poll's change is never lost to a read's failure).
    func catchUp(_ urn: String, orElse answer: (rendered: RenderedResult, at: Date)? = nil) async {
        guard let from = state.withLock({ $0.oldestShown(of: urn) }) else { return }
        let changes: [HistoryChange]
        var firstBefore: String?
        do {
            guard let store = await history?.store() else { throw NoStore() }
            changes = try await store.changes(afterID: from.id, urns: [urn], limit: Self.replayLimit)
            if from.statusUnknown, let first = changes.first { firstBefore = await Self.status(before: first, in: store) }
        } catch {
            logger.warning("events: could not read the changes of \(urn) after \(from.id): \(error)")
            guard let answer, let newID = answer.rendered.changeID else { return }
            let after = ResultState(answer.rendered.record, catalog: coordinator.catalog).status
            var events = EventsByBefore { StreamEvent(.change, answer.rendered, after: after, before: $0, at: answer.at) }
            state.withLock { state in
                for client in state.listeners[urn] ?? [] {
                    guard let stream = state.clients[client], !stream.replaying, let shown = stream.shown[urn], let id = shown.id, id < newID else { continue }
                    state.send(events.event(before: shown.status), to: client)
                }
            }
            return
        }
        state.withLock { $0.deliver(changes, of: urn, firstBefore: firstBefore) }
    }

    private struct NoStore: Error, CustomStringConvertible {
        var description: String { "the history store is not open" }
    }

    /// For a stream resuming after `lastEventID` (subscribed with it): the stored changes of
    /// its URNs since then, oldest first, as SSE text to write before anything of its stream.
    /// At most `replayLimit`: past that, `complete` is false, a comment line says so, and the
    /// stream is to end, so that the client, resuming after the last, gets the rest (an
    /// `EventSource` reconnects by itself) and never a gap. A URN of which nothing is stored
    /// gets its `initial`. Without a store to read, or for an id newer than every change of
    /// the URNs (not one such a stream sent), the stream starts afresh with `initial` events,
    /// after a comment line saying why.
    func replay(_ client: Int, after lastEventID: Int64) async -> (text: [String], complete: Bool) {
        guard let urns = state.withLock({ $0.clients[client]?.urns }) else { return ([], true) }
        guard let store = await history?.store() else {
            return (restart(client, after: lastEventID, because: history == nil ? "this server records no history" : "the history store cannot be read"), true)
        }
        let stored: [HistoryChange]
        do {
            stored = try await store.changes(afterID: lastEventID, urns: urns, limit: Self.replayLimit + 1)
        } catch {
            return (restart(client, after: lastEventID, because: "the history store cannot be read: \(error.reason)"), true)
        }
        // Each URN with nothing to replay: its newest change (0: none stored).
        var quiet: [String: Int64] = [:]
        for urn in Set(urns).subtracting(stored.map(\.urn)) {
            guard let latest = try? await store.changes(urn: urn, from: Date(timeIntervalSince1970: 0), to: .distantFuture, limit: 1) else { continue }
            quiet[urn] = latest.changes.last?.id ?? 0
        }
        if stored.isEmpty, quiet.count == urns.count, let newest = quiet.values.max(), lastEventID > newest {
            // Not an id this stream sent (those are stored, and ids only grow): the store was
            // replaced or pruned, or the id came from another stream. What the client has is
            // unknown, so it gets what a new stream gets.
            return (restart(client, after: lastEventID, because: "no change of these URNs is that recent (newest \(newest))"), true)
        }
        let capped = stored.count > Self.replayLimit
        let changes = stored.prefix(Self.replayLimit)
        // The state before each URN's first change replayed.
        var firstBefore: [String: String] = [:]
        var seen: Set<String> = []
        for change in changes where seen.insert(change.urn).inserted {
            firstBefore[change.urn] = await Self.status(before: change, in: store)
        }
        let (text, behind) = state.withLock { state -> ([String], [String]) in
            guard var stream = state.clients[client] else { return ([], []) }
            var text: [String] = []
            text.reserveCapacity(changes.count + 1)
            for change in changes {
                let shown = stream.shown[change.urn]
                guard change.id > shown?.id ?? 0 else { continue }
                text.append(StreamEvent(stored: change, before: shown?.status ?? firstBefore[change.urn]).sse(withID: true))
                stream.shown[change.urn] = Shown(id: change.id, status: change.status)
                stream.lastEventID = max(stream.lastEventID, change.id)
            }
            if capped {
                text.append(": replay capped at \(Self.replayLimit) changes; resume with Last-Event-ID \(stream.lastEventID) for the rest\n\n")
                state.clients[client] = stream
                return (text, [])
            }
            stream.replaying = false
            // A URN of which nothing is stored (a new one, or a state never stored, such as a
            // URN that routes nowhere) gets its `initial`, as on a new stream: the client cannot
            // have it from a change.
            let unstored = quiet.filter { $0.value == 0 }.keys
            for urn in unstored { stream.shown[urn] = nil }
            state.clients[client] = stream
            for (key, poller) in state.pollers where unstored.contains(key.urn) && poller.subscribers.contains(client) {
                if let latest = poller.latest { state.send(initialEvent(latest, at: Date()), to: client) }
            }
            // Changes heard of during the replay that it may not have read.
            let behind = stream.urns.filter { urn in
                guard let newest = state.newest[urn], let shown = state.clients[client]?.shown[urn]?.id else { return false }
                return newest > shown
            }
            return (text, behind)
        }
        for urn in behind { await catchUp(urn) }
        return (text, !capped)
    }

    /// A resuming stream that cannot replay: it gets the current state as a new stream does.
    private func restart(_ client: Int, after lastEventID: Int64, because reason: String) -> [String] {
        logger.debug("events: cannot resume after \(lastEventID): \(reason)")
        state.withLock { state in
            guard var stream = state.clients[client] else { return }
            stream.replaying = false
            stream.shown = [:]
            stream.lastEventID = 0
            state.clients[client] = stream
            for (_, poller) in state.pollers where poller.subscribers.contains(client) {
                guard let latest = poller.latest else { continue }
                state.send(initialEvent(latest, at: Date()), to: client)
            }
        }
        return [": cannot resume after \(lastEventID): \(reason); the current state follows\n\n"]
    }

    /// The status of the change of `change.urn` stored before it; nil for its first, or when
    /// the store cannot say. Read through the time-window query every store answers
    /// (`/v1/history`'s): the latest changes begun by this one's start are it and the one
    /// before.
    static func status(before change: HistoryChange, in store: any HistoryStoring) async -> String? {
        guard let found = try? await store.changes(urn: change.urn, from: Date(timeIntervalSince1970: 0), to: change.firstSeen, limit: 3) else {
            return nil
        }
        return found.changes.filter { $0.id < change.id }.max { $0.id < $1.id }?.status
    }
}

extension EventHub.State {
    /// The oldest change a live stream of `urn` shows while a newer one was heard of, and
    /// whether any such stream does not know the state it shows (resumed, nothing of the URN
    /// sent yet); nil when every stream is up to date.
    func oldestShown(of urn: String) -> (id: Int64, statusUnknown: Bool)? {
        guard let newest = newest[urn] else { return nil }
        var oldest: (id: Int64, statusUnknown: Bool)?
        for client in listeners[urn] ?? [] {
            guard let stream = clients[client], !stream.replaying, let shown = stream.shown[urn], let id = shown.id, id < newest else { continue }
            oldest = (min(oldest?.id ?? id, id), (oldest?.statusUnknown ?? false) || shown.status == nil)
        }
        return oldest
    }

    /// Sends each live stream of `urn` that shows a stored change the ones of `changes` (its
    /// stored changes, oldest first) newer than that. `firstBefore`: the state before the
    /// first, for a stream that does not know the state it shows.
    mutating func deliver(_ changes: [HistoryChange], of urn: String, firstBefore: String?) {
        var events = changes.map { change in EventsByBefore { StreamEvent(stored: change, before: $0) } }
        for client in listeners[urn] ?? [] {
            for (index, change) in changes.enumerated() {
                guard let stream = clients[client], !stream.replaying, let shown = stream.shown[urn], let id = shown.id, change.id > id else { continue }
                let before = shown.status ?? (index > 0 ? changes[index - 1].status : firstBefore)
                send(events[index].event(before: before), to: client)
            }
        }
    }
}
