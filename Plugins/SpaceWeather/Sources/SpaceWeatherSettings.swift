import ConditionsKit
import Foundation

/// The validated `options` of a SpaceWeather source instance, and the URLs they make.
struct SpaceWeatherSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://services.swpc.noaa.gov")!

    /// Where these options live in `sources.json`, for messages.
    let optionsPath: String
    /// SWPC's services root; `/products/…` and `/json/…` are under it.
    let baseURL: URL

    /// Reads `baseURL`; errors name the option's JSON path.
    init(options: inout SourceOptions) throws(ConditionsError) {
        optionsPath = options.path
        baseURL = try options.httpURL("baseURL", withoutQuery: true) ?? Self.defaultBaseURL
    }

    /// The observed planetary K-index of the last week, 3-hourly.
    var kpURL: URL { baseURL.appendingPathComponent("products/noaa-planetary-k-index.json") }
    /// The last week observed and estimated, and three days predicted, with the NOAA G-scale.
    var forecastURL: URL { baseURL.appendingPathComponent("products/noaa-planetary-k-index-forecast.json") }
    /// The OVATION 30–90 minute aurora probability on a 1° grid.
    var ovationURL: URL { baseURL.appendingPathComponent("json/ovation_aurora_latest.json") }
}
