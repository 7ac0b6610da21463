import Foundation

/// One line of the results table: a measured figure, its target and whether it was met.
struct Figure: Encodable {
    let scenario: Int
    let name: String
    /// The headline number, in `unit`.
    let value: Double
    let unit: String
    /// The figure as printed, e.g. `612 ms (598–640, n=5)`.
    let text: String
    /// The target as printed; empty for figures reported without one.
    let target: String
    /// nil when the figure has no target.
    let passed: Bool?
    /// Every sample behind the figure, when it comes from repeated runs.
    let samples: Samples?

    /// A wall-time figure from repeated runs: median in milliseconds, with min–max.
    static func time(_ scenario: Int, _ name: String, _ samples: Samples, target: String = "", passed: Bool? = nil) -> Figure {
        Figure(scenario: scenario, name: name, value: samples.median * 1000, unit: "ms",
               text: "\(ms(samples.median)) ms (\(ms(samples.min))–\(ms(samples.max)), n=\(samples.values.count))",
               target: target, passed: passed, samples: samples)
    }

    /// A peak-RSS figure from repeated runs: the largest, in MiB.
    static func memory(_ scenario: Int, _ name: String, _ bytes: Samples, limitMiB: Double) -> Figure {
        let peak = bytes.max / 1_048_576
        return Figure(scenario: scenario, name: name, value: peak, unit: "MiB",
                      text: String(format: "%.1f MiB (median %.1f)", peak, bytes.median / 1_048_576),
                      target: String(format: "< %.0f MiB", limitMiB), passed: peak < limitMiB, samples: bytes)
    }

    /// Any other figure.
    static func plain(_ scenario: Int, _ name: String, value: Double, unit: String, text: String,
                      target: String = "", passed: Bool? = nil, samples: Samples? = nil) -> Figure {
        Figure(scenario: scenario, name: name, value: value, unit: unit, text: text, target: target, passed: passed, samples: samples)
    }

    static func ms(_ seconds: Double) -> String {
        seconds < 0.1 ? String(format: "%.1f", seconds * 1000) : String(format: "%.0f", seconds * 1000)
    }
}
