import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// One load run of `wrk` (Debian's package): a fixed number of keep-alive connections for a
/// fixed time, with throughput and latency percentiles printed by a Lua `done` hook.
struct WrkRun {
    let requestsPerSecond: Double
    /// Seconds.
    let p50: Double
    let p99: Double
    let requests: Int
    /// Socket errors and answers that were not 2xx or 3xx.
    let errors: Int
    /// CPU seconds the server under test spent per request, when measured.
    var cpuPerRequest: Double = .nan

    static let program = "/usr/bin/wrk"

    /// wrk prints its own summary; this hook adds one line the benchmark parses.
    static let script = """
    done = function(summary, latency, requests)
      local e = summary.errors
      io.write(string.format("WRK %d %d %d %d %d\\n", summary.requests, summary.duration,
        latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
    end
    """

    /// `wrk -t threads -c connections -d seconds url`.
    static func run(_ url: String, connections: Int = 100, seconds: Int = 5, threads: Int = 2, workspace: Workspace) async throws -> WrkRun {
        let script = workspace.file("wrk-report.lua")
        if !FileManager.default.fileExists(atPath: script) { try Self.script.write(toFile: script, atomically: true, encoding: .utf8) }
        let result = try await Subprocess.run(
            .path(FilePath(program)),
            arguments: ["-t", String(threads), "-c", String(connections), "-d", "\(seconds)s", "--timeout", "5s", "-s", script, url],
            environment: .custom([.init(rawValue: "PATH")!: "/usr/bin:/bin"]),
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20))
        let output = result.standardOutput
        guard result.terminationStatus == .exited(0),
              let line = output.split(separator: "\n").last(where: { $0.hasPrefix("WRK ") }) else {
            throw Bench.Failed(description: "wrk \(url) failed (\(result.terminationStatus))", detail: output + result.standardError)
        }
        let numbers = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard numbers.count == 5, numbers[1] > 0 else { throw Bench.Failed(description: "wrk: unreadable report \(line)") }
        return WrkRun(requestsPerSecond: numbers[0] / (numbers[1] / 1e6), p50: numbers[2] / 1e6, p99: numbers[3] / 1e6,
                      requests: Int(numbers[0]), errors: Int(numbers[4]))
    }

    /// `12,345 req/s, p50 1.2 ms, p99 4.5 ms`.
    var text: String {
        String(format: "%@ req/s, p50 %.2f ms, p99 %.2f ms%@", Self.grouped(requestsPerSecond), p50 * 1000, p99 * 1000,
               errors == 0 ? "" : ", \(errors) errors")
    }

    static func grouped(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: value.rounded())) ?? String(Int(value))
    }
}

/// Several runs of one target: medians, with the spread of requests/s.
struct WrkSummary {
    let runs: [WrkRun]

    init(_ runs: [WrkRun]) { self.runs = runs }

    var requestsPerSecond: Double { Samples(runs.map(\.requestsPerSecond)).median }
    var p50: Double { Samples(runs.map(\.p50)).median }
    var p99: Double { Samples(runs.map(\.p99)).median }
    var cpuPerRequest: Double { Samples(runs.map(\.cpuPerRequest)).median }
    var errors: Int { runs.reduce(0) { $0 + $1.errors } }

    /// `12,345 req/s (11,000–13,000), p50 1.20 ms, p99 4.50 ms, n=3`.
    var text: String {
        let rates = Samples(runs.map(\.requestsPerSecond))
        return String(format: "%@ req/s (%@–%@), p50 %.2f ms, p99 %.2f ms, %.0f µs CPU/req, n=%d%@", WrkRun.grouped(rates.median),
                      WrkRun.grouped(rates.min), WrkRun.grouped(rates.max), p50 * 1000, p99 * 1000, cpuPerRequest * 1e6, runs.count,
                      errors == 0 ? "" : ", \(errors) errors")
    }
}
