import Foundation

/// What every scenario shares: the binary under test, the workspace, and how hard to measure.
final class Bench {
    let binary: String
    let workspace: Workspace
    let runsOverride: Int?
    /// Seconds each loopback response waits before answering.
    let latency: Double
    /// Scenario 1's median wall time for the local answer, once measured (scenario 6 compares with it).
    var localAnswerMedian: Double?

    init(binary: String, workspace: Workspace, runsOverride: Int?, latency: Double) {
        self.binary = binary
        self.workspace = workspace
        self.runsOverride = runsOverride
        self.latency = latency
    }

    /// How many measured runs: `--runs`, else the scenario's default.
    func runs(_ standard: Int) -> Int { max(1, runsOverride ?? standard) }

    struct Failed: Error, CustomStringConvertible {
        var description: String
        /// Everything the child wrote to stderr, printed to ours when the scenario fails.
        var detail = ""
    }

    /// Runs `conditions arguments`; a non-zero exit is an error carrying the child's stderr.
    @discardableResult
    func conditions(_ arguments: [String], stdin: String = "/dev/null", expectStatus: Int32 = 0) async throws -> ChildRun {
        let run = try await ChildProcess.run(binary, arguments, environment: workspace.environment, stdin: stdin, stderrPath: workspace.file("stderr.txt"))
        guard run.status == expectStatus else {
            let first = run.stderr.split(separator: "\n").first.map { String($0.prefix(160)) } ?? ""
            let urns = arguments.filter { !$0.hasPrefix("-") && !$0.hasPrefix("/") }.prefix(3).joined(separator: " ")
            throw Failed(description: "conditions \(urns)… exited \(run.status): \(first)", detail: run.stderr)
        }
        return run
    }
}
