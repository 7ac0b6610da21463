import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// SWPC's OVATION aurora forecast (`/json/ovation_aurora_latest.json`): the probability of
/// aurora, in percent, on a 1° grid of longitude 0…359 east and latitude −90…90, indexed by cell
/// so a place's probability is one array read (the document has 65,160 points).
struct OvationGrid: Sendable {
    static let longitudes = 360
    static let latitudes = 181

    let observationTime: Date?
    let forecastTime: Date?
    /// Probability by `cellIndex`; -1 where the document gave no point.
    private let cells: [Int16]
    /// Points skipped: not `[lon, lat, probability]`, off the grid, or not a percentage.
    let skipped: Int
    /// Points read.
    let points: Int

    /// A cell of the grid.
    struct Cell: Equatable, Sendable {
        /// 0…359, east of Greenwich.
        let longitude: Int
        /// −90…90.
        let latitude: Int
    }

    init(document: JSONValue, source: String) throws(ConditionsError) {
        guard let coordinates = document["coordinates"]?.arrayValue else {
            throw ConditionsError.badResponse("\(source): the OVATION aurora forecast has no \"coordinates\" array")
        }
        guard !coordinates.isEmpty else {
            throw ConditionsError.notFound("\(source): the OVATION aurora forecast's \"coordinates\" is an empty array")
        }
        var cells = [Int16](repeating: -1, count: Self.longitudes * Self.latitudes)
        var skipped = 0
        var points = 0
        for point in coordinates {
            guard case .array(let values) = point, values.count >= 3,
                  let longitude = values[0].intValue, let latitude = values[1].intValue, let probability = values[2].doubleValue,
                  (0..<Self.longitudes).contains(longitude), (-90...90).contains(latitude), probability.isFinite, (0...100).contains(probability)
            else {
                skipped += 1
                continue
            }
            cells[Self.cellIndex(Cell(longitude: longitude, latitude: latitude))] = Int16(probability.rounded())
            points += 1
        }
        guard points > 0 else {
            throw ConditionsError.badResponse("\(source): the OVATION aurora forecast has no readable point among its \(coordinates.count)")
        }
        self.cells = cells
        self.skipped = skipped
        self.points = points
        observationTime = document["Observation Time"]?.dateValue
        forecastTime = document["Forecast Time"]?.dateValue
    }

    /// The cell nearest `latitude`, `longitude` (degrees, longitude −180…180 or 0…360): the
    /// longitude wrapped to 0…360 east and both rounded to the whole degree, 359.6 east (−0.4)
    /// being cell 0.
    static func cell(latitude: Double, longitude: Double) -> Cell {
        guard latitude.isFinite, longitude.isFinite else { return Cell(longitude: 0, latitude: 0) }
        var east = longitude.truncatingRemainder(dividingBy: 360)
        if east < 0 { east += 360 }
        let column = Int(east.rounded()) % longitudes
        let row = Int(min(90, max(-90, latitude)).rounded())
        return Cell(longitude: column, latitude: row)
    }

    /// The probability at `cell`, nil where the document gave none.
    func probability(at cell: Cell) -> Int? {
        let value = cells[Self.cellIndex(cell)]
        return value < 0 ? nil : Int(value)
    }

    private static func cellIndex(_ cell: Cell) -> Int {
        cell.longitude * latitudes + (cell.latitude + 90)
    }
}
