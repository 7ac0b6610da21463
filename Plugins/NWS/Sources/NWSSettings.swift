import ConditionsJSON
import ConditionsKit
import Foundation

/// The validated `options` of an NWS source instance.
struct NWSSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://api.weather.gov")!

    /// Where these options live in `sources.json`, for messages.
    let optionsPath: String
    /// The API's root; `/points` and `/alerts/active` are under it.
    let baseURL: URL
    /// Sent with every request: NWS refuses requests without one (403).
    let userAgent: String

    /// Reads `baseURL` and `userAgent`; `hostAgent` is the host's own name (`conditions/0.1.0`),
    /// the default User-Agent.
    init(options: inout SourceOptions, hostAgent: String) throws(ConditionsError) {
        optionsPath = options.path
        baseURL = try options.httpURL("baseURL", withoutQuery: true) ?? Self.defaultBaseURL
        if let agent = try options.string("userAgent") {
            let trimmed = agent.trimmingCharacters(in: .whitespaces)
            // A header value: visible ASCII and spaces only, so nothing can end the header line.
            guard !trimmed.isEmpty, trimmed.utf8.count <= 256, trimmed.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw ConditionsError.configuration("\(options.path).userAgent: expected 1 to 256 printable ASCII characters naming the application and a contact, e.g. \"conditions (you@example.com)\"")
            }
            userAgent = trimmed
        } else {
            userAgent = hostAgent
        }
    }

    /// `{baseURL}/points/{point}`.
    func pointsURL(_ point: NWSPoint) -> URL {
        baseURL.appendingPathComponent("points").appendingPathComponent(point.text)
    }

    /// `{baseURL}/alerts/active?point={point}`.
    func alertsURL(_ point: NWSPoint) -> URL {
        let url = baseURL.appendingPathComponent("alerts").appendingPathComponent("active")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = "point=" + point.text
        return components?.url ?? url
    }
}
