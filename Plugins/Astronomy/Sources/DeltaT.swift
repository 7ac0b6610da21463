import Foundation

/// ΔT = TT − UT in seconds.
///
/// - 1900 to the start of the year after the last IERS value: the observed values in
///   Resources/delta-t.txt (one a year, from Skyfield's bundled Morrison et al. 2021 Table S15
///   and IERS series; scripts/delta-t-table.py), interpolated linearly, which stays within
///   0.09 s of the daily series.
/// - Later: a cubic leaving the last value with the last year's slope and joining, in 2800,
///   the long-term parabola of Stephenson, Morrison and Hohenkerk (2016),
///   −320 s + 32.5 s × ((year − 1825)/100)², which it follows after; the construction Skyfield
///   uses. Nobody can predict the Earth's rotation decades ahead: extrapolations made in 2006
///   (Espenak–Meeus) were 5 s high by 2025, so take the result as good to roughly ±5 s by 2035,
///   ±30 s by 2060 and one to two minutes by 2100.
/// - Before 1900: the polynomials of Espenak and Meeus (NASA/TP-2006-214141).
enum DeltaT {
    /// The first year of the table and its values at January 1.0 of each year on.
    /// From the table compiled in (`SeriesTables.deltaT`, written from the text by
    /// scripts/series-swift.py; `SeriesTablesTests` reads the text too): the first phase a
    /// local answer asks for reads it.
    static let table = table(SeriesTables.deltaT)

    static func table(_ rows: some SeriesRows) -> (first: Double, values: [Double]) {
        var numbers: [Double] = []
        rows.forEachRow { label, row in
            if label == nil, let number = row.first { numbers.append(number) }
        }
        return (numbers.first ?? 1900, Array(numbers.dropFirst()))
    }

    /// The year the extrapolation meets the long-term parabola.
    static let parabolaJoin = 2800.0

    static func seconds(decimalYear y: Double) -> Double {
        let (first, values) = table
        guard values.count >= 2 else { return espenakMeeus(decimalYear: y) }
        let last = first + Double(values.count - 1)
        switch y {
        case ..<first:
            return espenakMeeus(decimalYear: y)
        case ...last:
            let position = y - first
            let index = min(Int(position), values.count - 2)
            let u = position - Double(index)
            return values[index] + (values[index + 1] - values[index]) * u
        case ..<parabolaJoin:
            let slope = values[values.count - 1] - values[values.count - 2]
            return hermite(y, from: (last, values[values.count - 1], slope),
                           to: (parabolaJoin, parabola(parabolaJoin), parabolaSlope(parabolaJoin)))
        default:
            return parabola(y)
        }
    }

    static func parabola(_ y: Double) -> Double {
        let u = (y - 1825) / 100
        return -320 + 32.5 * u * u
    }

    static func parabolaSlope(_ y: Double) -> Double { 2 * 32.5 * (y - 1825) / 10000 }

    /// The cubic with the given values and slopes (seconds per year) at both ends.
    static func hermite(_ y: Double, from a: (year: Double, value: Double, slope: Double),
                        to b: (year: Double, value: Double, slope: Double)) -> Double {
        let width = b.year - a.year
        let s = (y - a.year) / width
        let s2 = s * s, s3 = s2 * s
        return (2 * s3 - 3 * s2 + 1) * a.value + (s3 - 2 * s2 + s) * width * a.slope
            + (-2 * s3 + 3 * s2) * b.value + (s3 - s2) * width * b.slope
    }

    /// Espenak and Meeus ("Five Millennium Canon of Solar Eclipses", NASA/TP-2006-214141),
    /// for the years before the table.
    static func espenakMeeus(decimalYear y: Double) -> Double {
        switch y {
        case ..<1860:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        case ..<1900:
            let t = y - 1860
            return 7.62 + 0.5737 * t - 0.251754 * t * t + 0.01680668 * pow(t, 3)
                - 0.0004473624 * pow(t, 4) + pow(t, 5) / 233174
        default:
            let t = y - 1900
            return -2.79 + 1.494119 * t - 0.0598939 * t * t + 0.0061966 * pow(t, 3) - 0.000197 * pow(t, 4)
        }
    }
}
