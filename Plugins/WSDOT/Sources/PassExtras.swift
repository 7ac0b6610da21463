import ConditionsJSON
import ConditionsKit
import Foundation

/// One of a pass's cameras, as WSDOT's mobile feed lists it (`Cameras`).
struct PassCamera: Sendable, Equatable {
    /// WSDOT's camera id, as the feed writes it (a number or a string).
    let id: JSONValue
    let title: String?
    /// The camera's current JPEG; only http and https are kept, since pages show it as an image.
    let imageURL: URL
    let latitude: Double?
    let longitude: Double?

    var json: JSONValue {
        ["id": id, "title": JSONValue(title), "imageURL": .string(imageURL.absoluteString),
         "latitude": JSONValue(latitude), "longitude": JSONValue(longitude)]
    }
}

/// One period of the NWS zone forecast WSDOT attaches to a pass (`Forecast`).
struct ForecastPeriod: Sendable, Equatable {
    /// "Tonight", "Tuesday", …
    let period: String
    let text: String

    var json: JSONValue { ["period": .string(period), "text": .string(text)] }
}

/// One WSDOT alert on a pass's roads (`Alerts`).
struct PassAlert: Sendable, Equatable {
    let id: JSONValue
    let headline: String
    let category: String?
    let road: String?
    let direction: String?
    let created: Date?
    let latitude: Double?
    let longitude: Double?

    var json: JSONValue {
        ["id": id, "headline": .string(headline), "category": JSONValue(category), "road": JSONValue(road),
         "direction": JSONValue(direction), "created": JSONValue(created), "latitude": JSONValue(latitude), "longitude": JSONValue(longitude)]
    }
}

/// Reads the members the mobile feed adds to a pass (`Cameras`, `Forecast`, `Alerts`).
///
/// The feed is undocumented and WSDOT changes it without notice, so these are read
/// tolerantly: a missing member or one of another type means "none given" (nil), and an item
/// without the one thing it is for (a camera without an image URL, a period or alert without
/// text) is left out rather than failing the pass report, which is what people came for.
enum PassExtras {
    static func cameras(_ value: JSONValue?) -> [PassCamera]? {
        guard let items = value?.arrayValue else { return nil }
        return items.compactMap { item in
            guard let object = item.objectValue, let text = Text.normalized(object["url"]?.stringValue),
                  let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false
            else { return nil }
            return PassCamera(id: identifier(object["id"]), title: Text.normalized(object["title"]?.stringValue), imageURL: url,
                              latitude: coordinate(object["lat"], limit: 90), longitude: coordinate(object["lon"], limit: 180))
        }
    }

    static func forecast(_ value: JSONValue?) -> [ForecastPeriod]? {
        guard let items = value?.arrayValue else { return nil }
        return items.compactMap { item in
            guard let text = Text.normalized(item["ForecastText"]?.stringValue) else { return nil }
            return ForecastPeriod(period: Text.normalized(item["Day"]?.stringValue) ?? "", text: text)
        }
    }

    static func alerts(_ value: JSONValue?, timeZone: TimeZone) -> [PassAlert]? {
        guard let items = value?.arrayValue else { return nil }
        return items.compactMap { item in
            guard let object = item.objectValue, let headline = Text.normalized(object["HeadlineMessage"]?.stringValue) else { return nil }
            return PassAlert(
                id: identifier(object["EventId"]), headline: headline,
                category: Text.normalized(object["EventCategoryTypeDescription"]?.stringValue),
                road: Text.normalized(object["RoadName"]?.stringValue),
                direction: Text.normalized(object["RoadDirection"]?.stringValue),
                created: object["CreatedDate"].flatMap { FeedDate.instant($0, timeZone: timeZone) },
                latitude: coordinate(object["DisplayLatitude"], limit: 90),
                longitude: coordinate(object["DisplayLongitude"], limit: 180))
        }
    }

    /// A number or a non-empty string as given; anything else is null.
    private static func identifier(_ value: JSONValue?) -> JSONValue {
        switch value {
        case .int?, .double?: return value ?? .null
        case .string(let text)?: return Text.normalized(text).map(JSONValue.string) ?? .null
        default: return .null
        }
    }

    /// A finite number within ±`limit` degrees; 0 is "not placed" in WSDOT's data, so it is nil too.
    private static func coordinate(_ value: JSONValue?, limit: Double) -> Double? {
        guard let number = value?.doubleValue, number.isFinite, number != 0, abs(number) <= limit else { return nil }
        return number
    }
}
