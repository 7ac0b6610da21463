import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsPass

/// The map California's `pass` cards are placed on: the state's outline and the statuses a
/// pass can have. The outline is `Resources/california-outline.json`, simplified from the US
/// Census Bureau's 2010 1:5,000,000 state boundary (public domain) to 169 points: the mainland
/// and the four Channel Islands of 100 km² or more. Where it comes from and how it was made:
/// `Resources/SOURCES.md`.
enum CaliforniaMap {
    static let layer = MapLayer(
        id: "california", title: "California passes on the map", area: "California",
        rings: (GeoPoint.polygons(geoJSON: (try? JSONValue.parse(String(decoding: PackageResources.california_outline_json, as: UTF8.self))) ?? .null) ?? [])
            .flatMap { $0 }.filter { $0.count >= 3 },
        legend: PassStatus.allCases.map { ResultCard.Status($0.rawValue, tone: PassPresentation.tone($0.rawValue)) })
}
