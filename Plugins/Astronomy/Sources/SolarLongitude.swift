import Foundation

/// The Earth's heliocentric longitude and distance from VSOP87D (Bretagnon & Francou 1988),
/// ecliptic and equinox of date, summed over the terms kept in Resources/sun-vsop87d.txt
/// (scripts/series-data.py). The Sun's geocentric longitude is the longitude plus 180°.
struct SolarLongitude: Sendable {
    /// Cosine terms A cos(B + C τ), one array per power of τ.
    struct Series: Sendable {
        var amplitudes: [Double] = []
        var phases: [Double] = []
        var frequencies: [Double] = []
    }

    let longitude: [Series]
    let radius: [Series]

    /// From the table compiled in (`SeriesTables`; `SeriesTablesTests` reads the text too).
    static let shared = SolarLongitude(SeriesTables.sun)

    init(_ table: some SeriesRows) {
        var longitude = [Series](repeating: Series(), count: 6)
        var radius = [Series](repeating: Series(), count: 6)
        var current: (isRadius: Bool, power: Int)?
        table.forEachRow { label, numbers in
            if let label {
                current = (label == "L" || label == "R") ? numbers.first.flatMap { Int(exactly: $0) }
                    .flatMap { (0..<6).contains($0) ? (label == "R", $0) : nil } : nil
                return
            }
            guard let (isRadius, power) = current, numbers.count == 3 else { return }
            let (a, b, c) = (numbers[numbers.startIndex], numbers[numbers.startIndex + 1], numbers[numbers.startIndex + 2])
            if isRadius {
                radius[power].amplitudes.append(a); radius[power].phases.append(b); radius[power].frequencies.append(c)
            } else {
                longitude[power].amplitudes.append(a); longitude[power].phases.append(b); longitude[power].frequencies.append(c)
            }
        }
        self.longitude = longitude
        self.radius = radius
    }

    var termCount: Int { (longitude + radius).reduce(0) { $0 + $1.amplitudes.count } }

    /// The Sun's apparent geocentric longitude, radians (not reduced), less nutation, at `t`
    /// Julian centuries of TDB (TT serves) since J2000.0: the geometric one moved back by the
    /// annual aberration, 20.4898″ at one astronomical unit (Meeus 25.10), which for the Sun
    /// also stands for the light-time.
    func apparentLongitude(centuries t: Double) -> Double { apparentMotion(centuries: t).value }

    /// The apparent longitude with its first and second derivatives, per century (the phase
    /// solver's Halley steps; `LunarLongitude.motion`).
    func apparentMotion(centuries t: Double) -> Motion {
        let tau = t / 10
        let distance = Self.evaluate(radius, tau).perUnit(0.1)
        let longitude = Self.evaluate(longitude, tau).perUnit(0.1)
        // −k/R and its derivatives: k R′/R², k (R″/R² − 2R′²/R³).
        let k = 20.4898 * LunarLongitude.arcsecond
        let r = distance.value
        let aberration = Motion(value: -k / r, rate: k * distance.rate / (r * r),
                                acceleration: k * (distance.acceleration / (r * r) - 2 * distance.rate * distance.rate / (r * r * r)))
        return longitude + Motion(value: .pi, rate: 0, acceleration: 0) + aberration
    }

    /// Σ τᵖ Σ A cos(B + Cτ) with its derivatives, per millennium.
    private static func evaluate(_ series: [Series], _ tau: Double) -> Motion {
        var total = Motion.zero
        var power = Motion(value: 1, rate: 0, acceleration: 0)
        let time = Motion(value: tau, rate: 1, acceleration: 0)
        for part in series {
            var sum = Motion.zero
            for i in part.amplitudes.indices {
                let frequency = part.frequencies[i]
                let cosine = Motion.cosine(of: part.phases[i] + frequency * tau, rate: frequency, acceleration: 0)
                sum.value += part.amplitudes[i] * cosine.value
                sum.rate += part.amplitudes[i] * cosine.rate
                sum.acceleration += part.amplitudes[i] * cosine.acceleration
            }
            total = total + power * sum
            power = power * time
        }
        return total
    }
}
