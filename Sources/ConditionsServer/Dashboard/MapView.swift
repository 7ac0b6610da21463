import ConditionsGeo
import ConditionsKit
import Foundation

/// The map sections' template contexts: one per map layer the page's cards ask for (a
/// module's `ResultPresentation.map`), in the order their first markers appear. Each has the
/// layer's outline, one marker per card with a position (a link to the card, shaped and
/// coloured by status), short labels placed so they do not overlap, the layer's key, and the
/// config's location for orientation when it lies inside the frame. The server knows no area:
/// everything drawn comes from the layer.
enum MapView {
    static func contexts(markers all: [CardView.Marker], place: Place) -> [[String: Any]] {
        var order: [String] = []
        var byLayer: [String: [CardView.Marker]] = [:]
        for marker in all {
            if byLayer[marker.map.id] == nil { order.append(marker.map.id) }
            byLayer[marker.map.id, default: []].append(marker)
        }
        return order.enumerated().map { index, id in
            context(markers: byLayer[id] ?? [], place: place, ordinal: index + 1)
        }
    }

    static func context(markers all: [CardView.Marker], place: Place, ordinal: Int) -> [String: Any] {
        // A place shown twice (`scheme:name` and `scheme:all`) gets one marker, linked to its first card.
        var seen: Set<String> = []
        let markers = all.filter { seen.insert("\($0.title)@\($0.coordinate.latitude),\($0.coordinate.longitude)").inserted }
        guard let layer = markers.first?.map else { return [:] }
        let projection = MapProjection(layer)
        var context: [String: Any] = [
            "titleID": ordinal == 1 ? "map-title" : "map-title-\(ordinal)", "descID": ordinal == 1 ? "map-desc" : "map-desc-\(ordinal)",
            "title": layer.title, "area": layer.area,
            "viewBox": projection.viewBox,
            "outline": projection.path(layer.rings),
            "markers": markers.map { markerContext($0, projection: projection) },
            "labels": labels(for: markers, projection: projection),
            "count": markers.count,
            "markersText": markers.count == 1 ? "1 marker" : "\(markers.count) markers",
            "legend": layer.legend.map { ["word": $0.word, "tone": $0.tone.rawValue] },
            "hasLegend": !layer.legend.isEmpty,
        ]
        let here = GeoPoint(latitude: place.latitude, longitude: place.longitude)
        if layer.contains(here) {
            let (x, y) = projection.project(here)
            context["home"] = ["x": number(x), "y": number(y), "name": place.name ?? "the configured location",
                               "labelX": number(x - 8), "labelY": number(y + 4)] as [String: Any]
        }
        return context
    }

    /// One marker: `<a href="#card-…">` around a shape whose form and colour follow the status.
    static func markerContext(_ marker: CardView.Marker, projection: MapProjection) -> [String: Any] {
        let (x, y) = projection.project(marker.coordinate)
        let tone = marker.status?.tone ?? .neutral
        return [
            "cardID": marker.cardID, "x": number(x), "y": number(y), "tone": tone.rawValue,
            "word": marker.status?.word ?? "unknown",
            "label": "\(marker.title): \(marker.status?.word ?? "no status")",
        ]
    }

    /// Labels beside the markers: to the right when free, else to the left, above or below,
    /// else left out (the marker still has its accessible name and tooltip).
    static func labels(for markers: [CardView.Marker], projection: MapProjection) -> [[String: Any]] {
        struct Box { let minX, minY, maxX, maxY: Double
            func overlaps(_ other: Box) -> Bool { minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY }
        }
        let points = markers.map { projection.project($0.coordinate) }
        // Markers are obstacles too.
        var taken = points.map { Box(minX: $0.x - 9, minY: $0.y - 9, maxX: $0.x + 9, maxY: $0.y + 9) }
        var labels: [[String: Any]] = []
        let fontSize = 15.0
        for (marker, point) in zip(markers, points) {
            let text = marker.label.count > 24 ? String(marker.label.prefix(23)) + "…" : marker.label
            let width = Double(text.count) * fontSize * 0.56 + 2
            let candidates: [(x: Double, y: Double, anchor: String, side: String)] = [
                (point.x + 12, point.y + fontSize * 0.35, "start", "right"),
                (point.x - 12, point.y + fontSize * 0.35, "end", "left"),
                (point.x, point.y - 13, "middle", "above"),
                (point.x, point.y + 13 + fontSize * 0.7, "middle", "below"),
            ]
            for candidate in candidates {
                let minX = candidate.anchor == "start" ? candidate.x : candidate.anchor == "end" ? candidate.x - width : candidate.x - width / 2
                let box = Box(minX: minX, minY: candidate.y - fontSize * 0.8, maxX: minX + width, maxY: candidate.y + fontSize * 0.25)
                guard box.minX >= 0, box.maxX <= projection.width, box.minY >= 0, box.maxY <= projection.height,
                      !taken.contains(where: { $0.overlaps(box) }) else { continue }
                taken.append(box)
                labels.append(["text": text, "x": number(candidate.x), "y": number(candidate.y), "anchor": candidate.anchor, "side": candidate.side])
                break
            }
        }
        return labels
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// A map layer's frame in SVG units: an equirectangular projection with longitudes scaled by
/// the cosine of the frame's middle latitude, so shapes keep their proportions at the size a
/// page draws them, and 100 units per degree of latitude (the SVG scales to its box; this only
/// sets the numbers).
struct MapProjection {
    static let scale = 100.0
    let south: Double, west: Double, north: Double, east: Double
    let longitudeFactor: Double

    init(_ layer: MapLayer) {
        (south, west, north, east) = layer.frame
        longitudeFactor = cos((south + north) / 2 * Double.pi / 180)
    }

    var width: Double { (east - west) * longitudeFactor * Self.scale }
    var height: Double { (north - south) * Self.scale }

    /// The point on the map for `coordinate`.
    func project(_ coordinate: GeoPoint) -> (x: Double, y: Double) {
        ((coordinate.longitude - west) * longitudeFactor * Self.scale, (north - coordinate.latitude) * Self.scale)
    }

    /// `rings` as one SVG path, each ring a closed subpath.
    func path(_ rings: [[GeoPoint]]) -> String {
        rings.map { ring in
            ring.enumerated().map { index, point in
                let (x, y) = project(point)
                return (index == 0 ? "M" : "L") + String(format: "%.1f,%.1f", x, y)
            }.joined() + "Z"
        }.joined()
    }

    /// The viewBox attribute.
    var viewBox: String { String(format: "0 0 %.0f %.0f", width, height) }
}
