/// Repeated measurements of one figure, summarised by median and spread.
struct Samples: Encodable {
    let values: [Double]

    init(_ values: [Double]) { self.values = values }

    private var sorted: [Double] { values.sorted() }
    var median: Double { quantile(0.5) }
    var min: Double { sorted.first ?? .nan }
    var max: Double { sorted.last ?? .nan }
    /// The first and third quartiles (linear interpolation).
    var q1: Double { quantile(0.25) }
    var q3: Double { quantile(0.75) }

    func quantile(_ q: Double) -> Double {
        let s = sorted
        guard !s.isEmpty else { return .nan }
        let position = q * Double(s.count - 1)
        let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
        return s[low] + (s[high] - s[low]) * (position - Double(low))
    }

    enum CodingKeys: String, CodingKey { case values, median, min, max, q1, q3 }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(values, forKey: .values)
        try container.encode(median, forKey: .median)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(q1, forKey: .q1)
        try container.encode(q3, forKey: .q3)
    }
}
