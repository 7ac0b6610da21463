import ConditionsGeo
import Foundation

/// A map a module contributes to the dashboard: an area drawn as an outline, with a marker
/// for every card of the presentation's kind whose `coordinate` falls inside the map's frame.
///
/// A presentation returns one from `ResultPresentation.map`; every module answering a kind adds
/// its own, and a card goes on the first whose frame holds it. The host knows no area: it draws
/// each layer the page's cards ask for, in an equirectangular projection scaled by the
/// cosine of the frame's middle latitude (so shapes keep their proportions), shapes and
/// colours each marker by its card's status tone and links it to the card.
///
/// ```swift
/// static let harbour = MapLayer(id: "harbour", title: "Tide stations", area: "Elliott Bay",
///                               rings: [[.init(latitude: 47.62, longitude: -122.42), …]],
///                               legend: [ResultCard.Status("high", tone: .good), ResultCard.Status("low", tone: .caution)])
/// ```
public struct MapLayer: Sendable, Equatable {
    /// Cards whose presentations give the same id share one map: `washington`.
    public var id: String
    /// The map's heading: "Passes on the map".
    public var title: String
    /// What the outline shows, for people who cannot see it: "Washington State".
    public var area: String
    /// The outline: rings of points, each closed implicitly (the first point is not repeated).
    public var rings: [[GeoPoint]]
    /// The key under the map: each status a marker may show, in its tone.
    public var legend: [ResultCard.Status]
    /// Degrees of margin the frame leaves around the outline.
    public var margin: Double

    /// A layer of `rings` titled `title`; the frame is their bounds plus `margin` degrees.
    public init(id: String, title: String, area: String, rings: [[GeoPoint]], legend: [ResultCard.Status] = [],
                margin: Double = 0.15) {
        self.id = id
        self.title = title
        self.area = area
        self.rings = rings
        self.legend = legend
        self.margin = margin
    }

    /// The frame the map shows, in degrees: the outline's bounds plus the margin.
    public var frame: (south: Double, west: Double, north: Double, east: Double) {
        let points = rings.joined()
        guard let first = points.first else { return (0, 0, 0, 0) }
        var frame = (south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
        for point in points {
            frame.south = min(frame.south, point.latitude)
            frame.north = max(frame.north, point.latitude)
            frame.west = min(frame.west, point.longitude)
            frame.east = max(frame.east, point.longitude)
        }
        return (frame.south - margin, frame.west - margin, frame.north + margin, frame.east + margin)
    }

    /// Whether `coordinate` falls inside the frame (and so gets a marker).
    public func contains(_ coordinate: GeoPoint) -> Bool {
        let frame = frame
        return (frame.south...frame.north).contains(coordinate.latitude) && (frame.west...frame.east).contains(coordinate.longitude)
    }
}
