import ConditionsKit
import Foundation

/// The dashboard's map: Washington State's outline and a marker per pass, placed by latitude
/// and longitude in an equirectangular projection with longitudes scaled by cos 47.5° (the
/// state's middle latitude), so shapes keep their proportions at this size.
enum WashingtonMap {
    /// The state's border as (latitude, longitude), clockwise from Cape Flattery, simplified
    /// to about 0.05° and rounded to 0.01°: islands (the San Juans, Whidbey) and Point Roberts
    /// are left out; Puget Sound is a single inlet.
    ///
    /// Source: written by hand for this map from the border's legal lines — 49° N (the 1846
    /// Oregon Treaty boundary) from the Strait of Georgia to Idaho, 117° 02′ W south to the Snake
    /// River at Clarkston, the Snake to 46° N, 46° N west to the Columbia at Wallula Gap, then
    /// the Columbia to the Pacific — and from the approximate coordinates of the places named in
    /// the comments (as USGS GNIS lists them), each good to about 0.05° (5 km, a pixel or two at
    /// the size the page draws it).
    static let outline: [(Double, Double)] = [
        (48.38, -124.72), // Cape Flattery
        (48.37, -124.60), // Neah Bay
        (48.26, -124.25), // Sekiu
        (48.16, -123.83), // Crescent Bay
        (48.12, -123.43), // Port Angeles
        (48.18, -123.11), // Dungeness Spit
        (48.12, -122.76), // Port Townsend
        (47.92, -122.62), // Foulweather Bluff
        (47.80, -122.50), // Kingston
        (47.55, -122.52), // Rich Passage
        (47.29, -122.57), // Gig Harbor
        (47.16, -122.80), // Case Inlet
        (47.05, -122.90), // Olympia
        (47.10, -122.70), // Nisqually delta
        (47.27, -122.43), // Tacoma
        (47.40, -122.33), // Des Moines
        (47.60, -122.34), // Seattle
        (47.81, -122.38), // Edmonds
        (47.98, -122.22), // Everett
        (48.24, -122.37), // Stanwood
        (48.51, -122.61), // Anacortes
        (48.75, -122.49), // Bellingham
        (48.90, -122.75), // Birch Bay
        (49.00, -122.76), // Blaine: 49° N
        (49.00, -117.04), // 49° N at Idaho
        (46.42, -117.04), // Clarkston: the Snake River
        (46.00, -116.92), // the Snake at 46° N
        (46.00, -118.98), // Wallula Gap: the Columbia at 46° N
        (45.92, -119.34), // Umatilla
        (45.84, -119.70), // Boardman
        (45.72, -120.20), // Roosevelt
        (45.66, -120.85), // Maryhill
        (45.60, -121.18), // The Dalles
        (45.70, -121.52), // White Salmon
        (45.64, -121.94), // Bonneville
        (45.58, -122.35), // Washougal
        (45.62, -122.67), // Vancouver
        (45.86, -122.80), // Ridgefield
        (46.10, -122.94), // Longview
        (46.19, -123.18), // Stella
        (46.26, -123.45), // Skamokawa
        (46.25, -123.88), // Megler
        (46.28, -124.05), // Cape Disappointment
        (46.45, -124.05), // Long Beach
        (46.65, -124.06), // Leadbetter Point
        (46.72, -123.98), // Tokeland
        (46.91, -124.12), // Westport
        (46.96, -124.17), // Ocean Shores
        (47.25, -124.22), // Moclips
        (47.35, -124.30), // Taholah
        (47.60, -124.37), // Kalaloch
        (47.91, -124.64), // La Push
        (48.17, -124.73), // Cape Alava
    ]

    /// The map's frame in degrees, a little beyond the state on every side.
    static let west = -124.9, east = -116.8, north = 49.15, south = 45.45
    /// Pixels per degree of latitude; the SVG scales to its box, this only sets the numbers.
    static let scale = 100.0
    static let longitudeFactor = cos(47.5 * Double.pi / 180)

    static var width: Double { (east - west) * longitudeFactor * scale }
    static var height: Double { (north - south) * scale }

    /// Whether `coordinate` falls inside the map's frame.
    static func contains(_ coordinate: ResultCard.Coordinate) -> Bool {
        (south...north).contains(coordinate.latitude) && (west...east).contains(coordinate.longitude)
    }

    /// The point on the map for `latitude`, `longitude`.
    static func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        ((longitude - west) * longitudeFactor * scale, (north - latitude) * scale)
    }

    /// The outline as an SVG path.
    static let outlinePath: String = {
        outline.enumerated().map { index, point in
            let (x, y) = project(latitude: point.0, longitude: point.1)
            return (index == 0 ? "M" : "L") + String(format: "%.1f,%.1f", x, y)
        }.joined() + "Z"
    }()

    /// The viewBox attribute.
    static var viewBox: String { String(format: "0 0 %.0f %.0f", width, height) }
}
