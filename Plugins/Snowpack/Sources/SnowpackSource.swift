import ConditionsHelpers
import ConditionsJSON
import ConditionsKit
import ConditionsMemo
import ConditionsText
import Foundation

/// Snow depth, snow water equivalent and air temperature from NRCS SNOTEL stations through the
/// AWDB REST API (key-less): `snowpack:{place}` (the nearest active station) and
/// `snowpack:station:{id}:{state}:{network}`.
///
/// The station list (`/stations`, every active SNOTEL station of the configured states in one
/// request) is kept a day in the source memo, which outlives a run where the cache is on. Each
/// station's 14 days of hourly values come in one `/data` request whose URL depends only on
/// the station and the PST day, kept in the instance for the TTL, so URNs resolving to one
/// station share it. See Plugins/Snowpack/README.md.
public struct SnowpackSource: ConditionsSource {
    public static let moduleName = "Snowpack"
    public static let summary = "Snow depth, SWE and their 24 h / 72 h / 7 day change from the nearest NRCS SNOTEL station (AWDB, key-less)"
    /// `sample.json`, compiled in: what `conditions config init --module Snowpack` prints.
    public static let sampleConfig: String? = String(decoding: PackageResources.sample_json, as: UTF8.self)
    /// SNOTEL reports hourly: an hour keeps a result no older than the next reading.
    public static let defaultTTL: Double = 3600
    /// What this module's results are; the host finds their presentation by it.
    public static let kind: ResultKind = .snowpack
    public static let presentations: [any ResultPresentation] = [SnowpackPresentation()]

    static let placePattern: RoutePattern = "snowpack:{place}"
    static let stationPattern: RoutePattern = "snowpack:station:{id}:{state}:{network}"
    public let routes: [RoutePattern] = [Self.placePattern, Self.stationPattern]

    public static let exampleURNs = ["snowpack:station:791:WA:SNTL", "snowpack:here"]

    /// Stevens Pass by triplet, then the first configured place (or `here`).
    public var examples: [String] { ["snowpack:station:791:WA:SNTL", "snowpack:\(examplePlace)"] }

    /// How long the station list is kept in the memo: stations come and go once a season.
    static let stationListLifetime: Double = 86_400

    private let settings: SnowpackSettings
    private let examplePlace: String
    /// Each station's hourly values by data URL, shared by URNs resolved within the TTL.
    private let series = FreshValues<StationSeries>(capacity: 64)

    /// Validates `baseURL`, `states` and `maxDistanceKm`; errors name the option's JSON path.
    public init(configuration: SourceConfiguration) throws {
        var options = configuration.options
        settings = try SnowpackSettings(options: &options)
        try options.finish()
        examplePlace = configuration.places.names.first ?? Places.here
    }

    public func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let api = JSONAPI(http: context.http, upstream: "NRCS AWDB")
        let today = PacificStandardTime.day(context.now)
        let station: Station
        let place: JSONValue
        if location.pattern == Self.stationPattern {
            let triplet = try StationTriplet(id: try location.argument("id"), state: try location.argument("state"), network: try location.argument("network"))
            let list = try await stations(states: [triplet.state], network: triplet.network, api: api, context: context, today: today)
            guard let found = list.station(triplet) else {
                throw ConditionsError.notFound("NRCS AWDB lists no active station \(triplet.text) among the \(list.stations.count) active \(triplet.network) stations of \(triplet.state)")
            }
            station = found
            place = .null
        } else {
            let argument = try location.place(in: context.places, otherwise: "station:{id}:{state}:{network}")
            let list = try await stations(states: settings.states, network: StationTriplet.snotel, api: api, context: context, today: today)
            guard let (nearest, km) = list.nearest(to: argument.point) else {
                throw ConditionsError.notFound("NRCS AWDB lists no active SNOTEL stations in \(settings.states.joined(separator: ", ")) (\(settings.optionsPath).states)")
            }
            guard km <= settings.maxDistanceKm else {
                throw ConditionsError.notFound(
                    "\(argument.label) is \(String(format: "%.0f", km)) km from the nearest active SNOTEL station in \(settings.states.joined(separator: ", ")) (\(nearest.name), \(nearest.triplet.text)); more than \(JSONValue.format(settings.maxDistanceKm)) km is too far (\(settings.optionsPath).maxDistanceKm; a state is added in \(settings.optionsPath).states)",
                    suggestions: ["snowpack:station:\(nearest.triplet.id):\(nearest.triplet.state):\(nearest.triplet.network)"])
            }
            station = nearest
            place = argument.json(distanceKm: km)
        }
        let fetched = try await readings(of: station, today: today, api: api, context: context)
        let report = SnowpackReport(station: station, readings: fetched.readings, place: place, now: context.now)
        return SourceResult(data: report.json, kind: Self.kind, ttl: fetched.freshness)
    }

    /// The active stations of `network` in `states`: from the memo while younger than a day,
    /// else one `/stations` request for them all.
    private func stations(states: [String], network: String, api: JSONAPI, context: SourceContext,
                          today: CivilDate, maxAge: Double = Self.stationListLifetime) async throws -> StationList {
        let url = settings.stationsURL(states: states, network: network)
        let what = "the \(network) station list of \(states.joined(separator: ", "))"
        let kept = try await context.memo.value(for: "stations/\(network)/\(states.joined(separator: ","))", maxAge: maxAge, now: context.now) {
            context.logger.debug("fetching the AWDB station list", metadata: ["url": "\(Redaction.redact(url))"])
            let (document, _) = try await api.json(url, what: what)
            return try StationList(document: document, source: Redaction.redact(url), today: today).json
        }
        if let list = StationList(kept: kept) { return list }
        // A kept value this version cannot read (a damaged cache file): ask again.
        guard maxAge > 0 else { throw ConditionsError.badResponse("\(Redaction.redact(url)): \(what) could not be read") }
        return try await stations(states: states, network: network, api: api, context: context, today: today, maxAge: 0)
    }

    /// The station's hourly values of the 14 days to `today`: one request per station, kept
    /// for as long as the host keeps a result (nothing when fresh data is asked for).
    private func readings(of station: Station, today: CivilDate, api: JSONAPI, context: SourceContext) async throws -> StationSeries {
        let url = settings.dataURL(triplet: station.triplet, today: today)
        let fetch: @Sendable () async throws -> FreshValues<StationSeries>.Made = {
            context.logger.debug("fetching AWDB hourly data", metadata: ["url": "\(Redaction.redact(url))"])
            let (document, freshness) = try await api.json(url, what: "the data of \(station.triplet.text)")
            let readings = try StationReadings(document: document, triplet: station.triplet, source: Redaction.redact(url))
            return FreshValues<StationSeries>.Made(value: StationSeries(readings: readings, freshness: freshness), madeAt: context.now)
        }
        return try await series.made(for: url.absoluteString, in: context, make: fetch).value
    }
}

/// A station's parsed `/data` answer and the response's freshness.
struct StationSeries: Sendable {
    let readings: StationReadings
    let freshness: Double?
}

extension ResultKind {
    /// `snowpack:` data: a SNOTEL station's depth, SWE, their changes, air temperature.
    public static let snowpack: ResultKind = "snowpack"
}
