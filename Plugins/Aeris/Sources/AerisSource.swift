import ConditionsJSON
import ConditionsKit
import ConditionsMoon
import Foundation

/// The moon and its coming principal phases from the Aeris Weather API (now sold as Xweather).
///
/// Answers `moon:now`, `moon:{date}` (an ISO 8601 date or date-time) and `phases:{count}`
/// (the next 1…100 new, first-quarter, full and last-quarter moons). It needs an Aeris client
/// ID and secret, so `sources.json` declares it without routing to it until keys exist:
///
/// ```json
/// "aeris": {"module": "Aeris",
///           "options": {"clientId": "${AERIS_CLIENT_ID}", "clientSecret": "${AERIS_CLIENT_SECRET}"}}
/// ```
///
/// Moon data: `{"phase", "illumination", "age", "cycle", "rise", "set", "location"}`;
/// phases data: `{"phases": [{"name", "date"}]}`. See `Plugins/Aeris/README.md`.
public struct AerisSource: ConditionsSource {
    /// `"Aeris"`, the `module` name in `sources.json`.
    public static let moduleName = "Aeris"
    /// One line for `conditions sources`.
    public static let summary = "The moon and its coming phases from the Aeris Weather API (needs a client ID and secret)"
    /// `sample.json`, compiled in: what `conditions config init --module Aeris` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// The moon changes slowly and Aeris keys have quotas: three hours.
    public static let defaultTTL: Double = 3 * 3600
    /// Both credentials: the id is not secret by itself, but with the secret it is the
    /// account, and it names the customer in every request URL.
    public static let secretOptions: Set<String> = ["clientId", "clientSecret"]
    /// `moon` and `phases` read as every moon source's do.
    public static let presentations = MoonData.presentations

    /// `moon:now`, `moon:{date}` and `phases:{count}`.
    public let routes: [RoutePattern] = ["moon:now", "moon:{date}", "phases:{count}"]
    /// One URN per route.
    public static let exampleURNs = ["moon:now", "moon:2026-12-04", "phases:5"]

    let settings: AerisSettings

    /// Reads `clientId`, `clientSecret`, `baseURL` and `location` from the instance's options.
    public init(configuration: SourceConfiguration) throws {
        settings = try AerisSettings(options: configuration.options)
    }

    /// Fetches the moon at an instant, or the next principal phases, for the configured place.
    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let place = settings.place ?? context.place
        let client = AerisClient(settings: settings, http: context.http, logger: context.logger)

        if location.arguments["count"] != nil {
            let count = try MoonData.phaseCount(location.argument("count"))
            let elements = try await client.fetch(.moonPhases(from: context.now, limit: count), at: place)
            let phases = try AerisPhase.decodeNext(count, from: elements)
            return SourceResult(data: MoonData.phases(phases.map { ($0.name, $0.date) }), kind: .phases)
        }

        let instant: Date
        if location.arguments["date"] != nil {
            instant = try AerisArguments.instant(location.argument("date"), now: context.now, timeZone: place.timeZone ?? .gmt)
        } else {
            instant = context.now
        }
        let elements = try await client.fetch(.sunMoon(at: instant), at: place)
        let moon = try AerisMoon(element: elements[0])
        return SourceResult(data: moon.json(place: place), kind: .moon)
    }
}
