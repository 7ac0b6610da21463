import ConditionsJSON

extension GeoPoint {
    /// The polygons of a GeoJSON Feature, Polygon or MultiPolygon (positions `[longitude,
    /// latitude]`): in each, the outer ring first and then its holes, each ring without the
    /// closing repeat of its first point. Nil for any other shape, or for a position that is not
    /// two finite numbers: an outline read in part would put places in the wrong zone.
    public static func polygons(geoJSON: JSONValue) -> [[[GeoPoint]]]? {
        let geometry = geoJSON["type"]?.stringValue == "Feature" ? geoJSON["geometry"] ?? .null : geoJSON
        guard let coordinates = geometry["coordinates"]?.arrayValue else { return nil }
        let polygons: [JSONValue]
        switch geometry["type"]?.stringValue {
        case "Polygon": polygons = [.array(coordinates)]
        case "MultiPolygon": polygons = coordinates
        default: return nil
        }
        var read: [[[GeoPoint]]] = []
        for polygon in polygons {
            guard let rings = polygon.arrayValue else { return nil }
            var readRings: [[GeoPoint]] = []
            for ring in rings {
                guard let positions = ring.arrayValue else { return nil }
                var points: [GeoPoint] = []
                for position in positions {
                    guard let pair = position.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue,
                          longitude.isFinite, latitude.isFinite
                    else { return nil }
                    points.append(GeoPoint(latitude: latitude, longitude: longitude))
                }
                if points.count > 1, points.first == points.last { points.removeLast() }
                readRings.append(points)
            }
            read.append(readRings)
        }
        return read
    }
}
