import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// Forecasts and active alerts from the National Weather Service (api.weather.gov, key-less)
/// for the config's places: `forecast:{place}`, `forecast:{place}:hourly`, `alerts:{place}`,
/// and the sky (cloud cover and more, hourly for two days) from the raw grid: `sky:{place}`.
///
/// `{place}` is a name under `places` in `sources.json`, `here` (the config's `location`) or
/// `latitude,longitude`. A point is looked up once (`/points`, kept a day in the instance's
/// memo), then the forecast and grid URLs NWS gives are followed as they are. See Plugins/NWS/README.md.
public struct NWSSource: ConditionsSource {
    /// `"NWS"`.
    public static let moduleName = "NWS"
    /// One line for `conditions sources`.
    public static let summary = "Forecasts, active alerts and the hourly sky from the US National Weather Service (api.weather.gov, key-less)"
    /// `sample.json`, compiled in: what `conditions config init --module NWS` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// Used when NWS sends no `Cache-Control` (it normally does: a few minutes).
    public static let defaultTTL: Double = 300
    /// `forecast` results (daily or hourly periods), `alerts` and `sky` results.
    public static let presentations: [any ResultPresentation] = [ForecastPresentation(), AlertsPresentation(), SkyPresentation()]

    /// How long a point's grid is kept: NWS's mapping rarely changes.
    static let pointLifetime: Double = 86_400

    static let forecastPattern: RoutePattern = "forecast:{place}"
    static let hourlyPattern: RoutePattern = "forecast:{place}:hourly"
    static let alertsPattern: RoutePattern = "alerts:{place}"
    static let skyPattern: RoutePattern = "sky:{place}"
    public let routes = [forecastPattern, hourlyPattern, alertsPattern, skyPattern]

    /// For `--help`: each route for `here`, the configured location.
    public static let exampleURNs = ["forecast:here", "alerts:here", "forecast:here:hourly", "sky:here"]

    /// Each route for the first configured place (or `here` when there is none).
    public var examples: [String] {
        let place = examplePlace
        return ["forecast:\(place)", "forecast:\(place):hourly", "alerts:\(place)", "sky:\(place)"]
    }

    private let settings: NWSSettings
    private let examplePlace: String

    /// Validates `baseURL` and `userAgent`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try NWSSettings(options: &options, hostAgent: configuration.userAgent)
        try options.finish()
        examplePlace = configuration.places.names.first ?? Places.here
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let place = try location.place(in: context.places)
        let client = NWSClient(settings: settings, http: context.http, logger: context.logger)
        if location.pattern == Self.alertsPattern {
            let (alerts, freshness) = try await fetchAlerts(place, client: client)
            return SourceResult(data: [
                "place": place.json, "point": .string(place.nwsPoint.text),
                "updated": JSONValue(alerts.updated), "alerts": .array(alerts.alerts),
            ], kind: .alerts, ttl: freshness)
        }
        if location.pattern == Self.skyPattern {
            let base = settings.baseURL
            let (response, grid) = try await fetchFollowing(place, what: "the sky grid for \(place.id)", client: client, context: context) { $0.gridDataURL(base: base) }
            let sky = try NWSSky(body: response.body, url: response.url, now: context.now)
            return SourceResult(data: .object(JSONObject([
                ("place", place.json), ("point", .string(place.nwsPoint.text)), ("grid", JSONValue(grid.gridText)),
                ("timeZone", JSONValue(grid.timeZone)), ("updated", JSONValue(sky.updated)), ("url", .string(Self.pageURL(place.nwsPoint))),
                ("notes", .array(sky.notes.map(JSONValue.string))), ("hours", .array(sky.hours)),
            ])), kind: .sky, ttl: response.freshness)
        }
        let hourly = location.pattern == Self.hourlyPattern
        // Alerts come with the daily forecast (they read first); asked at once, and a failure
        // to get them is said in the result rather than failing the forecast.
        async let alertsOutcome: Result<(NWSAlerts, Double?), any Error>? = hourly ? nil : Self.outcome { try await fetchAlerts(place, client: client) }
        let (response, grid) = try await fetchForecast(place, hourly: hourly, client: client, context: context)
        let forecast = try NWSForecast(body: response.body, url: response.url)
        var data = JSONObject([
            ("place", place.json), ("point", .string(place.nwsPoint.text)), ("hourly", .bool(hourly)),
            ("grid", JSONValue(grid.gridText)), ("nearby", JSONValue(grid.nearby)), ("timeZone", JSONValue(grid.timeZone)),
            ("updated", JSONValue(forecast.updated)),
            // Whole seconds since NWS updated it, so a forecast kept or replayed long after says so.
            ("age", JSONValue(forecast.updated.map { Int(context.now.timeIntervalSince($0).rounded()) })),
            ("generatedAt", JSONValue(forecast.generatedAt)),
            ("elevationM", JSONValue(forecast.elevationM)), ("url", .string(Self.pageURL(place.nwsPoint))),
        ])
        var freshness = response.freshness
        switch await alertsOutcome {
        case .success(let (alerts, alertsFreshness))?:
            data["alerts"] = .array(alerts.alerts)
            freshness = [freshness, alertsFreshness].compactMap { $0 }.min()
        case .failure(let error)?:
            data["alerts"] = .null
            data["alertsError"] = .string(ConditionsError.report(error).message)
            // A forecast without its alerts should not be kept as long as a whole one.
            freshness = min(freshness ?? Self.defaultTTL, 60)
        case nil:
            break
        }
        data["periods"] = .array(forecast.periods)
        return SourceResult(data: .object(data), kind: .forecast, ttl: freshness)
    }

    /// The forecast (or hourly forecast) document for `place`, by the URL its point's grid gives.
    private func fetchForecast(_ place: PlacePoint, hourly: Bool, client: NWSClient, context: SourceContext) async throws -> (HTTPResponse, NWSGrid) {
        try await fetchFollowing(place, what: "the \(hourly ? "hourly " : "")forecast for \(place.id)", client: client, context: context) {
            hourly ? $0.forecastHourly : $0.forecast
        }
    }

    /// The document at the URL `pick` takes from the grid of `place`'s point. When that URL is
    /// gone (404) and the grid came from the memo, the point is looked up afresh once: NWS does
    /// move points between grids. A kept grid `pick` finds no URL in (an entry kept by an
    /// older version) is looked up afresh too.
    private func fetchFollowing(_ place: PlacePoint, what: String, client: NWSClient, context: SourceContext,
                                url pick: (NWSGrid) -> URL?) async throws -> (HTTPResponse, NWSGrid) {
        let grid = try await lookUp(place.nwsPoint, client: client, context: context, maxAge: Self.pointLifetime)
        guard let url = pick(grid) else {
            let fresh = try await lookUp(place.nwsPoint, client: client, context: context, maxAge: 0)
            guard let freshURL = pick(fresh) else {
                throw ConditionsError.badResponse("\(Redaction.redact(settings.pointsURL(place.nwsPoint))): no URL for \(what) (properties.forecastGridData, or gridId, gridX and gridY)")
            }
            let response = try await client.get(freshURL, what: what)
            return (response, fresh)
        }
        // Each response is awaited before its tuple is built (see WSDOTPassSource.fetchPages: swiftlang/swift#91911).
        do {
            let response = try await client.get(url, what: what)
            return (response, grid)
        } catch where Self.isGone(error) {
            let fresh = try await lookUp(place.nwsPoint, client: client, context: context, maxAge: 0)
            guard let freshURL = pick(fresh), freshURL != url else { throw error }
            context.logger.info("NWS moved \(place.nwsPoint.text) to another grid; following \(Redaction.redact(freshURL))")
            let response = try await client.get(freshURL, what: what)
            return (response, fresh)
        }
    }

    /// The grid of `point`: from the memo while younger than `maxAge`, else from `/points`.
    private func lookUp(_ point: NWSPoint, client: NWSClient, context: SourceContext, maxAge: Double) async throws -> NWSGrid {
        let url = settings.pointsURL(point)
        let kept = try await context.memo.value(for: "points/\(point.text)", maxAge: maxAge, now: context.now) {
            let response = try await client.get(url, what: "the point \(point.text)")
            return try NWSGrid(pointsBody: response.body, url: response.url).json
        }
        if let grid = NWSGrid(json: kept) { return grid }
        // A kept value this version cannot read (a damaged cache file): ask again.
        guard maxAge > 0 else { throw ConditionsError.badResponse("\(Redaction.redact(url)): the point's grid could not be read") }
        return try await lookUp(point, client: client, context: context, maxAge: 0)
    }

    private func fetchAlerts(_ place: PlacePoint, client: NWSClient) async throws -> (NWSAlerts, Double?) {
        let response = try await client.get(settings.alertsURL(place.nwsPoint), what: "the alerts for \(place.id)")
        let alerts = try NWSAlerts(body: response.body, url: response.url)
        return (alerts, response.freshness)
    }

    private static func outcome<T: Sendable>(_ work: () async throws -> T) async -> Result<T, any Error>? {
        do { return .success(try await work()) } catch { return .failure(error) }
    }

    /// A 404 (or 410) for a URL a grid gave: the grid may have moved.
    private static func isGone(_ error: any Error) -> Bool {
        switch error {
        case let error as ConditionsError: return error.kind == .notFound
        case HTTPError.status(let code, _, _): return code == 404 || code == 410
        default: return false
        }
    }

    /// NWS's page for people about the same point.
    static func pageURL(_ point: NWSPoint) -> String {
        "https://forecast.weather.gov/MapClick.php?lat=\(NWSPoint.format(point.latitude))&lon=\(NWSPoint.format(point.longitude))"
    }
}

extension ResultKind {
    /// `forecast:{place}` and `forecast:{place}:hourly` data: periods (with the active alerts, daily).
    public static let forecast: ResultKind = "forecast"
    /// `alerts:{place}` data: the active alerts at the place.
    public static let alerts: ResultKind = "alerts"
    /// `sky:{place}` data: sky cover, chance of precipitation, humidity and visibility per hour
    /// for 48 hours. `night:` (Astronomy) reads `hours[].time` and `hours[].skyCover`: keep them.
    public static let sky: ResultKind = "sky"
}
