import ConditionsKit

extension HTTPRequest {
    /// What makes two requests the same request, for both layers that share answers (a run's
    /// `CoalescingHTTPClient` and the kept `UpstreamDocuments`): the method, the URL, the header
    /// fields (names in any case, as HTTP reads them) and the retry policy, since a request that
    /// may be repeated more must not share a fetch that gives up sooner.
    package var identity: String {
        let headers = headers.map { ($0.key.lowercased(), $0.value) }.sorted { $0 < $1 }.map { "\($0.0):\($0.1)" }.joined(separator: "\n")
        return "\(method.uppercased())|\(url.absoluteString)|\(headers)|\(retry.attempts) \(retry.statuses.sorted())"
    }
}
