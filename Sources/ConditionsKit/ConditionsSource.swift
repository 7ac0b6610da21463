import ConditionsJSON
import ConditionsText
import Foundation
import Logging

/// A source module: something that answers URNs such as `pass:{name}` with result data.
///
/// A module is a type conforming to this protocol, living in its own target under `Plugins/`
/// and depending only on `ConditionsKit` (and the shared toolkits). The host creates one
/// instance per entry in `sources.json` whose `"module"` equals `moduleName`, and routes to it
/// every URN scheme bound to that entry.
///
/// ```swift
/// public struct TidesSource: ConditionsSource {
///     public static let moduleName = "Tides"
///     public static let summary = "Tide predictions from NOAA"
///     public let routes: [RoutePattern] = ["tide:{station}"]
///
///     public init(configuration: SourceConfiguration) throws {
///         var options = configuration.options
///         try options.finish()
///     }
///
///     public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
///         let station = try location.argument("station")
///         return SourceResult(data: ["station": .string(station)], kind: "tide")
///     }
/// }
/// ```
public protocol ConditionsSource: Sendable {
    /// The name `sources.json` uses in `"module"`.
    static var moduleName: String { get }
    /// One line saying what the module serves, shown by `conditions sources`.
    static var summary: String { get }

    /// Creates an instance from its `sources.json` entry, validating its options.
    init(configuration: SourceConfiguration) throws

    /// The patterns this instance answers. A pattern whose first segment is a placeholder
    /// (`{scheme}:{name}`) answers every scheme routed to the instance.
    var routes: [RoutePattern] { get }

    /// How long a result stays fresh in the on-disk cache, in seconds, unless `sources.json`
    /// says otherwise (`"ttl"`) or the result does (`SourceResult.ttl`); 0 (the default) means
    /// results are not cached — right for sources that compute or read local files.
    static var defaultTTL: Double { get }

    /// Example URNs any instance answers whatever its options, for the program's `--help`;
    /// an instance's `examples` default to them. Empty by default.
    static var exampleURNs: [String] { get }

    /// Example URNs this instance can answer, used for "did you mean" suggestions,
    /// `conditions routes`, and the examples the server and MCP show; `exampleURNs` by default.
    var examples: [String] { get }

    /// The URN schemes this instance resolves through the host (`SourceContext.resolve`) to
    /// combine other sources' answers; a config that routes none of them is refused at load
    /// and by `conditions check`. Empty by default.
    var requiredSchemes: [String] { get }

    /// The names of this module's options whose values are secrets: credentials, access
    /// codes, tokens. Empty by default.
    ///
    /// The host masks their values as `REDACTED` in every output line, error and log
    /// message, whether the config writes them literally or as `${ENV}` references, and
    /// never writes them to the cache (cache keys are hashes). For a string option the value
    /// is the secret; for an object option (a set of environment variables, say) each string
    /// member whose name looks secret (`…KEY`, `…TOKEN`, `…SECRET`, `…PASSWORD`; see
    /// `Redaction.isSensitive`) is, so ordinary members such as `LANG` stay readable.
    ///
    /// ```swift
    /// public struct TidesSource: ConditionsSource {
    ///     public static let secretOptions: Set<String> = ["apiKey"]
    ///     …
    /// }
    /// ```
    static var secretOptions: Set<String> { get }

    /// How this module's kinds of result read as text and what `watch` compares in them, one
    /// presentation per `ResultKind` its results carry. Empty by default: results then read
    /// as generic key/value lines and any change in their data is a change.
    ///
    /// Presentations are looked up by kind across every registered module, so a kind's
    /// presentation applies wherever its results come from (a Fixtures replay, a cache entry).
    /// Two modules producing the same kind share one presentation (the moon kinds' is
    /// `MoonData.presentations`).
    static var presentations: [any ResultPresentation] { get }

    /// This module's sample configuration, as Telegraf's `sample.conf`: a `{"sources": …,
    /// "routes": …}` fragment showing its options with sensible values (secrets as `${ENV}`),
    /// which `conditions config init --module` prints to merge into `sources.json`. By
    /// convention the plugin's `sample.json`, compiled in (`.embedInCode`). Nil by default.
    static var sampleConfig: String? { get }

    /// What this instance needs beyond its options, each checked now: a program it runs, a
    /// folder it reads. `conditions doctor` prints them beside the live request it makes to
    /// the instance; the host knows no module's needs. None by default.
    func healthChecks() async -> [HealthCheck]

    /// Answers a URN the router matched to one of `routes`. Throw `ConditionsError`
    /// (`.invalidArguments`, `.notFound` with suggestions, `.upstream`, `.badResponse`) or
    /// `HTTPError`; any error fails this URN only.
    func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult
}

extension ConditionsSource {
    /// None.
    public static var exampleURNs: [String] { [] }
    /// The type's `exampleURNs`.
    public var examples: [String] { Self.exampleURNs }
    /// None: the source combines no others.
    public var requiredSchemes: [String] { [] }
    /// 0: results are not cached.
    public static var defaultTTL: Double { 0 }
    /// No secret options.
    public static var secretOptions: Set<String> { [] }
    /// No presentations of its own: results read as generic key/value lines.
    public static var presentations: [any ResultPresentation] { [] }
    /// No sample configuration.
    public static var sampleConfig: String? { nil }
    /// Nothing to check beyond the live request.
    public func healthChecks() async -> [HealthCheck] { [] }
}

/// What a module's initializer receives: its instance id, its options and the config's context.
public struct SourceConfiguration: Sendable {
    /// The instance id (the key under `sources`).
    public let instance: String
    /// The instance's `options` object, `${ENV}` references already substituted.
    public var options: SourceOptions
    /// The folder holding the config file; relative paths resolve against it.
    public let configDirectory: URL
    /// The config's top-level location.
    public let place: Place
    /// The config's named places and `here` (the location).
    public let places: Places
    /// How the host names itself to upstreams, `conditions/<version>`: the User-Agent its HTTP
    /// client sends unless a request sets its own, for a source that builds one on it.
    public let userAgent: String
    /// A logger labelled with the instance id.
    public let logger: Logger

    /// A configuration; the host makes these, tests may too. `places` nil: only `here`, the `place`.
    public init(instance: String, options: SourceOptions, configDirectory: URL, place: Place, places: Places? = nil,
                userAgent: String = "conditions", logger: Logger) {
        self.instance = instance
        self.options = options
        self.configDirectory = configDirectory
        self.place = place
        self.places = places ?? Places(location: place)
        self.userAgent = userAgent
        self.logger = logger
    }
}

/// What a source receives with each request.
public struct SourceContext: Sendable {
    /// The instant the report is about: the real clock, or `--now` when pinned. Use this, never `Date()`.
    public let now: Date
    /// The config's location.
    public let place: Place
    /// The config's named places and `here` (the location).
    public let places: Places
    /// A logger labelled with the instance id.
    public let logger: Logger
    /// The HTTP client, configured with this source's limits.
    public let http: any HTTPClient
    /// This source's limits (`sources.<id>.http`), for work a source does outside `http`
    /// (a browser rendering a page obeys the same timeout, size cap and concurrency).
    public let limits: HTTPLimits
    /// Seconds an upstream document this source fetched for an earlier URN may be old (by
    /// `now`) and still answer this one: the instance's TTL, or 0 when the user asked for
    /// nothing cached (`--no-cache`, `--refresh`, caching disabled). A source that reads one
    /// document for many URNs (WSDOT's feed) shares it within this age, never beyond.
    public let maxAge: Double

    /// Answers this instance keeps between URNs and runs (`SourceMemo`): lookups that rarely change.
    public let memo: SourceMemo
    /// Resolves other URNs for a source that combines them; nil: none can be (`resolve` fails each).
    public let urns: (any URNResolving)?

    /// A context; the host makes these, tests may too. `places` nil: only `here`, the `place`;
    /// `memo` nil: nothing is kept (a test wanting values kept passes `FreshValues<JSONValue>().memo`); `urns`
    /// nil: no other URN resolves.
    public init(now: Date, place: Place, places: Places? = nil, logger: Logger, http: any HTTPClient, limits: HTTPLimits = HTTPLimits(),
                maxAge: Double = 0, memo: SourceMemo? = nil, urns: (any URNResolving)? = nil) {
        self.urns = urns
        self.now = now
        self.place = place
        self.places = places ?? Places(location: place)
        self.logger = logger
        self.http = http
        self.limits = limits
        self.maxAge = maxAge
        self.memo = memo ?? .unkept
    }
}

extension SourceContext {
    /// Resolves other URNs through the host, for a source that combines them (list their
    /// schemes in `requiredSchemes`): the answers a report would give, from the same cache and
    /// limits, in the order asked. A URN that is already being resolved further up (a cycle)
    /// or lies too many combinations deep fails with `ErrorKind.configuration`.
    /// Name what was used in the result (`SourceResult.inputs`, from `ResolvedURN.input`).
    public func resolve(_ urns: [String]) async -> [ResolvedURN] {
        guard let resolver = self.urns else {
            return urns.map { ResolvedURN(urn: $0, source: nil, result: .failure(ConditionsError(.configuration, "no host resolves other URNs here"))) }
        }
        return await resolver.resolve(urns)
    }
}

/// A source's answer to one URN.
public struct SourceResult: Sendable {
    /// The result `data` (its shape is the source's documented contract).
    public var data: JSONValue
    /// What the data is, naming the presentation it reads through; nil: generic key/value text.
    public var kind: ResultKind?
    /// When the data was fetched from its origin; nil means now (the context's clock).
    public var fetchedAt: Date?
    /// Seconds the result stays fresh when the upstream says so (`HTTPResponse.freshness`, its
    /// `Cache-Control: max-age`); nil: the instance's TTL. A `ttl` written in `sources.json` wins.
    public var ttl: Double?
    /// The URNs a combined result was made from (`SourceContext.resolve`); empty for others.
    public var inputs: [Input]

    /// A result holding `data` of `kind`, fetched at `fetchedAt` (nil: now), fresh for `ttl`
    /// seconds (nil: the instance's TTL), made from `inputs`.
    public init(data: JSONValue, kind: ResultKind? = nil, fetchedAt: Date? = nil, ttl: Double? = nil, inputs: [Input] = []) {
        self.data = data
        self.kind = kind
        self.fetchedAt = fetchedAt
        self.ttl = ttl
        self.inputs = inputs
    }
}
