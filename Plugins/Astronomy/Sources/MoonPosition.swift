/// The Moon's geocentric position (Meeus ch. 47, after Chapront's ELP-2000/82): the main
/// periodic terms of tables 47.A and 47.B, good to about 10″ in longitude and 4″ in latitude,
/// which is a second or two of time for rise, set and the phases.
struct MoonPosition {
    /// Apparent ecliptic longitude (nutation included), degrees.
    let longitude: Double
    /// Ecliptic latitude, degrees.
    let latitude: Double
    /// Distance between the centres of the Earth and the Moon, km.
    let distance: Double
    /// Apparent right ascension and declination.
    let equatorial: Equatorial
    /// Equatorial horizontal parallax, degrees.
    var parallax: Double { Degrees.asin(6378.14 / distance) }

    init(julianEphemerisDay jde: Double, earth: EarthOrientation) {
        let t = TimeScale.centuries(julianEphemerisDay: jde)
        // Fundamental arguments, Meeus 47.1–47.5.
        let meanLongitude = 218.3164477 + 481267.88123421 * t - 0.0015786 * t * t
            + t * t * t / 538841 - t * t * t * t / 65194000
        let d = 297.8501921 + 445267.1114034 * t - 0.0018819 * t * t + t * t * t / 545868 - t * t * t * t / 113065000
        let m = 357.5291092 + 35999.0502909 * t - 0.0001536 * t * t + t * t * t / 24490000
        let mPrime = 134.9633964 + 477198.8675055 * t + 0.0087414 * t * t + t * t * t / 69699 - t * t * t * t / 14712000
        let f = 93.2720950 + 483202.0175233 * t - 0.0036539 * t * t - t * t * t / 3526000 + t * t * t * t / 863310000
        let a1 = 119.75 + 131.849 * t
        let a2 = 53.09 + 479264.290 * t
        let a3 = 313.45 + 481266.484 * t
        // The Earth's orbital eccentricity shrinks; terms in the Sun's anomaly scale with it.
        let e = 1 - 0.002516 * t - 0.0000074 * t * t

        var sumL = 0.0, sumR = 0.0, sumB = 0.0
        let multiples = (Multiples(d), Multiples(m), Multiples(mPrime), Multiples(f))
        func rotation(_ term: Term) -> (cos: Double, sin: Double) {
            Multiples.sum(Multiples.sum(Multiples.sum(multiples.0[term.d], multiples.1[term.m]), multiples.2[term.mPrime]), multiples.3[term.f])
        }
        for term in Self.longitudeDistance {
            let scale = term.m == 0 ? 1 : (abs(term.m) == 1 ? e : e * e)
            let turn = rotation(term)
            sumL += scale * term.first * turn.sin
            sumR += scale * term.second * turn.cos
        }
        for term in Self.latitude {
            let scale = term.m == 0 ? 1 : (abs(term.m) == 1 ? e : e * e)
            sumB += scale * term.first * rotation(term).sin
        }
        // Venus (A1), Jupiter (A2) and the Earth's flattening (L′ − F).
        sumL += 3958 * Degrees.sin(a1) + 1962 * Degrees.sin(meanLongitude - f) + 318 * Degrees.sin(a2)
        sumB += -2235 * Degrees.sin(meanLongitude) + 382 * Degrees.sin(a3) + 175 * Degrees.sin(a1 - f)
            + 175 * Degrees.sin(a1 + f) + 127 * Degrees.sin(meanLongitude - mPrime) - 115 * Degrees.sin(meanLongitude + mPrime)

        longitude = Degrees.normalized(meanLongitude + sumL / 1_000_000 + earth.nutationInLongitude)
        latitude = sumB / 1_000_000
        distance = 385000.56 + sumR / 1000
        equatorial = Equatorial(longitude: longitude, latitude: latitude, obliquity: earth.obliquity)
    }

    /// The cosine and sine of 0 to 4 times an angle (degrees), the larger multiples by rotation:
    /// every term of the tables is a sum of such multiples of D, M, M′ and F, so its sine and
    /// cosine follow by angle addition rather than a call each. Rise and set sample the Moon's
    /// position ~150 times a day, where these calls were most of a local answer's astronomy
    /// (scenario 1, docs/performance.md, "Issue 45"); the sums agree with the calls as far as
    /// the arguments themselves are known (`AngleMultiplesTests`).
    struct Multiples {
        private var values: InlineArray<5, (cos: Double, sin: Double)>

        init(_ degrees: Double) {
            let once = (cos: Degrees.cos(degrees), sin: Degrees.sin(degrees))
            values = InlineArray(repeating: (1, 0))
            for k in 1..<5 { values[k] = Self.sum(values[k - 1], once) }
        }

        /// The cosine and sine of the sum of two angles, from theirs.
        static func sum(_ a: (cos: Double, sin: Double), _ b: (cos: Double, sin: Double)) -> (cos: Double, sin: Double) {
            (a.cos * b.cos - a.sin * b.sin, a.sin * b.cos + a.cos * b.sin)
        }

        /// For `multiple` in −4...4.
        subscript(multiple: Int) -> (cos: Double, sin: Double) {
            let value = values[abs(multiple)]
            return multiple < 0 ? (value.cos, -value.sin) : value
        }
    }

    /// One periodic term: multiples of D, M, M′, F and its coefficients (longitude in 10⁻⁶ °
    /// and distance in metres for table 47.A; latitude in 10⁻⁶ ° for table 47.B).
    struct Term {
        let d: Int, m: Int, mPrime: Int, f: Int
        let first: Double, second: Double
        init(_ d: Int, _ m: Int, _ mPrime: Int, _ f: Int, _ first: Double, _ second: Double = 0) {
            self.d = d; self.m = m; self.mPrime = mPrime; self.f = f
            self.first = first; self.second = second
        }
    }

    // Meeus table 47.A: longitude (Σl) and distance (Σr).
    static let longitudeDistance: [Term] = [
        Term(0, 0, 1, 0, 6288774, -20905355),
        Term(2, 0, -1, 0, 1274027, -3699111),
        Term(2, 0, 0, 0, 658314, -2955968),
        Term(0, 0, 2, 0, 213618, -569925),
        Term(0, 1, 0, 0, -185116, 48888),
        Term(0, 0, 0, 2, -114332, -3149),
        Term(2, 0, -2, 0, 58793, 246158),
        Term(2, -1, -1, 0, 57066, -152138),
        Term(2, 0, 1, 0, 53322, -170733),
        Term(2, -1, 0, 0, 45758, -204586),
        Term(0, 1, -1, 0, -40923, -129620),
        Term(1, 0, 0, 0, -34720, 108743),
        Term(0, 1, 1, 0, -30383, 104755),
        Term(2, 0, 0, -2, 15327, 10321),
        Term(0, 0, 1, 2, -12528, 0),
        Term(0, 0, 1, -2, 10980, 79661),
        Term(4, 0, -1, 0, 10675, -34782),
        Term(0, 0, 3, 0, 10034, -23210),
        Term(4, 0, -2, 0, 8548, -21636),
        Term(2, 1, -1, 0, -7888, 24208),
        Term(2, 1, 0, 0, -6766, 30824),
        Term(1, 0, -1, 0, -5163, -8379),
        Term(1, 1, 0, 0, 4987, -16675),
        Term(2, -1, 1, 0, 4036, -12831),
        Term(2, 0, 2, 0, 3994, -10445),
        Term(4, 0, 0, 0, 3861, -11650),
        Term(2, 0, -3, 0, 3665, 14403),
        Term(0, 1, -2, 0, -2689, -7003),
        Term(2, 0, -1, 2, -2602, 0),
        Term(2, -1, -2, 0, 2390, 10056),
        Term(1, 0, 1, 0, -2348, 6322),
        Term(2, -2, 0, 0, 2236, -9884),
        Term(0, 1, 2, 0, -2120, 5751),
        Term(0, 2, 0, 0, -2069, 0),
        Term(2, -2, -1, 0, 2048, -4950),
        Term(2, 0, 1, -2, -1773, 4130),
        Term(2, 0, 0, 2, -1595, 0),
        Term(4, -1, -1, 0, 1215, -3958),
        Term(0, 0, 2, 2, -1110, 0),
        Term(3, 0, -1, 0, -892, 3258),
        Term(2, 1, 1, 0, -810, 2616),
        Term(4, -1, -2, 0, 759, -1897),
        Term(0, 2, -1, 0, -713, -2117),
        Term(2, 2, -1, 0, -700, 2354),
        Term(2, 1, -2, 0, 691, 0),
        Term(2, -1, 0, -2, 596, 0),
        Term(4, 0, 1, 0, 549, -1423),
        Term(0, 0, 4, 0, 537, -1117),
        Term(4, -1, 0, 0, 520, -1571),
        Term(1, 0, -2, 0, -487, -1739),
        Term(2, 1, 0, -2, -399, 0),
        Term(0, 0, 2, -2, -381, -4421),
        Term(1, 1, 1, 0, 351, 0),
        Term(3, 0, -2, 0, -340, 0),
        Term(4, 0, -3, 0, 330, 0),
        Term(2, -1, 2, 0, 327, 0),
        Term(0, 2, 1, 0, -323, 1165),
        Term(1, 1, -1, 0, 299, 0),
        Term(2, 0, 3, 0, 294, 0),
        Term(2, 0, -1, -2, 0, 8752),
    ]

    // Meeus table 47.B: latitude (Σb).
    static let latitude: [Term] = [
        Term(0, 0, 0, 1, 5128122),
        Term(0, 0, 1, 1, 280602),
        Term(0, 0, 1, -1, 277693),
        Term(2, 0, 0, -1, 173237),
        Term(2, 0, -1, 1, 55413),
        Term(2, 0, -1, -1, 46271),
        Term(2, 0, 0, 1, 32573),
        Term(0, 0, 2, 1, 17198),
        Term(2, 0, 1, -1, 9266),
        Term(0, 0, 2, -1, 8822),
        Term(2, -1, 0, -1, 8216),
        Term(2, 0, -2, -1, 4324),
        Term(2, 0, 1, 1, 4200),
        Term(2, 1, 0, -1, -3359),
        Term(2, -1, -1, 1, 2463),
        Term(2, -1, 0, 1, 2211),
        Term(2, -1, -1, -1, 2065),
        Term(0, 1, -1, -1, -1870),
        Term(4, 0, -1, -1, 1828),
        Term(0, 1, 0, 1, -1794),
        Term(0, 0, 0, 3, -1749),
        Term(0, 1, -1, 1, -1565),
        Term(1, 0, 0, 1, -1491),
        Term(0, 1, 1, 1, -1475),
        Term(0, 1, 1, -1, -1410),
        Term(0, 1, 0, -1, -1344),
        Term(1, 0, 0, -1, -1335),
        Term(0, 0, 3, 1, 1107),
        Term(4, 0, 0, -1, 1021),
        Term(4, 0, -1, 1, 833),
        Term(0, 0, 1, -3, 777),
        Term(4, 0, -2, 1, 671),
        Term(2, 0, 0, -3, 607),
        Term(2, 0, 2, -1, 596),
        Term(2, -1, 1, -1, 491),
        Term(2, 0, -2, 1, -451),
        Term(0, 0, 3, -1, 439),
        Term(2, 0, 2, 1, 422),
        Term(2, 0, -3, -1, 421),
        Term(2, 1, -1, 1, -366),
        Term(2, 1, 0, 1, -351),
        Term(4, 0, 0, 1, 331),
        Term(2, -1, 1, 1, 315),
        Term(2, -2, 0, -1, 302),
        Term(0, 0, 1, 3, -283),
        Term(2, 1, 1, -1, -229),
        Term(1, 1, 0, -1, 223),
        Term(1, 1, 0, 1, 223),
        Term(0, 1, -2, -1, -220),
        Term(2, 1, -1, -1, -220),
        Term(1, 0, 1, 1, -185),
        Term(2, -1, -2, -1, 181),
        Term(0, 1, 2, 1, -177),
        Term(4, 0, -2, -1, 176),
        Term(4, -1, -1, -1, 166),
        Term(1, 0, 1, -1, -164),
        Term(4, 0, 1, -1, 132),
        Term(1, 0, -1, -1, -119),
        Term(4, -1, 0, -1, 115),
        Term(2, -2, 0, 1, 107),
    ]
}
