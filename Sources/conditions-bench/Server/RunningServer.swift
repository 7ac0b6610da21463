import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// `conditions serve` running for the length of a closure:
/// its port from the "listening on" line, its memory from /proc, SIGTERM at the end.
///
/// Spawned from this process, not through `conditions-bench-spawn`: its memory is read from
/// /proc/PID/status, whose VmHWM is the server's own.
struct RunningServer: Sendable {
    let pid: pid_t
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }

    /// Resident now (`VmRSS`) and at most so far (`VmHWM`), in bytes.
    func memory() throws -> (resident: Double, peak: Double) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func field(_ name: String) -> Double {
            let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// Runs `conditions serve arguments`, waits for it to listen, runs `body`, then stops it
    /// with SIGTERM and requires exit status 0. `environment`: the workspace's unless given.
    static func with<T: Sendable>(_ bench: Bench, _ arguments: [String], environment: [String: String]? = nil,
                                  _ body: (RunningServer) async throws -> T) async throws -> T {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let variables = Dictionary(uniqueKeysWithValues: (environment ?? bench.workspace.environment).compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        })
        let result = try await Subprocess.run(
            .path(FilePath(bench.binary)),
            arguments: Arguments(["serve"] + arguments),
            environment: .custom(variables),
            platformOptions: options,
            input: .none,
            output: .discarded,
            error: .sequence
        ) { execution -> (T?, String) in
            var log = ""
            var port: Int?
            var lines = execution.standardError.makeAsyncIterator()
            while port == nil, let chunk = try await lines.next() {
                log += chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                if let range = log.range(of: "listening on http://127.0.0.1:") {
                    port = Int(log[range.upperBound...].prefix { $0.isNumber })
                }
            }
            guard let port else { return (nil, log) }
            let server = RunningServer(pid: execution.processIdentifier.value, port: port)
            let value: T
            do {
                value = try await body(server)
            } catch {
                try? execution.send(signal: .kill, toProcessGroup: true)
                throw error
            }
            try execution.send(signal: .terminate)
            while let chunk = try await lines.next() { log += chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
            return (value, log)
        }
        let (value, log) = result.closureResult
        guard let value else { throw Bench.Failed(description: "conditions serve did not start", detail: log) }
        guard result.terminationStatus == .exited(0) else {
            throw Bench.Failed(description: "conditions serve ended with \(result.terminationStatus) after SIGTERM", detail: log)
        }
        return value
    }
}
