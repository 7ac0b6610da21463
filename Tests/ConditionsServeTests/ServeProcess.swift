import AsyncHTTPClient
import Foundation
import TestHarness
import NIOCore
import NIOHTTP1
import Subprocess
import Synchronization
import Testing
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A running `conditions serve` started by a test: its announced port, its stderr so far, and
/// SIGTERM at the end with the exit status checked by the caller.
struct ServeProcess: ServedHTTP {
    struct Ended: Sendable {
        let status: Int32
        let stderr: String
    }

    let port: Int
    let execution: Execution<FileDescriptorInput, DiscardedOutput, SequenceOutput>
    let stderrSoFar: @Sendable () -> String

    /// The server's process id.
    var pid: pid_t { execution.processIdentifier.value }

    /// Starts `conditions serve arguments` in `directory`, waits (at most `startTimeout`) for
    /// "listening on http://…", runs `body`, then sends SIGTERM and waits for the exit.
    /// A server that refuses to start returns its status and stderr without running `body`.
    @discardableResult
    /// `launcher`: a program that execs the rest of its command line (e.g. `prlimit --nofile=…`),
    /// run in front of `conditions`. `binary`: another copy of `conditions` to run.
    static func with(_ arguments: [String], in directory: URL, environment: [String: String] = [:], startTimeout: Duration = .seconds(60),
                     launcher: [String] = [], binary: URL = CLI.binary, _ body: (ServeProcess) async throws -> Void) async throws -> Ended {
        var env = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "TZ": "UTC"]
        env.merge(environment) { $1 }
        let variables = Dictionary(uniqueKeysWithValues: env.compactMap { name, value in Environment.Key(rawValue: name).map { ($0, value) } })
        let input = try StdinFile(Data())
        defer { input.close() }
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let result = try await Subprocess.run(
            .path(FilePath(launcher.first ?? binary.path)),
            arguments: Arguments(launcher.isEmpty ? ["serve"] + arguments : Array(launcher.dropFirst()) + [binary.path, "serve"] + arguments),
            environment: .custom(variables),
            workingDirectory: FilePath(directory.path),
            platformOptions: options,
            input: .fileDescriptor(input.descriptor, closeAfterSpawningProcess: false),
            output: .discarded,
            error: .sequence
        ) { execution -> String in
            let log = LogBox()
            let (lines, lineSink) = AsyncStream<String>.makeStream()
            let errors = execution.standardError
            async let reading: Void = pump(errors, into: log, lines: lineSink)
            do {
                if let port = try await firstPort(in: lines, timeout: startTimeout) {
                    let server = ServeProcess(port: port, execution: execution, stderrSoFar: { log.text.withLock { $0 } })
                    do {
                        try await body(server)
                    } catch {
                        try? execution.send(signal: .terminate)
                        throw error
                    }
                    // The body may have stopped the server itself.
                    try? execution.send(signal: .terminate)
                }
            } catch {
                try? execution.send(signal: .kill)
                try? await reading
                throw error
            }
            // Stderr ends when the server exits.
            try await reading
            return log.text.withLock { $0 }
        }
        let status: Int32
        switch result.terminationStatus {
        case .exited(let code): status = Int32(code)
        case .signaled(let signal): status = 128 + Int32(signal)
        }
        return Ended(status: status, stderr: result.closureResult)
    }

    /// The port of the first "listening on http://host:port" line; nil when stderr ends first.
    private static func firstPort(in lines: AsyncStream<String>, timeout: Duration) async throws -> Int? {
        try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask {
                for await line in lines {
                    if let range = line.range(of: "listening on http://"), let colon = line[range.upperBound...].lastIndex(of: ":") {
                        return Int(line[line.index(after: colon)...])
                    }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw ServeTimeout()
            }
            let port = try await group.next() ?? nil
            group.cancelAll()
            return port
        }
    }

    struct ServeTimeout: Error {}

    /// Everything the server writes on stderr: kept whole, and handed on line by line.
    private static func pump(_ errors: SubprocessOutputSequence, into log: LogBox, lines: AsyncStream<String>.Continuation) async throws {
        defer { lines.finish() }
        var pending = ""
        for try await chunk in errors {
            let text = chunk.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            log.text.withLock { $0 += text }
            pending += text
            while let newline = pending.firstIndex(of: "\n") {
                lines.yield(String(pending[..<newline]))
                pending = String(pending[pending.index(after: newline)...])
            }
        }
    }

    final class LogBox: Sendable {
        let text = Mutex("")
    }
}
