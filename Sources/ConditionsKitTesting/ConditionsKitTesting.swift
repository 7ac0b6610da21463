// ConditionsKitTesting: what a source module's tests need to exercise it as the host would,
// without the host (in the manner of Hummingbird's HummingbirdTesting):
//
//   RecordingHTTPClient     an `HTTPClient` answering from a script and recording every request
//   SourceContextBuilder    a `SourceContext` with test defaults: a pinned clock, Seattle, no network
//   SourceConfiguration.testing(…)   a configuration from an options object or JSON literal
//   source.resolve("urn", context:)  a URN routed through the source's patterns, then resolved
//   StubURNs                answers for `SourceContext.resolve(_:)`, for sources combining others
//   LoopbackServer          a real HTTP/1.1 server on 127.0.0.1 (re-exported from its target)
//
// ```swift
// import ConditionsKitTesting
// import Testing
// @testable import Tides
//
// @Test func answersAStation() async throws {
//     let source = try TidesSource(configuration: .testing(instance: "tides", json: #"{"units": "metric"}"#))
//     let http = RecordingHTTPClient(["/api/stations/9447130": .json(#"{"height": 1.2}"#)])
//     let result = try await source.resolve("tide:9447130", context: SourceContextBuilder(http: http).build())
//     #expect(result.data["height"] == 1.2)
//     #expect(http.requests.map(\.url.path) == ["/api/stations/9447130"])
// }
// ```

/// The loopback server, so a module's tests reach it through this one import.
@_exported import LoopbackServer
