import ConditionsKit
import Foundation

/// The map section's template context: Washington's outline, one marker per card with a
/// position (a link to the card, shaped and coloured by status), short labels placed so they
/// do not overlap, and the config's location for orientation.
enum MapView {
    static func context(markers all: [CardView.Marker], place: Place) -> [String: Any] {
        // A pass shown twice (`pass:stevens` and `pass:all`) gets one marker, linked to its first card.
        var seen: Set<String> = []
        let markers = all.filter { seen.insert("\($0.title)@\($0.coordinate.latitude),\($0.coordinate.longitude)").inserted }
        var context: [String: Any] = [
            "viewBox": WashingtonMap.viewBox,
            "outline": WashingtonMap.outlinePath,
            "markers": markers.map(markerContext),
            "labels": labels(for: markers),
            "count": markers.count,
        ]
        let here = ResultCard.Coordinate(latitude: place.latitude, longitude: place.longitude)
        if WashingtonMap.contains(here) {
            let (x, y) = WashingtonMap.project(latitude: here.latitude, longitude: here.longitude)
            context["home"] = ["x": number(x), "y": number(y), "name": place.name ?? "the configured location",
                               "labelX": number(x - 8), "labelY": number(y + 4)] as [String: Any]
        }
        return context
    }

    /// One marker: `<a href="#card-…">` around a shape whose form and colour follow the status.
    static func markerContext(_ marker: CardView.Marker) -> [String: Any] {
        let (x, y) = WashingtonMap.project(latitude: marker.coordinate.latitude, longitude: marker.coordinate.longitude)
        let tone = marker.status?.tone ?? .neutral
        return [
            "cardID": marker.cardID, "x": number(x), "y": number(y), "tone": tone.rawValue,
            "word": marker.status?.word ?? "unknown",
            "label": "\(marker.title): \(marker.status?.word ?? "no status")",
        ]
    }

    /// Labels beside the markers: to the right when free, else to the left, above or below,
    /// else left out (the marker still has its accessible name and tooltip).
    static func labels(for markers: [CardView.Marker]) -> [[String: Any]] {
        struct Box { let minX, minY, maxX, maxY: Double
            func overlaps(_ other: Box) -> Bool { minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY }
        }
        let points = markers.map { WashingtonMap.project(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
        // Markers are obstacles too.
        var taken = points.map { Box(minX: $0.x - 9, minY: $0.y - 9, maxX: $0.x + 9, maxY: $0.y + 9) }
        var labels: [[String: Any]] = []
        let fontSize = 15.0
        for (marker, point) in zip(markers, points) {
            let text = shortName(marker.title)
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
                guard box.minX >= 0, box.maxX <= WashingtonMap.width, box.minY >= 0, box.maxY <= WashingtonMap.height,
                      !taken.contains(where: { $0.overlaps(box) }) else { continue }
                taken.append(box)
                labels.append(["text": text, "x": number(candidate.x), "y": number(candidate.y), "anchor": candidate.anchor, "side": candidate.side])
                break
            }
        }
        return labels
    }

    /// `Snoqualmie` for "Snoqualmie Pass I-90": the words before "Pass" or the road's number.
    static func shortName(_ title: String) -> String {
        var words: [Substring] = []
        for word in title.split(separator: " ") {
            let isRoad = word.contains(where: \.isNumber) || ["US", "SR", "I", "Hwy"].contains(word)
            if word == "Pass" || isRoad { break }
            words.append(word)
        }
        let short = words.isEmpty ? title : words.joined(separator: " ")
        return short.count > 24 ? String(short.prefix(23)) + "…" : short
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
