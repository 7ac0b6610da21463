import Synchronization

/// A change committed to the history store: which URN, and its id there (`HistoryChange.id`).
package struct RecordedChange: Sendable, Hashable {
    /// The URN as observed.
    package let urn: String
    /// The change's id in the store.
    package let id: Int64

    package init(urn: String, id: Int64) {
        self.urn = urn
        self.id = id
    }
}

/// News of changes as they are committed, from wherever they were recorded: this process's
/// recorder (`LocalChangeFeed`), or, for a store several servers share, whatever tells one
/// replica what another recorded (a PostgreSQL `LISTEN` carrying each `NOTIFY`'s URN and id).
/// A feed only says which change is new; whoever listens reads the change from the store, so a
/// lost or repeated notice costs nothing but a later or a needless read.
package protocol ChangeFeed: Sendable {
    /// The changes committed from now on, until the consumer stops iterating.
    func changes() -> AsyncStream<RecordedChange>
}

/// The changes this process's recorder commits, told to every listener in process.
package final class LocalChangeFeed: ChangeFeed {
    private struct Listeners {
        var next = 0
        var continuations: [Int: AsyncStream<RecordedChange>.Continuation] = [:]
    }

    private let listeners = Mutex(Listeners())
    /// A listener further behind than this loses the oldest notices: it will read them with
    /// the next notice of the same URN, from the store.
    static let buffered = 4096

    package init() {}

    package func changes() -> AsyncStream<RecordedChange> {
        let (stream, continuation) = AsyncStream<RecordedChange>.makeStream(bufferingPolicy: .bufferingNewest(Self.buffered))
        let id = listeners.withLock { listeners in
            defer { listeners.next += 1 }
            listeners.continuations[listeners.next] = continuation
            return listeners.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells every listener of `changes`, in order.
    package func publish(_ changes: [RecordedChange]) {
        guard !changes.isEmpty else { return }
        let continuations = listeners.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            for change in changes { continuation.yield(change) }
        }
    }
}
