import Foundation
import Testing

/// Runs the built `conditions` binary the way a user or script would, capturing everything.
struct CLI {
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary: `$CONDITIONS_BINARY`, else next to the test bundle (same build folder).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["CONDITIONS_BINARY"] { return URL(fileURLWithPath: path) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // The test runner may live inside a .xctest bundle folder.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("conditions").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("conditions")
    }()

    /// Runs `conditions arguments` in `directory` with a clean environment plus `environment`.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Output {
        var env = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path, "TZ": "UTC"]
        env.merge(environment) { $1 }
        return try runProgram(binary, arguments, in: directory ?? packageRoot, environment: env, stdin: stdin, timeout: timeout)
    }

    /// Runs any program with exactly `environment`, feeding `stdin` (closed at once when nil)
    /// and collecting both output streams; a program outliving `timeout` is terminated and
    /// recorded as an issue.
    static func runProgram(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String], stdin: String? = nil, timeout: TimeInterval) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let collected = CollectedOutput()
        let group = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, stdout: isOut)
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            Issue.record("\(executable.lastPathComponent) \(arguments) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr)
    }

    /// A fresh temporary folder, removed by the caller with `defer`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Pipe contents gathered from two reader threads.
final class CollectedOutput: @unchecked Sendable {
    // Guarded by `lock`; written once per pipe by the reader threads, read after both finish.
    private let lock = NSLock()
    private var out = Data(), err = Data()

    func set(_ data: Data, stdout: Bool) {
        lock.lock(); defer { lock.unlock() }
        if stdout { out = data } else { err = data }
    }
    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
}
