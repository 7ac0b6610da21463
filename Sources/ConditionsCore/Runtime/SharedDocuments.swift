import Foundation

/// The fleet documents (docs/caching.md): a store several replicas of `conditions serve`
/// share, so that an upstream document one of
/// them fetched answers the others while it is fresh, and only one of them fetches it: asked
/// first, filled after a fetch, with a lease per document (`UpstreamDocuments` holds the flow).
///
/// Keys are digests (`UpstreamDocuments.key`): no URL, header or credential in clear. The
/// methods do not throw: an implementation answers "nothing stored" (nil, false) when it
/// cannot reach its store, and the replica then fetches for itself. One that takes too long is
/// not waited for beyond its `deadline` either.
package protocol SharedDocuments: Sendable {
    /// How long a request waits for any one call before going on without the store.
    var deadline: Duration { get }
    /// A copy someone stored that is still fresh at `now`.
    func fresh(_ key: String, now: Date) async -> StoredDocument?
    /// Tries to take the lease for `key` for `seconds`; false when another replica holds it.
    func lease(_ key: String, for seconds: Double) async -> Bool
    /// Extends this replica's lease on `key` by `seconds` from now: the holder renews it while
    /// its fetch runs, so a lease can be short and a holder that died is noticed soon.
    func renew(_ key: String, for seconds: Double) async
    /// Stores what this replica fetched, and releases the lease.
    func store(_ key: String, _ document: StoredDocument) async
    /// Releases a lease without storing (the fetch failed, or its answer is not to be kept).
    func release(_ key: String) async
    /// Waits up to `timeout` for another replica to store `key`; nil on timeout, and sooner
    /// once no replica holds its lease (released, or its holder stopped renewing it).
    func awaitStored(_ key: String, timeout: Duration) async -> StoredDocument?
}

/// An upstream's successful answer as a shared store keeps it.
package struct StoredDocument: Sendable, Equatable {
    /// The status code (2xx: nothing else is stored).
    package var status: Int
    /// The response's header fields, names lower-cased (the request's, credentials among them,
    /// are never stored).
    package var headers: [String: String]
    /// The body, decompressed.
    package var body: Data
    /// The URL that answered, after redirects, with secrets in its query masked (`Redaction`):
    /// a store is read by other processes.
    package var url: URL
    /// When it was fetched.
    package var fetchedAt: Date
    /// Until when it may answer.
    package var freshUntil: Date

    package init(status: Int, headers: [String: String], body: Data, url: URL, fetchedAt: Date, freshUntil: Date) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.fetchedAt = fetchedAt
        self.freshUntil = freshUntil
    }
}
