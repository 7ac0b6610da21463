import ConditionsJSON
import ConditionsKit
import Foundation

/// The day a URN asks about: `avalanche:{place}` today, `avalanche:{place}:tomorrow` tomorrow.
enum ForecastDay: String, Sendable {
    case today, tomorrow
}

/// What a zone's result says overall.
enum ZoneStatus: String, Sendable {
    /// A forecast rating the day.
    case forecast
    /// A forecast, but no band rated that day (early or late season, a data gap).
    case noRating = "no rating"
    /// No forecasts until next season.
    case offSeason = "off-season"
    /// In season but no product (only in `avalanche:all`; a single zone is `notFound`).
    case noForecast = "no forecast"
}

/// A zone's result data (kind `avalanche`): the zone, the day asked about, the danger by band
/// today and tomorrow, the problems, the bottom line, and who published it when.
struct ZoneReport: Sendable {
    let center: String
    let zone: ForecastZone
    let product: ZoneProduct
    let day: ForecastDay
    /// The place the URN named, when it named one rather than the zone.
    let place: JSONValue
    let now: Date

    var status: ZoneStatus {
        switch product {
        case .none: return zone.offSeason ? .offSeason : .noForecast
        case .summary: return .offSeason
        case .forecast(let forecast):
            // The season's last forecast, run out, while the layer says the season is over.
            if zone.offSeason, let expires = forecast.expires, expires <= now { return .offSeason }
            return headline(forecast)?.highest == nil ? .noRating : .forecast
        }
    }

    private func headline(_ forecast: ZoneForecast) -> DayDanger? {
        day == .today ? forecast.today : forecast.tomorrow
    }

    var json: JSONValue {
        let status = self.status
        var data = JSONObject([
            ("center", .string(center)), ("zone", zone.json), ("place", place), ("day", .string(day.rawValue)),
            ("status", .string(status.rawValue)),
        ])
        var danger: JSONValue = ["today": .null, "tomorrow": .null]
        var rating: JSONValue = .null
        var problems: [JSONValue] = []
        var bottomLine: String?
        var summary: String?
        var published: Date?
        var expires: Date?
        var author: String?
        var url = zone.link
        switch product {
        case .none:
            break
        case .summary(let text, let at, let by, let link):
            (summary, published, author) = (text, at, by)
            url = link ?? url
        case .forecast(let forecast):
            (published, expires, author) = (forecast.published, forecast.expires, forecast.author)
            url = forecast.url ?? url
            if status == .offSeason { break }
            danger = ["today": forecast.today?.json ?? .null, "tomorrow": forecast.tomorrow?.json ?? .null]
            rating = DangerScale.json(headline(forecast)?.highest)
            problems = forecast.problems.map(\.json)
            bottomLine = forecast.bottomLine
        }
        data["rating"] = rating
        data["danger"] = danger
        data["problems"] = .array(problems)
        data["bottomLine"] = JSONValue(bottomLine)
        data["summary"] = JSONValue(summary)
        data["warning"] = zone.warning
        data["published"] = JSONValue(published)
        data["expires"] = JSONValue(expires)
        data["expired"] = .bool(status != .offSeason && expires.map { $0 <= now } ?? false)
        data["forecaster"] = JSONValue(author)
        data["url"] = JSONValue(url)
        return .object(data)
    }
}
