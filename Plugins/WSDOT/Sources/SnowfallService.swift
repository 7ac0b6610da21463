import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import ConditionsPass

/// `snowfall:{pass}` and `snowfall:{pass}:{season}`: a season's daily snowfall at one pass, from
/// WSDOT's SnowFallData service (`{snowfallURL}?MountainPassId={id}&Year={season}`, key-less),
/// in every mode of the module.
struct SnowfallService: Sendable {
    /// The routes, added to the module's own.
    static let routes = [currentPattern, seasonPattern]
    static let currentPattern: RoutePattern = "snowfall:{pass}"
    static let seasonPattern: RoutePattern = "snowfall:{pass}:{season}"
    /// The URN scheme, which is also the result kind's name.
    static let scheme = "snowfall"
    /// WSDOT's service, the `snowfallURL` option's default.
    static let defaultURL = URL(string: "https://wsdot.com/Travel/Real-time/Service/api/MountainPass/SnowFallData")!
    /// The passes the service has records for (WSDOT ids 1, 9, 10, 11 and 12), in id order.
    static let recordedPasses: [MountainPass] = [1, 9, 10, 11, 12].compactMap { PassCatalog.pass(id: $0) }

    /// The service's address (`snowfallURL`).
    let baseURL: URL
    /// A pass's public page, linked from the result.
    let pageURL: @Sendable (MountainPass) -> URL

    /// Answers a URN matched to one of `routes`.
    func resolve(_ location: Location, context: SourceContext) async throws -> SourceResult {
        let pass = try Self.recordedPass(named: try location.argument("pass"))
        let current = SnowfallSeason.current(at: context.now)
        let season = location.pattern == Self.seasonPattern ? try SnowfallSeason.named(try location.argument("season"), now: context.now) : current
        let url = Self.requestURL(base: baseURL, passID: pass.id, season: season)
        let shown = Redaction.redact(url)
        context.logger.debug("fetching WSDOT snowfall", metadata: ["pass": "\(pass.slug)", "season": "\(season.startYear)", "url": "\(shown)"])
        let response = try await context.http.get(url, headers: ["Accept": "application/json"])
        try response.requireSuccess()
        let record = try SnowfallRecord(data: response.body, season: season, url: shown)
        let report = SnowfallReport(pass: pass, season: season, isCurrentSeason: season == current, record: record, url: pageURL(pass))
        return SourceResult(data: report.json, kind: .snowfall)
    }

    /// `base` with `MountainPassId` and `Year` added to whatever query it has.
    static func requestURL(base: URL, passID: Int, season: SnowfallSeason) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        components.queryItems = (components.queryItems ?? []) + [
            URLQueryItem(name: "MountainPassId", value: String(passID)), URLQueryItem(name: "Year", value: String(season.startYear)),
        ]
        return components.url ?? base
    }

    /// The pass `name` means (a slug in any spelling, or WSDOT's id) when it has a record; else
    /// `notFound` naming the passes that have one.
    static func recordedPass(named name: String) throws(ConditionsError) -> MountainPass {
        let recorded = recordedPasses.map(\.slug)
        let close = Suggestions.closest(to: PassCatalog.normalizedSlug(name), among: recorded).map { "\(scheme):\($0)" }
        guard let pass = PassCatalog.pass(named: name) else {
            throw ConditionsError.notFound("no pass named \"\(name)\"; WSDOT has snowfall records for \(recorded.joined(separator: ", "))",
                                           suggestions: close)
        }
        guard recordedPasses.contains(pass) else {
            throw ConditionsError.notFound("WSDOT keeps no snowfall record for \(pass.name); only \(recorded.joined(separator: ", ")) have one",
                                           suggestions: close)
        }
        return pass
    }
}
