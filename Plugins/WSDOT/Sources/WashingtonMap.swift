import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import ConditionsPass

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

    /// The rings of a GeoJSON Feature, Polygon or MultiPolygon, holes and all (the map draws
    /// them even-odd); empty for anything else.
    static func rings(geoJSON: JSONValue) -> [[GeoPoint]] {
        (GeoPoint.polygons(geoJSON: geoJSON) ?? []).flatMap { $0 }.filter { $0.count >= 3 }
    }
}

extension PassPresentation {
    /// The pass kind as this module lists it: WSDOT's reports, on Washington's map, each pass at
    /// its catalogued summit.
    static let washington = PassPresentation(publisher: "WSDOT", map: WashingtonMap.layer, places: PassCatalog.places)
}
