import ConditionsText
import ConditionsKit
import Foundation

/// The validated `options` of a Snowpack source instance, and the URLs they make.
struct SnowpackSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://wcc.sc.egov.usda.gov/awdbRestApi/services/v1")!
    static let defaultStates = ["WA"]
    static let defaultMaxDistanceKm = 100.0

    /// Where these options live in `sources.json`, for messages.
    let optionsPath: String
    /// The API's root; `/stations` and `/data` are under it.
    let baseURL: URL
    /// The states whose active SNOTEL stations a place is matched against, upper case.
    let states: [String]
    /// A place farther than this from every station is `notFound` (the nearest is named).
    let maxDistanceKm: Double

    /// Reads `baseURL`, `states` and `maxDistanceKm`; errors name the option's JSON path.
    init(options: inout SourceOptions) throws(ConditionsError) {
        optionsPath = options.path
        baseURL = try options.httpURL("baseURL", withoutQuery: true) ?? Self.defaultBaseURL
        let states = try options.strings("states") ?? Self.defaultStates
        guard !states.isEmpty, states.count <= 60 else {
            throw ConditionsError.configuration("\(options.path).states: needs 1 to 60 two-letter state codes (e.g. [\"WA\"])")
        }
        for state in states where StationTriplet.state(state) == nil {
            throw ConditionsError.configuration("\(options.path).states: \"\(state)\" is not a two-letter state code (e.g. WA)")
        }
        var seen = Set<String>()
        self.states = states.map { $0.uppercased() }.filter { seen.insert($0).inserted }
        maxDistanceKm = try options.double("maxDistanceKm", in: 1...2000) ?? Self.defaultMaxDistanceKm
    }

    /// `{baseURL}/stations?stationTriplets=*:WA:SNTL&activeOnly=true` (several states
    /// comma-separated): every active station of the network in those states, in one request.
    func stationsURL(states: [String], network: String = StationTriplet.snotel) -> URL {
        let triplets = states.map { "*:\($0):\(network)" }.joined(separator: ",")
        return url("stations", query: "stationTriplets=\(triplets)&activeOnly=true")
    }

    /// `{baseURL}/data?stationTriplets={triplet}&elements=SNWD,WTEQ,TOBS&duration=HOURLY&beginDate=…&endDate=…`:
    /// the station's hourly depth, SWE and air temperature from midnight 14 days before
    /// `today` (a PST day) to the end of `today`. The URL depends only on the station and the
    /// day, so URNs resolved at once for one station ask the same URL.
    func dataURL(triplet: StationTriplet, today: CivilDate) -> URL {
        let begin = today.adding(days: -SnowpackReport.days).iso
        let end = today.iso
        return url("data", query: "stationTriplets=\(triplet.text)&elements=SNWD,WTEQ,TOBS&duration=HOURLY"
                   + "&beginDate=\(begin)%2000:00&endDate=\(end)%2023:59")
    }

    private func url(_ path: String, query: String) -> URL {
        let url = baseURL.appendingPathComponent(path)
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = query
        return components?.url ?? url
    }
}
