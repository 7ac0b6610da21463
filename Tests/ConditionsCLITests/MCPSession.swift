import Foundation
import TestHarness
import Subprocess
import Testing
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs `conditions` with a live stdin pipe, for protocol exchanges where the next lines may
/// only be sent once a reply has come (as a real client does after `initialize`).
enum MCPSession {
    /// Writes `first`, waits for the reply with id `afterReplyTo`, writes `then`, closes stdin
    /// and collects everything until the program exits. A program outliving `timeout` has its
    /// process group killed and is recorded as an issue.
    static func run(_ arguments: [String], first: [String], then: [String], afterReplyTo id: Int, environment extra: [String: String] = [:], timeout: TimeInterval) async throws -> CLI.Output {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        var environment: [Environment.Key: String] = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path, "TZ": "UTC"]
        for (name, value) in extra { if let key = Environment.Key(rawValue: name) { environment[key] = value } }
        let variables = environment
        let marker = Data("\"id\":\(id),".utf8)

        let outcome = try await withThrowingTaskGroup(of: CLI.Output?.self) { group -> CLI.Output? in
            group.addTask { [options, variables] in
                let result = try await Subprocess.run(
                    .path(FilePath(CLI.binary.path)), arguments: Arguments(arguments), environment: .custom(variables),
                    workingDirectory: FilePath(CLI.packageRoot.path), platformOptions: options,
                    input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    let writer = execution.standardInputWriter
                    let errors = execution.standardError
                    async let stderr = collect(errors)
                    _ = try await writer.write(Array((first.joined(separator: "\n") + "\n").utf8))
                    var stdout = Data()
                    var sentRest = false
                    for try await chunk in execution.standardOutput {
                        chunk.withUnsafeBytes { stdout.append(contentsOf: $0) }
                        if !sentRest, stdout.range(of: marker) != nil {
                            sentRest = true
                            _ = try await writer.write(Array((then.joined(separator: "\n") + "\n").utf8))
                            try await writer.finish()
                        }
                    }
                    if !sentRest { try await writer.finish() }
                    return (stdout, try await stderr)
                }
                let status: Int32
                switch result.terminationStatus {
                case .exited(let code): status = Int32(code)
                case .signaled(let signal): status = 128 + Int32(signal)
                }
                let (stdout, stderr) = result.closureResult
                return CLI.Output(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if first == nil { Issue.record("conditions \(arguments) did not finish within \(timeout) s") }
            return first
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    private static func collect(_ sequence: SubprocessOutputSequence) async throws -> Data {
        var data = Data()
        for try await chunk in sequence { chunk.withUnsafeBytes { data.append(contentsOf: $0) } }
        return data
    }
}
