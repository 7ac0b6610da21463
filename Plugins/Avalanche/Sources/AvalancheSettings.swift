import ConditionsKit
import Foundation

/// The validated `options` of an Avalanche source instance, and the URLs they make.
struct AvalancheSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://api.avalanche.org")!
    static let defaultCenter = "NWAC"

    /// Where these options live in `sources.json`, for messages.
    let optionsPath: String
    /// The API's root; `/v2/public/…` is under it.
    let baseURL: URL
    /// The avalanche center's id as avalanche.org spells it (`NWAC`, `SNFAC`), upper case.
    let center: String

    /// Reads `baseURL` and `center`; errors name the option's JSON path.
    init(options: inout SourceOptions) throws(ConditionsError) {
        optionsPath = options.path
        baseURL = try options.httpURL("baseURL", withoutQuery: true) ?? Self.defaultBaseURL
        let center = try options.string("center") ?? Self.defaultCenter
        // It goes into a path and a query: letters and digits only, as every center id is.
        guard (2...16).contains(center.utf8.count), center.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
            throw ConditionsError.configuration("\(options.path).center: \"\(center)\" is not an avalanche center id (2 to 16 letters or digits, e.g. NWAC)")
        }
        self.center = center.uppercased()
    }

    /// `{baseURL}/v2/public/products/map-layer/{center}`: the center's zones, with their polygons.
    var mapLayerURL: URL {
        baseURL.appendingPathComponent("v2/public/products/map-layer").appendingPathComponent(center)
    }

    /// `{baseURL}/v2/public/product?type=forecast&center_id={center}&zone_id={id}`: the zone's current product.
    func productURL(zoneID: Int) -> URL {
        productURL(type: "forecast", zoneID: zoneID)
    }

    /// `{baseURL}/v2/public/product?type=warning&center_id={center}&zone_id={id}`: the warning
    /// in effect for the zone, or an object of nulls.
    func warningURL(zoneID: Int) -> URL {
        productURL(type: "warning", zoneID: zoneID)
    }

    private func productURL(type: String, zoneID: Int) -> URL {
        let url = baseURL.appendingPathComponent("v2/public/product")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = "type=\(type)&center_id=\(center)&zone_id=\(zoneID)"
        return components?.url ?? url
    }
}
