import Foundation

/// A point on Earth in decimal degrees, and how far it is from another: the one coordinate type
/// of cards, maps, places and the modules that measure distances (stations, zones).
///
/// ```swift
/// let stevens = GeoPoint(latitude: 47.745, longitude: -121.0933)
/// stevens.kilometres(to: GeoPoint(latitude: 47.4245, longitude: -121.4135))  // ≈ 43 (Snoqualmie)
/// ```
public struct GeoPoint: Sendable, Hashable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double

    /// The point at `latitude`, `longitude`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The mean Earth radius (IUGG), in km.
    public static let earthRadiusKm = 6371.0088
    /// Kilometres in an international mile.
    public static let kmPerMile = 1.609344

    /// The great-circle distance to `other`, in km (haversine).
    public func kilometres(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadiusKm * asin(min(1, sqrt(max(0, a))))
    }
}
