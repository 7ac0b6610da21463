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
/// only be sent once replies have come (as a real client does after `initialize`).
enum MCPSession {
    /// The client's side of a running exchange: send lines, wait for replies.
    final class Conversation: Sendable {
        fileprivate let writer: StandardInputWriter
        fileprivate let transcript = Transcript()

        fileprivate init(writer: StandardInputWriter) { self.writer = writer }

        /// Writes `lines`, each followed by a newline.
        func send(_ lines: [String]) async throws {
            _ = try await writer.write(Array((lines.joined(separator: "\n") + "\n").utf8))
        }

        /// Waits until the reply to request `id` has come, or output has ended.
        func waitForReply(to id: Int) async { await waitForReplies(to: [id]) }

        /// Waits until every id in `ids` has a reply, or output has ended.
        func waitForReplies(to ids: Set<Int>) async {
            await transcript.wait { replies in ids.isSubset(of: Set(replies.keys)) }
        }

        /// Waits until `condition` holds for the replies so far (by id), or output has ended.
        func wait(until condition: @escaping @Sendable ([Int: String]) -> Bool) async {
            await transcript.wait(until: condition)
        }
    }

    /// Every stdout line with a numeric id, by id, as it arrives; waiters resume when their
    /// condition holds or the output ends.
    fileprivate actor Transcript {
        private var replies: [Int: String] = [:]
        private var ended = false
        private var waiters: [(condition: @Sendable ([Int: String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

        func wait(until condition: @escaping @Sendable ([Int: String]) -> Bool) async {
            if ended || condition(replies) { return }
            await withCheckedContinuation { waiters.append((condition, $0)) }
        }

        func add(_ line: String) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = object["id"] as? Int else { return }
            replies[id] = line
            let ready = waiters.filter { $0.condition(replies) }
            waiters.removeAll { $0.condition(replies) }
            for waiter in ready { waiter.continuation.resume() }
        }

        func end() {
            ended = true
            let waiting = waiters
            waiters.removeAll()
            for waiter in waiting { waiter.continuation.resume() }
        }
    }

    /// Writes `first`, waits for the reply with id `afterReplyTo`, writes `then`, closes stdin
    /// and collects everything until the program exits.
    static func run(_ arguments: [String], first: [String], then: [String], afterReplyTo id: Int, in directory: URL? = nil,
                    environment extra: [String: String] = [:], timeout: TimeInterval) async throws -> CLI.Output {
        try await converse(arguments, in: directory, environment: extra, timeout: timeout) { session in
            try await session.send(first)
            await session.waitForReply(to: id)
            try await session.send(then)
        }
    }

    /// Runs `conditions arguments` and `script` against it; when the script returns, closes
    /// stdin and collects everything until the program exits. A program outliving `timeout`
    /// has its process group killed and is recorded as an issue.
    static func converse(_ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:], timeout: TimeInterval,
                         _ script: @escaping @Sendable (Conversation) async throws -> Void) async throws -> CLI.Output {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        var environment: [Environment.Key: String] = ["PATH": "/usr/bin:/bin", "HOME": CLI.home.path, "TZ": "UTC"]
        for (name, value) in extra { if let key = Environment.Key(rawValue: name) { environment[key] = value } }
        let variables = environment
        let workingDirectory = FilePath((directory ?? CLI.packageRoot).path)

        let outcome = try await withThrowingTaskGroup(of: CLI.Output?.self) { group -> CLI.Output? in
            group.addTask { [options, variables] in
                let result = try await Subprocess.run(
                    .path(FilePath(CLI.binary.path)), arguments: Arguments(arguments), environment: .custom(variables),
                    workingDirectory: workingDirectory, platformOptions: options,
                    input: .inputWriter, output: .sequence, error: .sequence
                ) { execution in
                    let conversation = Conversation(writer: execution.standardInputWriter)
                    let errors = execution.standardError
                    let output = execution.standardOutput
                    async let stderr = collect(errors)
                    async let stdout = lines(output, into: conversation.transcript)
                    try await script(conversation)
                    try await conversation.writer.finish()
                    return (try await stdout, try await stderr)
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

    /// Collects stdout, handing each complete line to `transcript` as it arrives.
    private static func lines(_ sequence: SubprocessOutputSequence, into transcript: Transcript) async throws -> Data {
        var data = Data()
        var lineStart = 0
        do {
            for try await chunk in sequence {
                chunk.withUnsafeBytes { data.append(contentsOf: $0) }
                while let newline = data[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
                    await transcript.add(String(decoding: data[lineStart..<newline], as: UTF8.self))
                    lineStart = newline + 1
                }
            }
        } catch {
            await transcript.end()
            throw error
        }
        await transcript.end()
        return data
    }

    private static func collect(_ sequence: SubprocessOutputSequence) async throws -> Data {
        var data = Data()
        for try await chunk in sequence { chunk.withUnsafeBytes { data.append(contentsOf: $0) } }
        return data
    }
}
