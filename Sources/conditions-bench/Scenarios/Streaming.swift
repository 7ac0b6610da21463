import Foundation

/// Scenario 7: 100,000 distinct URNs on stdin (moon positions at hourly instants, computed
/// offline) printed as NDJSON and as CSV. Results print as soon as every earlier one is done,
/// so peak RSS is bounded by the URNs in flight and the input list, not by the report's length:
/// under 64 MiB. Every line must arrive (100,000 results, plus the CSV header).
enum Streaming {
    static let count = 100_000
    static let memoryTargetMiB = 64.0

    static func run(_ bench: Bench) async throws -> [Figure] {
        let start = Date(timeIntervalSince1970: -631_152_000) // 1950-01-01T00:00:00Z
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd'T'HHmm'Z'"
        let list = (0..<count).map { "moon:" + format.string(from: start.addingTimeInterval(Double($0) * 3600)) }.joined(separator: "\n") + "\n"
        let input = bench.workspace.file("urns-100k.txt")
        try list.write(toFile: input, atomically: false, encoding: .utf8)
        let config = try bench.workspace.config("streaming", sources: "", routes: #""moon": "astronomy""#)

        var figures: [Figure] = []
        for (format, expectedLines) in [("ndjson", count), ("csv", count + 1)] {
            let output = bench.workspace.file("streaming.\(format)")
            var runs: [ChildRun] = []
            for _ in 0..<bench.runs(1) {
                let run = try await ChildProcess.run(bench.binary, ["--config", config, "--quiet", "--format", format, "-"],
                                               environment: bench.workspace.environment, stdin: input, stdout: output,
                                               stderrPath: bench.workspace.file("stderr.txt"))
                // Bytes, not Characters: CSV's "\r\n" is one Character.
                let lines = try Data(contentsOf: URL(fileURLWithPath: output)).reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                guard run.status == 0, lines == expectedLines else {
                    throw Bench.Failed(description: "\(format): exit \(run.status), \(lines) of \(expectedLines) lines", detail: run.stderr)
                }
                runs.append(run)
            }
            figures.append(.time(7, "100,000 URNs on stdin, \(format)", Samples(runs.map(\.wall))))
            figures.append(.memory(7, "peak RSS, 100,000 URNs, \(format)", Samples(runs.map { Double($0.peakRSS) }), limitMiB: memoryTargetMiB))
        }
        return figures
    }
}
