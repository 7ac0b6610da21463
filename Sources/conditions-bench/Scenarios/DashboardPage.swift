import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Scenario 11: the dashboard at `GET /` of `conditions serve`, for the shipped report
/// (`pass:snoqualmie pass:stevens moon:now phases:5`, passes from the shipped fixtures with a
/// 5-minute TTL as WSDOT's): wrk's p99 of the cached page ≤ 5 ms, page weight (HTML, CSS and
/// script, no images) < 50 KB, and first contentful paint in chromium-headless-shell < 300 ms
/// on loopback (Paint Timing, read by `scripts/browser.py`).
enum DashboardPage {
    static let p99TargetMs = 5.0
    static let weightTargetBytes = 50 * 1024
    static let firstPaintTargetMs = 300.0
    static let report = ["pass:snoqualmie", "pass:stevens", "moon:now", "phases:5"]

    /// The package checkout this binary was built in (for `Fixtures/` and `scripts/browser.py`).
    static func packageRoot() throws -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("scripts/browser.py").path) { return folder }
            folder = folder.deletingLastPathComponent()
        }
        throw Bench.Failed(description: "scenario 11 runs from the package's build folder (it needs Fixtures/ and scripts/browser.py)")
    }

    static func run(_ bench: Bench) async throws -> [Figure] {
        let root = try packageRoot()
        let fixtures = try freshFixtures(root, bench)
        let config = try bench.workspace.config("dashboard", sources: """
            "fixtures": {"module": "Fixtures", "ttl": "5m", "options": {"directory": "\(fixtures.path)"}}
            """, routes: #""pass": "fixtures", "moon": "astronomy", "phases": "astronomy""#)
        let configured = try String(contentsOfFile: config, encoding: .utf8)
        try configured.replacingOccurrences(of: "\"routes\"", with: "\"report\": [\(report.map { "\"\($0)\"" }.joined(separator: ", "))], \"routes\"")
            .write(toFile: config, atomically: true, encoding: .utf8)

        return try await withServer(bench, config: config) { base in
            // Warm: the first answer fills the server's memory.
            _ = try await browser(root, base + "/", ["--eval", "document.querySelectorAll('article.card').length"])

            let wrk = try await run("/usr/bin/wrk", ["-t1", "-c4", "-d5s", "--latency", base + "/"], timeout: 60)
            guard let p99 = latency(wrk, percentile: "99%"), let p50 = latency(wrk, percentile: "50%") else {
                throw Bench.Failed(description: "wrk printed no latency distribution", detail: wrk)
            }
            let rate = wrk.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }.map { String($0.dropFirst("Requests/sec:".count)).trimmingCharacters(in: .whitespaces) } ?? "?"
            let non2xx = wrk.contains("Non-2xx")

            let weightProbe = """
            (() => { const n = performance.getEntriesByType("navigation")[0];
              const assets = performance.getEntriesByType("resource").filter((e) => e.name.includes("/assets/"));
              return {html: n.decodedBodySize, assets: assets.map((e) => e.decodedBodySize), cards: document.querySelectorAll("article.card").length}; })()
            """
            let weight = try await browser(root, base + "/", ["--eval", weightProbe])
            guard let value = weight["value"] as? [String: Any], let html = value["html"] as? Int, let assets = value["assets"] as? [Int], assets.count == 2 else {
                throw Bench.Failed(description: "the browser did not report the page's sizes: \(weight)")
            }
            let total = html + assets.reduce(0, +)

            var paints: [Double] = []
            for _ in 0..<bench.runs(9) {
                let report = try await browser(root, base + "/", ["--timing"])
                guard let timing = report["timing"] as? [String: Any], let paint = timing["firstContentfulPaint"] as? Double else {
                    throw Bench.Failed(description: "no paint timing: \(report)")
                }
                paints.append(paint / 1000)
            }
            let paint = Samples(paints)
            return [
                .plain(11, "GET / (4 cards, cached), wrk p99", value: p99, unit: "ms",
                       text: String(format: "%.2f ms (p50 %.2f ms, %@ req/s, 4 connections)", p99, p50, rate),
                       target: String(format: "≤ %.0f ms", p99TargetMs), passed: p99 <= p99TargetMs && !non2xx),
                .plain(11, "page weight: HTML + CSS + JS", value: Double(total), unit: "bytes",
                       text: String(format: "%.1f KB (HTML %.1f, CSS %.1f, JS %.1f)", Double(total) / 1024, Double(html) / 1024,
                                    Double(assets.max() ?? 0) / 1024, Double(assets.min() ?? 0) / 1024),
                       target: "< 50 KB", passed: total < weightTargetBytes),
                .time(11, "first contentful paint, headless Chromium", paint,
                      target: String(format: "< %.0f ms", firstPaintTargetMs), passed: paint.median * 1000 < firstPaintTargetMs),
            ]
        }
    }

    /// The shipped pass fixtures, fetched just now (and updated as long before that as
    /// recorded): a fixture's recorded `fetchedAt` is days old, so with it no answer would be
    /// fresh and nothing would stay in the server's memory, as a live WSDOT answer does.
    static func freshFixtures(_ root: URL, _ bench: Bench) throws -> URL {
        let folder = try bench.workspace.folder("dashboard-fixtures/pass")
        let formatter = ISO8601DateFormatter()
        let now = Date()
        for name in ["snoqualmie", "stevens"] {
            let data = try Data(contentsOf: root.appendingPathComponent("Fixtures/pass/\(name).json"))
            guard var record = try JSONSerialization.jsonObject(with: data) as? [String: Any], var pass = record["data"] as? [String: Any],
                  let fetched = (record["fetchedAt"] as? String).flatMap(formatter.date(from:)),
                  let updated = (pass["updated"] as? String).flatMap(formatter.date(from:)) else {
                throw Bench.Failed(description: "Fixtures/pass/\(name).json is not a recorded pass result")
            }
            pass["updated"] = formatter.string(from: now.addingTimeInterval(updated.timeIntervalSince(fetched)))
            record["data"] = pass
            record["fetchedAt"] = formatter.string(from: now)
            try JSONSerialization.data(withJSONObject: record).write(to: folder.appendingPathComponent("\(name).json"))
        }
        return folder.deletingLastPathComponent()
    }

    /// `wrk --latency`'s figure for `percentile` ("99%"), in milliseconds.
    static func latency(_ output: String, percentile: String) -> Double? {
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, fields[0] == percentile else { continue }
            let text = String(fields[1])
            for (unit, factor) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
                return Double(text.dropLast(unit.count)).map { $0 * factor }
            }
        }
        return nil
    }

    /// `scripts/browser.py url arguments`, its JSON report.
    static func browser(_ root: URL, _ url: String, _ arguments: [String]) async throws -> [String: Any] {
        let output = try await run("/usr/bin/python3", [root.appendingPathComponent("scripts/browser.py").path, url, "--timeout", "60"] + arguments, timeout: 90)
        guard let report = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any], report["error"] == nil else {
            throw Bench.Failed(description: "scripts/browser.py failed", detail: output)
        }
        return report
    }

    /// Runs a program to its end and returns its stdout.
    static func run(_ program: String, _ arguments: [String], timeout: Double) async throws -> String {
        let result = try await Subprocess.run(.path(FilePath(program)), arguments: Arguments(arguments),
                                              environment: .inherit, output: .string(limit: 16 << 20), error: .discarded)
        guard result.terminationStatus.isSuccess else {
            throw Bench.Failed(description: "\(program) exited with \(result.terminationStatus)", detail: result.standardOutput)
        }
        return result.standardOutput
    }

    /// Starts `conditions serve` on a free loopback port, runs `body` with its base URL, then
    /// stops it with SIGTERM.
    static func withServer<T: Sendable>(_ bench: Bench, config: String, _ body: (String) async throws -> T) async throws -> T {
        let variables = Dictionary(uniqueKeysWithValues: bench.workspace.environment.compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        })
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let result = try await Subprocess.run(
            .path(FilePath(bench.binary)), arguments: ["serve", "--config", config, "--listen", "127.0.0.1:0"],
            environment: .custom(variables), platformOptions: options, input: .none, output: .discarded, error: .sequence
        ) { execution -> Result<T, any Error> in
            var pending = ""
            var log = ""
            var outcome: Result<T, any Error>?
            // One pass over stderr: the body runs when the address appears, then SIGTERM ends
            // the server and with it the stream.
            for try await chunk in execution.standardError {
                let text = chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                log += text
                pending += text
                guard outcome == nil, let range = pending.range(of: "listening on http://127.0.0.1:"),
                      let end = pending[range.upperBound...].firstIndex(of: "\n"), let port = Int(pending[range.upperBound..<end]) else { continue }
                do { outcome = .success(try await body("http://127.0.0.1:\(port)")) } catch { outcome = .failure(error) }
                try? execution.send(signal: .terminate)
            }
            return outcome ?? .failure(Bench.Failed(description: "conditions serve did not start", detail: log))
        }
        return try result.closureResult.get()
    }
}
