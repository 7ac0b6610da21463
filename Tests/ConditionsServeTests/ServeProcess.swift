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

/// A server the tests talk to over HTTP on loopback: the binary (`ServeProcess`) or the server
/// in this process (`InProcessServer`).
protocol ServedHTTP: Sendable {
    var port: Int { get }
}

extension ServedHTTP {
    var base: String { "http://127.0.0.1:\(port)" }

    /// One request; the whole body is read (at most 4 MiB). The deadline counts the wait for
    /// one of the shared client's connections too: 1,000 requests at once queue behind a few, and
    /// a loaded CI machine once took over 30 s to let the last through. It only bounds a hang.
    func request(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
    }
}

/// A response as the tests inspect it.
struct Reply: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: String

    func header(_ name: String) -> String? { headers.first(name: name) }
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// Why `Cache-Control` is not the `max-age` left of a result fresh for `ttl` seconds and
    /// fetched after `since` (an instant taken before the request that fetched it), or nil. The
    /// result has aged by no more than the time since then, so a stalled test widens the range
    /// instead of failing; 2 s of slack cover whole seconds rounded down on both sides.
    func maxAgeProblem(ttl: Int, fetchedAfter since: ContinuousClock.Instant) -> String? {
        let aged = Int((since.duration(to: .now) / .seconds(1)).rounded(.up))
        let value = header("Cache-Control") ?? "none"
        guard let maxAge = Int(value.replacingOccurrences(of: "max-age=", with: "")), (ttl - aged - 2...ttl).contains(maxAge) else {
            return "Cache-Control: \(value), for a \(ttl) s TTL fetched at most \(aged) s ago"
        }
        return nil
    }
}
