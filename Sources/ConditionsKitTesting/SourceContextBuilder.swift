import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import Foundation
import Logging

extension Place {
    /// Seattle, 47.6097,-122.3331 in America/Los_Angeles: the place the test builders default to.
    public static let seattle = Place(name: "Seattle", latitude: 47.6097, longitude: -122.3331,
                                      timeZone: TimeZone(identifier: "America/Los_Angeles"))
}

/// Builds the `SourceContext` a source receives with each request, as the host would make it,
/// with defaults for tests: a pinned clock, Seattle, a logger, and no network unless given a
/// client. Change what a test is about and `build()`; a builder may build many contexts.
///
/// ```swift
/// let http = RecordingHTTPClient(.json(#"{"ok": true}"#))
/// var builder = SourceContextBuilder(http: http, maxAge: 300).keepingValues()
/// let first = try await source.resolve("tide:seattle", context: builder.build())
/// builder.now += 60                       // a minute later, the same memo
/// let second = try await source.resolve("tide:seattle", context: builder.build())
/// ```
public struct SourceContextBuilder: Sendable {
    /// The clock the builder pins by default: 2026-11-21T14:05:00Z.
    public static let defaultNow = Date(timeIntervalSince1970: 1_795_269_900)

    /// The instant the report is about (`SourceContext.now`).
    public var now: Date
    /// The config's location.
    public var place: Place
    /// The config's named places and `here`; nil: only `here`, the `place`.
    public var places: Places?
    /// The logger the source logs to.
    public var logger: Logger
    /// The client the source fetches with; by default none (every request fails, saying so).
    public var http: any HTTPClient
    /// The source's limits.
    public var limits: HTTPLimits
    /// Seconds an upstream document fetched for an earlier URN may be reused (the instance's TTL).
    public var maxAge: Double
    /// What the source keeps between URNs; nil: nothing is kept. `keepingValues()` sets one.
    public var memo: SourceMemo?
    /// Answers for `SourceContext.resolve(_:)` (a `StubURNs`); nil: every other URN fails.
    public var urns: (any URNResolving)?

    /// A builder; every argument left out takes the test default.
    public init(now: Date = SourceContextBuilder.defaultNow, place: Place = .seattle, places: Places? = nil,
                logger: Logger = Logger(label: "conditions-tests"),
                http: any HTTPClient = UnavailableHTTPClient(reason: "this test gives its source no network"),
                limits: HTTPLimits = HTTPLimits(), maxAge: Double = 0,
                memo: SourceMemo? = nil, urns: (any URNResolving)? = nil) {
        self.now = now
        self.place = place
        self.places = places
        self.logger = logger
        self.http = http
        self.limits = limits
        self.maxAge = maxAge
        self.memo = memo
        self.urns = urns
    }

    /// This builder with `memory` (by default a new, empty one, as the host keeps per instance)
    /// as its memo: the contexts it builds share what the source keeps between URNs.
    public func keepingValues(in memory: FreshValues<JSONValue> = FreshValues()) -> SourceContextBuilder {
        var copy = self
        copy.memo = memory.memo
        return copy
    }

    /// The context.
    public func build() -> SourceContext {
        SourceContext(now: now, place: place, places: places, logger: logger, http: http, limits: limits,
                      maxAge: maxAge, memo: memo, urns: urns)
    }
}
