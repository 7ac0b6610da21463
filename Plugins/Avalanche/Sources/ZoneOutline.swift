import ConditionsGeo
import ConditionsJSON
import Foundation

/// A forecast zone's outline: GeoJSON polygons (a Polygon is one, a MultiPolygon many), each an
/// outer ring followed by its holes.
struct ZoneOutline: Sendable {
    /// Polygons; in each, the first ring is the outside and the others are holes.
    let polygons: [[[GeoPoint]]]

    /// Reads a GeoJSON `geometry` object: `Polygon` or `MultiPolygon`, positions `[longitude,
    /// latitude]`. Nil for any other shape, or a position that is not two finite numbers.
    init?(geometry: JSONValue) {
        guard let polygons = GeoPoint.polygons(geoJSON: geometry) else { return nil }
        self.polygons = polygons
    }

    init(polygons: [[[GeoPoint]]]) {
        self.polygons = polygons
    }

    /// Whether `point` is inside: in an outer ring and in none of that polygon's holes (the
    /// even-odd rule over the polygon's rings does both). Zones are small and far from the
    /// antimeridian, so longitude and latitude serve as plane coordinates.
    func contains(_ point: GeoPoint) -> Bool {
        polygons.contains { rings in
            rings.reduce(false) { inside, ring in inside != Self.ring(ring, contains: point) }
        }
    }

    /// The distance in km from `point` to the nearest edge of the outline.
    func distanceToEdge(from point: GeoPoint) -> Double {
        // A local plane around the point (equirectangular): within a few hundred km, a
        // fraction of a percent from the great-circle distance, which is plenty for "how far".
        let kmPerDegree = GeoPoint.earthRadiusKm * .pi / 180
        let xScale = kmPerDegree * cos(point.latitude * .pi / 180)
        func plane(_ p: GeoPoint) -> (x: Double, y: Double) {
            ((p.longitude - point.longitude) * xScale, (p.latitude - point.latitude) * kmPerDegree)
        }
        var nearest = Double.infinity
        for ring in polygons.joined() where !ring.isEmpty {
            var previous = plane(ring[ring.count - 1])
            for vertex in ring {
                let current = plane(vertex)
                nearest = min(nearest, Self.distanceFromOrigin(toSegment: previous, current))
                previous = current
            }
        }
        return nearest
    }

    /// Ray casting: whether a ray east from `point` crosses the ring an odd number of times.
    private static func ring(_ ring: [GeoPoint], contains point: GeoPoint) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var previous = ring[ring.count - 1]
        for vertex in ring {
            if (vertex.latitude > point.latitude) != (previous.latitude > point.latitude) {
                let crossing = vertex.longitude + (point.latitude - vertex.latitude) / (previous.latitude - vertex.latitude) * (previous.longitude - vertex.longitude)
                if point.longitude < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    /// The distance from (0, 0) to the segment from `a` to `b`.
    private static func distanceFromOrigin(toSegment a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        // The projection of the origin on the segment's line, kept within the segment.
        let t = lengthSquared == 0 ? 0 : min(1, max(0, -(a.x * dx + a.y * dy) / lengthSquared))
        let x = a.x + t * dx, y = a.y + t * dy
        return (x * x + y * y).squareRoot()
    }
}
