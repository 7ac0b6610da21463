import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Foundation

/// The last feed an instance read, shared by every URN that needs it while it is fresh.
///
/// One feed answers every pass, so `pass:all` and each `pass:{name}` should cost one request
/// between them. Within one run the host's HTTP client already coalesces identical requests,
/// but `conditions serve` resolves each URN when it is asked for (a dashboard asks for 17 in
/// a few seconds, each with its own client). So the instance keeps the feed for as long as
/// the host would keep a result of it (`SourceContext.maxAge`, the instance's TTL; nothing
/// when the user asked for fresh data), measured on the report clock. A fetch in flight is
/// joined, not repeated; a failed one is not kept. (The context's `memo` keeps JSON across
/// runs; a parsed feed is kept here, in memory, instead.)
struct FeedMemo: Sendable {
    typealias Fetched = FreshValues<PassFeed>.Made

    private let kept = FreshValues<PassFeed>(capacity: 1)

    /// The kept feed while younger than `maxAge` at `now`, the fetch in flight, or a new `fetch`.
    func feed(now: Date, maxAge: Double, _ fetch: @escaping @Sendable () async throws -> Fetched) async throws -> Fetched {
        guard maxAge > 0 else { return try await fetch() }
        return try await kept.made(for: "feed", maxAge: maxAge, now: now, make: fetch)
    }
}
