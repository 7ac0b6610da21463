import Foundation

/// Scenario 1: a local answer (`moon:now phases:5` from the Astronomy module) should cost
/// about as much as starting the process: median within 1.5× of `--version`, peak RSS at most
/// 28 MiB (issue 45: back from the 2× and 40 MiB allowed while the servers joined the one
/// executable, through the release link `scripts/dev` makes), and at least 2× faster than the
/// same answer from Python and PyEphem (`scripts/peers/moon-ephem.py`), measured in the same run.
enum LocalAnswer {
    static let ratioTarget = 1.5
    static let memoryTargetMiB = 28.0
    static let peerSpeedupTarget = 2.0
    /// The peer: PyEphem in the venv `scripts/dev bench` pins, run from the package root.
    static let peerPython = ".build/ephem-venv/bin/python"
    static let peerScript = "scripts/peers/moon-ephem.py"

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

    /// Measures the commands interleaved (so drifting load hits all alike) after two warm-ups;
    /// the peer only when asked (scenario 6 needs the local answer alone).
    static func measure(_ bench: Bench, peer: Bool = false) async throws -> (version: [ChildRun], report: [ChildRun], peer: [ChildRun]) {
        let config = try config(bench)
        let report = ["--config", config, "moon:now", "phases:5"]
        guard !peer || FileManager.default.isExecutableFile(atPath: peerPython) else {
            throw Bench.Failed(description: "no \(peerPython) for the Python + PyEphem peer; run the benchmark through scripts/dev bench, which makes it")
        }
        func runPeer() async throws -> ChildRun {
            let run = try await ChildProcess.run(peerPython, [peerScript, "47.6097", "-122.3331", "America/Los_Angeles"],
                                                 environment: bench.workspace.environment, stderrPath: bench.workspace.file("peer-stderr.txt"))
            guard run.status == 0 else { throw Bench.Failed(description: "\(peerScript) exited \(run.status)", detail: run.stderr) }
            return run
        }
        for _ in 0..<2 {
            try await bench.conditions(["--version"])
            try await bench.conditions(report)
            if peer { _ = try await runPeer() }
        }
        var version: [ChildRun] = [], answers: [ChildRun] = [], peers: [ChildRun] = []
        for _ in 0..<bench.runs(15) {
            version.append(try await bench.conditions(["--version"]))
            answers.append(try await bench.conditions(report))
            if peer { peers.append(try await runPeer()) }
        }
        return (version, answers, peers)
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        let (version, report, peer) = try await measure(bench, peer: true)
        let versionTime = Samples(version.map(\.wall)), reportTime = Samples(report.map(\.wall)), peerTime = Samples(peer.map(\.wall))
        bench.localAnswerMedian = reportTime.median
        let ratio = reportTime.median / versionTime.median
        let speedup = peerTime.median / reportTime.median
        return [
            .time(1, "Python + PyEphem, the same answer", peerTime),
            .plain(1, "Python + PyEphem / local answer (medians)", value: speedup, unit: "×", text: String(format: "%.1f× faster", speedup),
                   target: String(format: "≥ %.0f×", peerSpeedupTarget), passed: speedup >= peerSpeedupTarget),
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
