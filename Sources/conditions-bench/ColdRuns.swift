import Foundation
import LoopbackServer

extension Bench {
    /// `conditions --config config --no-cache --quiet urn`, once to warm up, then `runs` times
    /// (`runs(_:)`): each run's wall time and the range of requests `server` received per run. A
    /// run that failed would measure an error: `conditions` exits non-zero when a URN fails,
    /// which `conditions(_:)` refuses.
    func coldRuns(of urn: String, config: String, server: LoopbackServer, runs: Int) async throws -> (Samples, requests: ClosedRange<Int>) {
        let arguments = ["--config", config, "--no-cache", "--quiet", urn]
        try await conditions(arguments)
        var walls: [Double] = [], requests: [Int] = []
        for _ in 0..<self.runs(runs) {
            server.resetStats()
            walls.append(try await conditions(arguments).wall)
            requests.append(server.stats.totalRequests)
        }
        return (Samples(walls), (requests.min() ?? 0)...(requests.max() ?? 0))
    }
}
