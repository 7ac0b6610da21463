import ConditionsJSON
import ConditionsKit

/// The map `pass` cards are placed on: Washington State's outline and a key of the statuses a
/// pass can have. The outline is `Resources/washington-outline.json`, simplified from the US
/// Census Bureau's 2010 1:5,000,000 state boundary (public domain) to 347 points: the mainland
/// and the islands of 100 km² or more (the San Juans, Whidbey, Vashon–Maury). Where it comes
/// from and how it was simplified: `Resources/SOURCES.md`.
enum WashingtonMap {
    static let layer = MapLayer(
        id: "washington", title: "Passes on the map", area: "Washington State",
        rings: rings(geoJSON: (try? JSONValue.parse(String(decoding: PackageResources.washington_outline_json, as: UTF8.self))) ?? .null),
        legend: PassStatus.allCases.map { ResultCard.Status($0.rawValue, tone: PassPresentation.tone($0.rawValue)) })

    /// The rings of a GeoJSON Feature, Polygon or MultiPolygon ([longitude, latitude] order),
    /// each ring's closing repeat of its first point dropped; empty for anything else.
    static func rings(geoJSON: JSONValue) -> [[ResultCard.Coordinate]] {
        let geometry = geoJSON["geometry"] ?? geoJSON
        let polygons: [JSONValue] = switch geometry["type"]?.stringValue {
        case "Polygon": [geometry["coordinates"] ?? .null]
        case "MultiPolygon": geometry["coordinates"]?.arrayValue ?? []
        default: []
        }
        return polygons.flatMap { polygon in
            (polygon.arrayValue ?? []).map { ring in
                var points = (ring.arrayValue ?? []).compactMap { position -> ResultCard.Coordinate? in
                    guard let pair = position.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue else { return nil }
                    return ResultCard.Coordinate(latitude: latitude, longitude: longitude)
                }
                if points.count > 1, points.first == points.last { points.removeLast() }
                return points
            }.filter { $0.count >= 3 }
        }
    }
}
