import Foundation

/// Scenario 1: a local answer (`moon:now phases:5` from the Astronomy module) should cost
/// about as much as starting the process: median within 2× of `--version`, peak RSS < 28 MiB (relaxed from 1.5× and 25 MiB
/// to spend on libraries: Foundation time formatting, swift-subprocess, swift-crypto).
enum LocalAnswer {
    static let ratioTarget = 2.0
    static let memoryTargetMiB = 28.0

    /// A config shaped like the shipped one: every module configured, passes on WSDOT, the moon local.
    static func config(_ bench: Bench) throws -> String {
        let folder = try bench.workspace.folder("local/Fixtures")
        _ = folder
        return try bench.workspace.config("local", sources: """
            "wsdot": {"module": "WSDOT", "options": {"mode": "html"}},
            "wsdot-api": {"module": "WSDOT", "options": {"mode": "api", "accessCode": "${WSDOT_ACCESS_CODE}"}},
            "aeris": {"module": "Aeris", "options": {"clientId": "${AERIS_CLIENT_ID}", "clientSecret": "${AERIS_CLIENT_SECRET}"}},
            "fixtures": {"module": "Fixtures", "options": {"directory": "Fixtures"}}
            """, routes: #""pass": "wsdot", "moon": "astronomy", "phases": "astronomy""#)
    }

    /// Measures both commands interleaved (so drifting load hits both alike) after two warm-ups.
    static func measure(_ bench: Bench) async throws -> (version: [ChildRun], report: [ChildRun]) {
        let config = try config(bench)
        let report = ["--config", config, "moon:now", "phases:5"]
        for _ in 0..<2 {
            try await bench.conditions(["--version"])
            try await bench.conditions(report)
        }
        var version: [ChildRun] = [], answers: [ChildRun] = []
        for _ in 0..<bench.runs(15) {
            version.append(try await bench.conditions(["--version"]))
            answers.append(try await bench.conditions(report))
        }
        return (version, answers)
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        let (version, report) = try await measure(bench)
        let versionTime = Samples(version.map(\.wall)), reportTime = Samples(report.map(\.wall))
        bench.localAnswerMedian = reportTime.median
        let ratio = reportTime.median / versionTime.median
        return [
            .time(1, "conditions --version", versionTime),
            .time(1, "conditions moon:now phases:5", reportTime),
            .plain(1, "local answer / --version (medians)", value: ratio, unit: "×", text: String(format: "%.2f×", ratio),
                   target: String(format: "≤ %.2f×", ratioTarget), passed: ratio <= ratioTarget),
            .memory(1, "peak RSS, moon:now phases:5", Samples(report.map { Double($0.peakRSS) }), limitMiB: memoryTargetMiB),
            .plain(1, "peak RSS, --version", value: Double(version.map(\.peakRSS).max() ?? 0) / 1_048_576, unit: "MiB",
                   text: String(format: "%.1f MiB", Double(version.map(\.peakRSS).max() ?? 0) / 1_048_576)),
        ]
    }

    /// Scenario 1's median, measuring it if scenario 1 was not run.
    static func median(_ bench: Bench) async throws -> Double {
        if let median = bench.localAnswerMedian { return median }
        let median = Samples(try await measure(bench).report.map(\.wall)).median
        bench.localAnswerMedian = median
        return median
    }
}
