import Foundation

/// The Moon's geometric geocentric ecliptic longitude from ELP/MPP02 (Chapront & Francou 2003),
/// with the constants of its fit to DE405/DE406, summed over the terms kept in
/// Resources/moon-elpmpp02.txt (amplitudes of 0.01″ and up; scripts/series-data.py). Only the
/// longitude: a phase is a difference of longitudes on the ecliptic of date, in which the
/// Moon's latitude plays no part.
struct LunarLongitude: Sendable {
    /// Sine terms: `multipliers` of the arguments (4 Delaunay ones for the main problem; those
    /// and the 8 planets' mean longitudes and ζ for the perturbations), amplitude in radians.
    struct Series: Sendable {
        let width: Int
        var multipliers: [Double] = []
        var amplitudes: [Double] = []
        var phases: [Double] = []
    }

    /// The main problem, then the perturbations multiplied by T⁰, T¹, T², T³.
    let main: Series
    let perturbations: [Series]

    /// From the table compiled in (`SeriesTables`; `SeriesTablesTests` reads the text too).
    static let shared = LunarLongitude(SeriesTables.moon)

    init(_ table: some SeriesRows) {
        var all = [Series(width: 4)] + (0..<4).map { _ in Series(width: 13) }
        var current: Int?
        table.forEachRow { label, numbers in
            switch label {
            case "main": current = 0
            case "pert": current = numbers.first.flatMap { Int(exactly: $0) }.map { $0 + 1 }
            case nil:
                guard let index = current, all.indices.contains(index) else { return }
                let width = all[index].width, first = numbers.startIndex
                guard numbers.count >= width + 1 else { return }
                all[index].multipliers += numbers[first..<first + width]
                all[index].amplitudes.append(numbers[first + width] * Self.arcsecond)
                all[index].phases.append(numbers.count > width + 1 ? numbers[first + width + 1] : 0)
            default: current = nil
            }
        }
        main = all[0]
        perturbations = Array(all.dropFirst())
    }

    static let arcsecond = Double.pi / 648000

    /// The number of terms summed, for the tests and the documentation.
    var termCount: Int { main.amplitudes.count + perturbations.reduce(0) { $0 + $1.amplitudes.count } }

    /// Longitude in radians (not reduced) on the mean ecliptic of date from the mean equinox
    /// of date, at `t` Julian centuries of TDB (TT serves) since J2000.0.
    func longitude(centuries t: Double) -> Double { motion(centuries: t).value }

    /// The longitude with its first and second derivatives, per century: the phase solver's
    /// Halley steps need all three, and they cost a sine per term (`Motion.sine`), where the secant
    /// steps they replaced summed the series three or four times (scenario 1, docs/performance.md).
    func motion(centuries t: Double) -> Motion {
        let arguments = ElpArguments(centuries: t)
        var sum = arguments.meanLongitude + Self.sum(main, arguments.values)
        var power = Motion(value: 1, rate: 0, acceleration: 0)
        let time = Motion(value: t, rate: 1, acceleration: 0)
        for series in perturbations {
            sum = sum + power * Self.sum(series, arguments.values)
            power = power * time
        }
        // ELP's longitude is counted from the departure point γ'2000 on the ecliptic of date;
        // the equinox of date has moved from it by the general precession in longitude
        // (IAU 2006, Capitaine et al. 2003), which VSOP87D's equinox of date shares.
        let precession = Motion.polynomial([0, 5028.796195, 1.1054348, 0.00007964].map { $0 * Self.arcsecond }, at: t)
        return sum + precession
    }

    private static func sum(_ series: Series, _ arguments: [Motion]) -> Motion {
        var total = Motion.zero
        let width = series.width
        series.multipliers.withUnsafeBufferPointer { m in
            for term in series.amplitudes.indices {
                var angle = series.phases[term], rate = 0.0, acceleration = 0.0
                let base = term * width
                for i in 0..<width where m[base + i] != 0 {
                    angle += m[base + i] * arguments[i].value
                    rate += m[base + i] * arguments[i].rate
                    acceleration += m[base + i] * arguments[i].acceleration
                }
                let sine = Motion.sine(of: angle, rate: rate, acceleration: acceleration)
                let amplitude = series.amplitudes[term]
                total.value += amplitude * sine.value
                total.rate += amplitude * sine.rate
                total.acceleration += amplitude * sine.acceleration
            }
        }
        return total
    }
}

/// The arguments of ELP/MPP02 at a date (ElpMpp02.cpp's compute_Elp_arguments with the DE405
/// fit, corr = 1): the Moon's mean longitude W1, then D, F, l, l′, the mean longitudes of
/// Mercury to Neptune (the Earth–Moon barycentre's in third place) and ζ, in radians.
struct ElpArguments {
    let meanLongitude: Motion
    /// Each argument with its rates, per century.
    let values: [Motion]

    init(centuries t: Double) {
        let sec = LunarLongitude.arcsecond, deg = Double.pi / 180
        let c = Self.fit
        func polynomial(_ base: Double, _ rates: [Double]) -> Motion {
            Motion.polynomial([base] + rates.map { $0 * sec }, at: t)
        }
        let w1 = polynomial((-142 + 18.0 / 60 + (59.95571 + c.dw10) / 3600) * deg,
                            [1732559343.73604 + c.dw11, -6.8084 + c.dw12, 0.006604 + c.dw13, -3.169e-5 + c.dw14])
        let w2 = polynomial((83 + 21.0 / 60 + (11.67475 + c.dw20) / 3600) * deg,
                            [14643420.3171 + c.dw21 + c.cw21, -38.2631 + c.dw22, -0.045047 + c.dw23, 0.00021301])
        let w3 = polynomial((125 + 2.0 / 60 + (40.39816 + c.dw30) / 3600) * deg,
                            [-6967919.5383 + c.dw31 + c.cw31, 6.359 + c.dw32, 0.007625 + c.dw33, -3.586e-5])
        let earth = polynomial((100 + 27.0 / 60 + (59.13885 + c.deart0) / 3600) * deg,
                               [129597742.293 + c.deart1, -0.0202, 9e-6, 1.5e-7])
        let perihelion = polynomial((102 + 56.0 / 60 + (14.45766 + c.dperi) / 3600) * deg,
                                    [1161.24342, 0.529265, -1.1814e-4, 1.1379e-5])
        let planets: [(Double, Double)] = [
            (-108 + 15.0 / 60 + 3.216919 / 3600, 538101628.66888), (-179 + 58.0 / 60 + 44.758419 / 3600, 210664136.45777),
            (100 + 27.0 / 60 + 59.13885 / 3600, 129597742.293), (-5 + 26.0 / 60 + 3.642778 / 3600, 68905077.65936),
            (34 + 21.0 / 60 + 5.379392 / 3600, 10925660.57335), (50 + 4.0 / 60 + 38.902495 / 3600, 4399609.33632),
            (-46 + 3.0 / 60 + 4.354234 / 3600, 1542482.57845), (-56 + 20.0 / 60 + 56.808371 / 3600, 786547.897),
        ]
        let halfTurn = Motion(value: .pi, rate: 0, acceleration: 0)
        meanLongitude = w1
        values = [w1 - earth + halfTurn, w1 - w3, w1 - w2, earth - perihelion]
            + planets.map { Motion.polynomial([$0.0 * deg, $0.1 * sec], at: t) }
            + [w1 + Motion.polynomial([0, 0.02438029560881907], at: t)]
    }

    /// The DE405 fit's corrections to the arguments, in arcseconds (per century to the power of
    /// the term), and the two derived ones, Cw2_1 and Cw3_1, that follow from them.
    struct Fit {
        let dw10 = -0.07008, dw20 = 0.20794, dw30 = -0.07215, deart0 = -0.00033, dperi = -0.00749
        let dw11 = -0.35106, dgam = 0.00085, de = -0.00006, deart1 = 0.00732, dep = 0.00224
        let dw21 = 0.08017, dw31 = -0.04317, dw12 = -0.03743, dw13 = -0.00018865, dw14 = -0.00001024
        let dw22 = 0.00470602, dw23 = -0.00025213, dw32 = -0.00261070, dw33 = -0.00010712
        let cw21: Double
        let cw31: Double

        init() {
            let sec = LunarLongitude.arcsecond
            let am = 0.074801329, xa = 2 * 0.002571881 / 3
            let bp: [(Double, Double)] = [(0.311079095, -0.103837907), (-0.004482398, 0.000668287),
                                          (-0.001102485, -0.001298072), (0.001056062, -0.000178028),
                                          (0.000050928, -0.000037342)]
            let w11 = (1732559343.73604 + dw11) * sec
            let w21 = (14643420.3171 + dw21) * sec
            let w31 = (-6967919.5383 + dw31) * sec
            let y2 = am * bp[0].0 + xa * bp[4].0
            let y3 = am * bp[0].1 + xa * bp[4].1
            cw21 = (w21 / w11 - y2) * dw11 + y2 / am * deart1 + w11 * bp[1].0 * dgam + w11 * bp[2].0 * de + w11 * bp[3].0 * dep
            cw31 = (w31 / w11 - y3) * dw11 + y3 / am * deart1 + w11 * bp[1].1 * dgam + w11 * bp[2].1 * de + w11 * bp[3].1 * dep
        }
    }

    static let fit = Fit()
}
