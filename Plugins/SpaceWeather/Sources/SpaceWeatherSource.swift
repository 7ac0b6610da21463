import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import ConditionsText
import Foundation

/// Geomagnetic activity and the aurora forecast from NOAA's Space Weather Prediction Center
/// (key-less): `aurora:now` (Kp observed, and the highest Kp of the next 24 hours and 3 days
/// with its G-level) and `aurora:{place}` (the same, and the OVATION probability of aurora at
/// the place's grid cell).
///
/// Both Kp products are read in SWPC's form before its 2026 change and after, whichever
/// arrives. Each document is kept in the instance for the TTL, so URNs resolved at once share
/// one request; the 0.9 MB OVATION grid is parsed once into a table by cell and kept for at most
/// 5 minutes, as SWPC remakes it every few. See Plugins/SpaceWeather/README.md.
public struct SpaceWeatherSource: ConditionsSource {
    public static let moduleName = "SpaceWeather"
    public static let summary = "Kp observed and forecast with the NOAA G-scale, and the OVATION aurora probability at a place (NOAA SWPC, key-less)"
    /// `sample.json`, compiled in: what `conditions config init --module SpaceWeather` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// The OVATION forecast is remade every few minutes; Kp every 3 hours.
    public static let defaultTTL: Double = 300
    /// What this module's results are; the host finds their presentation by it.
    public static let kind: ResultKind = .aurora
    public static let presentations: [any ResultPresentation] = [AuroraPresentation()]

    static let nowPattern: RoutePattern = "aurora:now"
    public let routes: [RoutePattern] = [Self.nowPattern, "aurora:{place}"]

    public static let exampleURNs = ["aurora:now", "aurora:here"]

    /// `aurora:now`, then the first configured place (or `here`).
    public var examples: [String] { ["aurora:now", "aurora:\(examplePlace)"] }

    /// How long a parsed OVATION grid is used at most, whatever the TTL.
    static let gridLifetime: Double = 300

    private let settings: SpaceWeatherSettings
    private let examplePlace: String
    private let series = FreshValues<KpSeries>(capacity: 4)
    private let grids = FreshValues<OvationGrid>(capacity: 1)

    /// Validates `baseURL`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try SpaceWeatherSettings(options: &options)
        try options.finish()
        examplePlace = configuration.places.names.first ?? Places.here
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        // The place is read before any request: a bad one costs nothing.
        let place = location.pattern == Self.nowPattern ? nil : try location.place(in: context.places, otherwise: "now")
        let api = JSONAPI(http: context.http, upstream: "NOAA SWPC")
        async let observed = kp(settings.kpURL, what: "the planetary K-index", api: api, context: context)
        async let forecast = kp(settings.forecastURL, what: "the planetary K-index forecast", api: api, context: context)
        let grid: OvationGrid? = place == nil ? nil : try await ovation(api: api, context: context)
        let report = AuroraReport(observed: try await observed, forecast: try await forecast, place: place, grid: grid, now: context.now)
        return SourceResult(data: report.json, kind: Self.kind)
    }

    /// A Kp product, parsed; kept for the TTL (nothing kept when fresh data is asked for).
    private func kp(_ url: URL, what: String, api: JSONAPI, context: SourceContext) async throws -> KpSeries {
        let make: @Sendable () async throws -> FreshValues<KpSeries>.Made = {
            context.logger.debug("fetching an SWPC Kp product", metadata: ["url": "\(Redaction.redact(url))"])
            let (document, _) = try await api.json(url, what: what)
            return .init(value: try KpSeries(document: document, what: what, source: Redaction.redact(url)), madeAt: context.now)
        }
        return try await series.made(for: url.absoluteString, in: context, make: make).value
    }

    /// The OVATION grid, parsed once per document and kept for at most `gridLifetime`.
    private func ovation(api: JSONAPI, context: SourceContext) async throws -> OvationGrid {
        let url = settings.ovationURL
        let make: @Sendable () async throws -> FreshValues<OvationGrid>.Made = {
            context.logger.debug("fetching the OVATION aurora forecast", metadata: ["url": "\(Redaction.redact(url))"])
            let (document, _) = try await api.json(url, what: "the OVATION aurora forecast")
            return .init(value: try OvationGrid(document: document, source: Redaction.redact(url)), madeAt: context.now)
        }
        return try await grids.made(for: url.absoluteString, in: context, maxAge: min(context.maxAge, Self.gridLifetime), make: make).value
    }
}

extension ResultKind {
    /// `aurora:` data: Kp observed, the next 24 hours' and 3 days' highest Kp with its G-level,
    /// and at a place the OVATION aurora probability.
    public static let aurora: ResultKind = "aurora"
}
