import Dispatch
import Foundation
import Logging
import MCP

/// Newline-delimited JSON-RPC on stdin/stdout, in place of the SDK's `StdioTransport`.
///
/// The SDK's transport puts both descriptors in non-blocking mode and, while no input is
/// waiting, sleeps 10 ms and tries again: an idle server wakes 100 times a second and every
/// request waits up to 10 ms before it is read. It also buffers a line without bound. Here a
/// dedicated thread blocks in `read` (off the cooperative pool, which must never block), so a
/// request is read the moment it arrives and an idle server costs nothing; a line longer than
/// `maximumLineBytes` is skipped and answered with an error instead of being held in memory.
/// Writes go through one serial queue, also off the pool, so a client that stops reading
/// stalls only that queue.
///
/// Memory stays bounded whatever the client does. Messages are handed over on demand: the
/// reading thread holds at most `queuedBytes` of lines the server has not taken (`LineQueue`)
/// and then stops reading, so the client's writes block in the pipe. And while
/// `maximumPendingWrites` replies wait to be written (a client that sends without reading
/// its answers), no further message is taken, so replies cannot pile up either.
package actor LineTransport: Transport {
    package nonisolated let logger: Logger
    /// Replies allowed to wait for the output before input stops being taken.
    package let maximumPendingWrites: Int
    private let reader: Reader
    private let writer: Writer
    private let lines: LineQueue
    private var connected = false
    private var pendingWrites = 0
    private var waitingForOutput: [CheckedContinuation<Void, Never>] = []

    /// A transport over `input` and `output` (descriptors this process owns for its lifetime).
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, maximumLineBytes: Int = 16 << 20,
                 queuedBytes: Int = 1 << 20, maximumPendingWrites: Int = 64, logger: Logger) {
        self.logger = logger
        self.maximumPendingWrites = maximumPendingWrites
        let lines = LineQueue(budget: queuedBytes)
        self.lines = lines
        writer = Writer(descriptor: output)
        reader = Reader(descriptor: input, maximumLineBytes: maximumLineBytes, lines: lines, writer: writer, logger: logger)
    }

    package func connect() async throws {
        guard !connected else { return }
        connected = true
        let thread = Thread { [reader] in reader.run() }
        thread.name = "conditions-mcp-stdin"
        thread.start()
    }

    /// Ends the message stream. The reader thread may stay blocked in `read` until input
    /// ends or the process exits; nothing waits for it.
    package func disconnect() async {
        connected = false
        lines.finish()
        resumeWaitingForOutput()
    }

    package func send(_ data: Data) async throws {
        pendingWrites += 1
        defer {
            pendingWrites -= 1
            if pendingWrites < maximumPendingWrites { resumeWaitingForOutput() }
        }
        try await writer.write(data)
    }

    /// The messages, each read when the server asks for it (the stream buffers nothing).
    /// Every call returns a stream over the same input; the server calls it once.
    package nonisolated func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        AsyncThrowingStream { await self.next() }
    }

    /// The next message once the output has room, nil at end of input.
    private func next() async -> Data? {
        while pendingWrites >= maximumPendingWrites, connected {
            await withCheckedContinuation { waitingForOutput.append($0) }
        }
        return await lines.take()
    }

    private func resumeWaitingForOutput() {
        let waiting = waitingForOutput
        waitingForOutput.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    /// Writes whole lines to the output descriptor on a serial queue of its own.
    final class Writer: Sendable {
        let descriptor: Int32
        private let queue = DispatchQueue(label: "conditions.mcp.stdout")

        init(descriptor: Int32) { self.descriptor = descriptor }

        func write(_ message: Data) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Swift.Error>) in
                queue.async { [descriptor] in
                    continuation.resume(with: Result { try Self.writeLine(message, to: descriptor) })
                }
            }
        }

        /// For the reader thread's own replies (an over-long line); waits for the queue.
        func writeSynchronously(_ message: Data) {
            queue.sync { [descriptor] in _ = try? Self.writeLine(message, to: descriptor) }
        }

        private static func writeLine(_ message: Data, to descriptor: Int32) throws {
            var line = message
            line.append(UInt8(ascii: "\n"))
            try line.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                    }
                    offset += written
                }
            }
        }
    }

    /// Reads lines on its own thread and queues each non-empty one, waiting for room.
    final class Reader: Sendable {
        let descriptor: Int32
        let maximumLineBytes: Int
        let lines: LineQueue
        let writer: Writer
        let logger: Logger

        init(descriptor: Int32, maximumLineBytes: Int, lines: LineQueue, writer: Writer, logger: Logger) {
            self.descriptor = descriptor
            self.maximumLineBytes = maximumLineBytes
            self.lines = lines
            self.writer = writer
            self.logger = logger
        }

        func run() {
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            var pending: [UInt8] = []
            // Set while skipping the rest of an over-long line.
            var skipping = false
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    logger.error("stdin: read failed: \(String(cString: strerror(errno)))")
                    break
                }
                if count == 0 { break }
                var start = 0
                while start < count {
                    guard let newline = chunk[start..<count].firstIndex(of: UInt8(ascii: "\n")) else {
                        if !skipping { pending.append(contentsOf: chunk[start..<count]) }
                        break
                    }
                    if skipping {
                        skipping = false
                    } else {
                        pending.append(contentsOf: chunk[start..<newline])
                        emit(pending)
                    }
                    pending.removeAll(keepingCapacity: pending.count <= 1 << 20)
                    start = newline + 1
                }
                if !skipping, pending.count > maximumLineBytes {
                    skipping = true
                    pending = []
                    reject()
                }
            }
            if !skipping, !pending.isEmpty { emit(pending) }
            lines.finish()
        }

        private func emit(_ line: [UInt8]) {
            // A trailing CR (CRLF clients) and blank lines carry no message.
            var bytes = line[...]
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            guard bytes.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
            lines.put(Data(bytes))
        }

        /// Answers an over-long line itself: its id is somewhere in bytes no longer kept.
        private func reject() {
            let limit = maximumLineBytes >> 20
            logger.warning("stdin: a message longer than \(limit) MiB was skipped")
            let reply = #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message longer than \#(limit) MiB, skipped"}}"#
            writer.writeSynchronously(Data(reply.utf8))
        }
    }
}
