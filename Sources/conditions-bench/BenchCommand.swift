import ArgumentParser
import Foundation

/// `conditions-bench`: measures the release `conditions` binary against the performance
/// targets, with its own loopback servers (no network), and exits 1 when a target is missed.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conditions-bench",
        abstract: "Measure conditions against its performance targets (no network needed).",
        discussion: """
        Scenarios: 1 local answer vs --version; 2 fan-out of 15 pages at the latency, and a \
        second host; 3 API mode request count; 4 parsing throughput and allocations; 5 a \
        1,000-URN report; 6 a warm-cache report; 7 100,000 URNs on stdin, streamed; 8 pages rendered \
        by chromium-headless-shell beside plain HTML; 9 conditions serve under wrk beside nginx, \
        1,000 event streams, 1,000 cold clients (needs nginx-light and wrk); 10 conditions mcp: \
        resolve latency and idle RSS after start-up and after 300 calls; 11 the dashboard page of \
        conditions serve (wrk, page weight, first paint in headless Chromium); 12 pass:all three ways: \
        the mobile feed, the plain-HTML fan-out, pages rendered by Chromium; 13 the history store \
        with 1,000,000 changes: write throughput, one URN's last 7 days, size on disk; 14 avalanche: and \
        snowpack: for 16 passes (request counts); 15 one conditions serve, 30 clients × 16 cold pass URNs: feed requests per TTL; 16 three \
        serve replicas sharing a throwaway PostgreSQL behind nginx, 1,000 cold clients × 16 pass \
        URNs: feed requests per TTL and latency; 17 wrk through nginx to those replicas, to one \
        of them, and to one replica on SQLite; 18 a PostgreSQL history store with 1,000,000 \
        changes: one URN's last 7 days (16–18 need PostgreSQL, nginx-light and wrk); 19 pass:all of \
        two states; 20 1,000 notices to a loopback target: notices per second, change to 2xx. Exit status 1 \
        when any target is missed.
        """)

    @Option(help: "Measured runs per figure (default: 15 for fast scenarios, 5–7 for slow ones).")
    var runs: Int?

    @Option(help: "Latency of each loopback response, in milliseconds.")
    var latency: Int = 200

    @Option(name: .customLong("scenario"), help: "Run only this scenario (1–19); repeat for several.")
    var scenarios: [Int] = []

    @Flag(help: "Print the machine and every figure as JSON instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("The conditions binary (default: next to this one).", valueName: "path"))
    var binary: String?

    /// Every scenario, in the order they run.
    static let all = Array(1...20)

    func validate() throws {
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
        guard latency >= 0 else { throw ValidationError("--latency must not be negative") }
        if let bad = scenarios.first(where: { !Self.all.contains($0) }) { throw ValidationError("no scenario \(bad); scenarios are 1–19") }
    }

    func run() async throws {
        let binary = self.binary ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("conditions").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ValidationError("no conditions binary at \(binary); build it first: swift build -c release")
        }
        guard FileManager.default.isExecutableFile(atPath: ChildProcess.helper) else {
            throw ValidationError("no \(ChildProcess.helper); build it first: swift build -c release")
        }
        let workspace = try Workspace()
        defer { workspace.remove() }
        let bench = Bench(binary: binary, workspace: workspace, runsOverride: runs, latency: Double(latency) / 1000)
        let machine = await Machine.describe(binary: binary, workspace: workspace)
        if !json { print(machine.lines.joined(separator: "\n") + "\n") }

        var figures: [Figure] = []
        for scenario in scenarios.isEmpty ? Self.all : scenarios.sorted() {
            if !json { FileHandle.standardError.write(Data("running scenario \(scenario)…\n".utf8)) }
            do {
                switch scenario {
                case 1: figures += try await LocalAnswer.run(bench)
                case 2: figures += try await FanOut.run(bench)
                case 3: figures += try await APIMode.run(bench)
                case 4: figures += try await Parsing.run(bench)
                case 5: figures += try await Scale.run(bench)
                case 6: figures += try await WarmCache.run(bench)
                case 7: figures += try await Streaming.run(bench)
                case 8: figures += try await Rendering.run(bench)
                case 9: figures += try await ServerLoad.run(bench)
                case 10: figures += try await MCPServer.run(bench)
                case 11: figures += try await DashboardPage.run(bench)
                case 12: figures += try await ThreeWays.run(bench)
                case 13: figures += try await HistoryStoreFill.run(bench)
                case 14: figures += try await MountainReport.run(bench)
                case 15: figures += try await ColdPasses.run(bench)
                case 16: figures += try await FleetColdBurst.run(bench)
                case 17: figures += try await FleetLatency.run(bench)
                case 18: figures += try await PostgresHistoryQuery.run(bench)
                case 19: figures += try await TwoStates.run(bench)
                case 20: figures += try await NoticeThroughput.run(bench)
                default: break // validate() admits only the scenarios above
                }
            } catch {
                if let failed = error as? Bench.Failed, !failed.detail.isEmpty {
                    FileHandle.standardError.write(Data("scenario \(scenario) failed; the child's stderr:\n\(failed.detail)\n".utf8))
                }
                figures.append(.plain(scenario, "scenario failed", value: .nan, unit: "", text: "\(error)", target: "runs", passed: false))
            }
        }

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            let data = try encoder.encode(Report(machine: machine, figures: figures, passed: !figures.contains { $0.passed == false }))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Table.render(figures))
        }
        if figures.contains(where: { $0.passed == false }) { throw ExitCode(1) }
    }
}

/// The `--json` document.
struct Report: Encodable {
    let machine: Machine
    let figures: [Figure]
    let passed: Bool
}
