import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Runs the built `conditions` binary the way a user or script would, capturing everything.
package struct CLI {
    package struct Output: Sendable {
        /// The exit status, or 128 + the signal for a program killed by one (as a shell reports it).
        package let status: Int32
        package let stdout: String
        package let stderr: String
        package var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        package var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

        /// An outcome; the runners make these, and so does the MCP session helper.
        package init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// A program outlived the time it was given; it was killed.
    package struct TimedOut: Error, CustomStringConvertible {
        package let description: String
    }

    /// The package root, from this file's location.
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary: `$CONDITIONS_BINARY`, else next to the test bundle (same build folder).
    package static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["CONDITIONS_BINARY"] { return URL(fileURLWithPath: path) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // The test runner may live inside a .xctest bundle folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("conditions").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("conditions")
    }()

    /// `HOME` for the programs this test process runs: a folder of its own, so the history store
    /// and the caches under it (`~/.local/state`, `~/.cache`) are shared by this run's tests as
    /// before, but never with another run's, or another commit's, whose schema may differ.
    package static let home: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-tests-home-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Runs `conditions arguments` in `directory` with a clean environment plus `environment`.
    package static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil, timeout: TimeInterval = 60) async throws -> Output {
        var env = ["PATH": "/usr/bin:/bin", "HOME": home.path, "TZ": "UTC"]
        env.merge(environment) { $1 }
        return try await runProgram(binary, arguments, in: directory ?? packageRoot, environment: env, stdin: stdin, timeout: timeout)
    }

    /// Runs any program with exactly `environment`, feeding `stdin` (empty when nil) and
    /// collecting both output streams; a program outliving `timeout` has its process group
    /// killed and is recorded as an issue.
    ///
    /// Waits without blocking a thread (swift-subprocess's pidfd and epoll loop), so any number
    /// of tests can run programs at once on the cooperative pool. The program leads a process
    /// group of its own, so a timeout also ends whatever it started. Output is read until the
    /// program exits, not until every descendant holding its pipes does.
    package static func runProgram(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String], stdin: String? = nil, timeout: TimeInterval) async throws -> Output {
        // A regular file, not a pipe: a program that exits without reading its input cannot
        // raise SIGPIPE in the test process, and no write waits on the program.
        let input = try StdinFile(Data((stdin ?? "").utf8))
        defer { input.close() }
        var options = PlatformOptions()
        // 0: a new group led by the program, so the teardown below reaches its children.
        options.processGroupID = 0
        // Run on cancellation, which is how the timeout ends a run.
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let variables = Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in Environment.Key(rawValue: name).map { ($0, value) } })

        let outcome = try await withThrowingTaskGroup(of: Output?.self) { group -> Output? in
            group.addTask { [options] in
                let result = try await Subprocess.run(
                    .path(FilePath(executable.path)),
                    arguments: Arguments(arguments),
                    environment: .custom(variables),
                    workingDirectory: FilePath(directory.path),
                    platformOptions: options,
                    input: .fileDescriptor(input.descriptor, closeAfterSpawningProcess: false),
                    output: .sequence,
                    error: .sequence
                ) { execution in
                    let errors = execution.standardError
                    async let stderr = collect(errors)
                    let stdout = try await collect(execution.standardOutput)
                    return (stdout, try await stderr)
                }
                let status: Int32
                switch result.terminationStatus {
                case .exited(let code): status = Int32(code)
                case .signaled(let signal): status = 128 + Int32(signal)
                }
                let (stdout, stderr) = result.closureResult
                return Output(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            let first = try await group.next() ?? nil
            if let first {
                group.cancelAll()
                return first
            }
            // Cancelling the run kills the group (the teardown above); what it printed goes
            // into the error, which fails the test that waited.
            group.cancelAll()
            let late = try await group.next() ?? nil
            throw TimedOut(description: "\(executable.lastPathComponent) \(arguments) did not finish within \(timeout) s; "
                + "stdout: \(late?.stdout.prefix(2000) ?? ""); stderr: \(late?.stderr.prefix(2000) ?? "")")
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    /// Everything a pipe delivers until end of file or the program's exit.
    private static func collect(_ sequence: SubprocessOutputSequence) async throws -> Data {
        var data = Data()
        for try await chunk in sequence { chunk.withUnsafeBytes { data.append(contentsOf: $0) } }
        return data
    }

    /// A fresh temporary folder, removed by the caller with `defer`.
    package static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// An unlinked temporary file holding a program's stdin, positioned at its start.
package struct StdinFile: Sendable {
    package let descriptor: FileDescriptor

    package init(_ bytes: Data) throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/conditions-stdin-XXXXXX").utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        descriptor = FileDescriptor(rawValue: raw)
        do {
            unlink(template.withUnsafeBufferPointer { $0.baseAddress! })
            // Only the program it is meant for inherits it (swift-subprocess duplicates it onto 0).
            guard fcntl(raw, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno(rawValue: errno) }
            _ = try descriptor.writeAll(bytes)
            _ = try descriptor.seek(offset: 0, from: .start)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    package func close() { try? descriptor.close() }
}
