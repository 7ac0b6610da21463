import ConditionsText
import ConditionsGeo
import ConditionsJSON
import ConditionsKit
import Foundation

/// One AWDB station from `/stations`: what a result names and where it is.
struct Station: Sendable, Equatable {
    let triplet: StationTriplet
    let name: String
    /// Feet above sea level, as AWDB gives it; nil when not given.
    let elevationFt: Double?
    let point: GeoPoint
    /// `endDate`, `YYYY-MM-DD…`; AWDB writes `2100-01-01` for a station still reporting.
    let endDate: String?

    /// NRCS's page for the station (`https://wcc.sc.egov.usda.gov/nwcc/site?sitenum=791`).
    var pageURL: URL? { URL(string: "https://wcc.sc.egov.usda.gov/nwcc/site?sitenum=\(triplet.id)") }

    /// Whether the station still reports on `today`: no end date, or one after it.
    func isActive(on today: CivilDate) -> Bool {
        guard let endDate, endDate.utf8.count >= 10 else { return true }
        let parts = endDate.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let end = CivilDate(year: parts[0], month: parts[1], day: parts[2]) else { return true }
        return end > today
    }

    /// A station of `/stations` (or of the memo, which keeps the same members); nil without a
    /// readable triplet or coordinates.
    init?(json: JSONValue) {
        guard let text = json["stationTriplet"]?.stringValue, let triplet = StationTriplet(text),
              let latitude = json["latitude"]?.doubleValue, let longitude = json["longitude"]?.doubleValue,
              latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.triplet = triplet
        let name = json["name"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.name = name.isEmpty ? triplet.text : String(name.prefix(200))
        elevationFt = json["elevation"]?.doubleValue.flatMap { $0.isFinite && abs($0) < 40_000 ? $0 : nil }
        point = GeoPoint(latitude: latitude, longitude: longitude)
        endDate = json["endDate"]?.stringValue
    }

    /// The members kept in the memo and read back by `init?(json:)`.
    var json: JSONValue {
        ["stationTriplet": .string(triplet.text), "name": .string(name), "elevation": JSONValue(elevationFt),
         "latitude": .double(point.latitude), "longitude": .double(point.longitude), "endDate": JSONValue(endDate)]
    }

    /// The station as result data.
    var resultJSON: JSONValue {
        ["triplet": .string(triplet.text), "id": .string(triplet.id), "state": .string(triplet.state), "network": .string(triplet.network),
         "name": .string(name), "elevationFt": JSONValue(elevationFt), "elevationM": JSONValue(elevationFt.map { ($0 * 0.3048).rounded() }),
         "latitude": .double(point.latitude), "longitude": .double(point.longitude), "url": JSONValue(pageURL?.absoluteString)]
    }
}

/// The active stations of `/stations`, in AWDB's order.
struct StationList: Sendable {
    let stations: [Station]

    /// `/stations`' body: an array of stations; entries without a triplet or coordinates are
    /// left out, and so is a station whose `endDate` has passed (AWDB leaves those out itself
    /// when asked `activeOnly=true`). Anything but an array is `badResponse` naming `source`.
    init(document: JSONValue, source: String, today: CivilDate) throws(ConditionsError) {
        guard let entries = document.arrayValue else {
            throw ConditionsError.badResponse("\(source): the station list is \(document.typeName), not an array of stations")
        }
        var seen = Set<StationTriplet>()
        stations = entries.compactMap(Station.init(json:)).filter { $0.isActive(on: today) && seen.insert($0.triplet).inserted }
    }

    /// A list read back from the memo (`json`); nil when it is not one.
    init?(kept: JSONValue) {
        guard let entries = kept["stations"]?.arrayValue else { return nil }
        stations = entries.compactMap(Station.init(json:))
        guard stations.count == entries.count else { return nil }
    }

    /// What the memo keeps: `{"stations": [...]}`.
    var json: JSONValue { ["stations": .array(stations.map(\.json))] }

    /// The station nearest to `point` and how far it is, in km; nil without stations.
    func nearest(to point: GeoPoint) -> (station: Station, km: Double)? {
        var best: (Station, Double)?
        for station in stations {
            let km = point.kilometres(to: station.point)
            if best.map({ km < $0.1 }) ?? true { best = (station, km) }
        }
        return best
    }

    func station(_ triplet: StationTriplet) -> Station? {
        stations.first { $0.triplet == triplet }
    }
}
