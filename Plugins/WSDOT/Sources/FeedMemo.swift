import Foundation
import Synchronization

/// The last feed an instance read, shared by every URN that needs it while it is fresh.
///
/// One feed answers every pass, so `pass:all` and each `pass:{name}` should cost one request
/// between them. Within one run the host's HTTP client already coalesces identical requests,
/// but `conditions serve` resolves each URN when it is asked for (a dashboard asks for 17 in
/// a few seconds, each with its own client). So the instance keeps the feed for as long as
/// the host would keep a result of it (`SourceContext.maxAge`, the instance's TTL; nothing
/// when the user asked for fresh data), measured on the report clock. A fetch in flight is
/// joined, not repeated; a failed one is not kept.
final class FeedMemo: Sendable {
    /// A fetched feed and the report instant it was fetched at.
    struct Fetched: Sendable {
        let feed: PassFeed
        let fetchedAt: Date
    }

    private struct Entry {
        let task: Task<Fetched, any Error>
        /// The report instant of the fetch once it succeeded; nil while it runs.
        var fetchedAt: Date?
    }

    private let entry = Mutex<Entry?>(nil)

    /// The kept feed while younger than `maxAge` at `now`, the fetch in flight, or a new `fetch`.
    func feed(now: Date, maxAge: Double, _ fetch: @escaping @Sendable () async throws -> Fetched) async throws -> Fetched {
        guard maxAge > 0 else { return try await fetch() }
        let task = entry.withLock { entry -> Task<Fetched, any Error> in
            if let current = entry {
                guard let fetchedAt = current.fetchedAt else { return current.task }
                let age = now.timeIntervalSince(fetchedAt)
                if age >= 0, age < maxAge { return current.task }
            }
            // Unstructured so one caller's cancellation does not fail the others sharing it;
            // it ends on the source's own HTTP limits.
            let task = Task { try await fetch() }
            entry = Entry(task: task, fetchedAt: nil)
            return task
        }
        do {
            let fetched = try await task.value
            entry.withLock { entry in
                if entry?.task == task, entry?.fetchedAt == nil { entry?.fetchedAt = fetched.fetchedAt }
            }
            return fetched
        } catch {
            entry.withLock { entry in
                if entry?.task == task { entry = nil }
            }
            throw error
        }
    }
}
