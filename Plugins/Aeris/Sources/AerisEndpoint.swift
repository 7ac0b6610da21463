import ConditionsJSON
import ConditionsKit
import Foundation

/// The two Aeris requests this module makes, and the URLs they become.
enum AerisEndpoint: Equatable {
    /// `/sunmoon/{lat},{long}`: the sun and moon on the day of `at`.
    case sunMoon(at: Date)
    /// `/sunmoon/moonphases/{lat},{long}`: the next `limit` principal phases after `from`.
    case moonPhases(from: Date, limit: Int)

    /// The request URL for `place`, credentials in the query (Aeris has no header auth).
    func url(settings: AerisSettings, place: Place) throws(ConditionsError) -> URL {
        // The base URL was validated through URLComponents, so this cannot fail in practice;
        // if it does, fail loudly rather than send a request somewhere else.
        guard var components = URLComponents(url: settings.baseURL, resolvingAgainstBaseURL: false) else {
            throw ConditionsError(.internal, "could not build the Aeris \(name) URL")
        }
        let coordinates = Self.coordinate(place.latitude) + "," + Self.coordinate(place.longitude)
        let base = components.percentEncodedPath.hasSuffix("/")
            ? String(components.percentEncodedPath.dropLast())
            : components.percentEncodedPath
        var parameters = [("client_id", settings.clientId), ("client_secret", settings.clientSecret)]
        switch self {
        case .sunMoon(let instant):
            components.percentEncodedPath = base + "/sunmoon/" + coordinates
            parameters += [("from", Self.unixSeconds(instant)), ("limit", "1")]
        case .moonPhases(let from, let limit):
            components.percentEncodedPath = base + "/sunmoon/moonphases/" + coordinates
            parameters += [("from", Self.unixSeconds(from)), ("limit", String(limit))]
        }
        // Encoded by hand: URLComponents leaves `+` raw in query items, and servers read a
        // raw `+` as a space, which would corrupt a secret containing one.
        components.percentEncodedQuery = parameters
            .map { "\($0.0)=\(Self.encode($0.1))" }
            .joined(separator: "&")
        guard let url = components.url else {
            throw ConditionsError(.internal, "could not build the Aeris \(name) URL")
        }
        return url
    }

    /// What the requests are called in messages.
    var name: String {
        switch self {
        case .sunMoon: "sunmoon"
        case .moonPhases: "sunmoon/moonphases"
        }
    }

    /// Degrees with six decimals (about 10 cm), trailing zeros dropped: `47.6097`, `-122.3331`.
    static func coordinate(_ degrees: Double) -> String {
        var text = String(format: "%.6f", degrees)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Whole Unix seconds, the `from` form Aeris reads without time-zone ambiguity.
    static func unixSeconds(_ date: Date) -> String {
        String(Int(date.timeIntervalSince1970.rounded(.down)))
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
