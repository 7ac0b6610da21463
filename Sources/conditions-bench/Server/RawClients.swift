import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Many plain HTTP/1.1 connections to a loopback port, driven from one thread of their own
/// with poll(2): enough to hold 1,000 idle event streams, or to send 1,000 requests within a
/// few milliseconds, without 1,000 threads or an HTTP client library's own pooling.
///
/// `@unchecked Sendable`: the descriptors are used by one call at a time, each of which runs
/// on its own thread and returns before the caller can make the next.
final class RawClients: @unchecked Sendable {
    struct Reply: Sendable {
        /// The status code of the first response line; 0 when none arrived.
        let status: Int
        let bytes: [UInt8]
        /// Seconds from this connection's request written to its answer complete.
        var seconds: Double = .nan
    }

    private var descriptors: [Int32]

    private init(_ descriptors: [Int32]) { self.descriptors = descriptors }

    deinit { close() }

    var count: Int { descriptors.count }

    /// A GET request for `path`, keep-alive.
    static func get(_ path: String) -> [UInt8] { Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n".utf8) }

    /// Opens `count` connections to 127.0.0.1:`port`.
    static func open(port: Int, count: Int) async throws -> RawClients {
        try await onThread {
            var opened: [Int32] = []
            opened.reserveCapacity(count)
            do {
                for _ in 0..<count { opened.append(try connect(port: port)) }
            } catch {
                for fd in opened { Glibc.close(fd) }
                throw error
            }
            return RawClients(opened)
        }
    }

    /// Sends `request` on every connection, all before reading any, then reads each until
    /// `complete` accepts what it received; an error when any is still incomplete after
    /// `timeout` seconds or closed early.
    func send(_ request: [UInt8], until complete: @escaping @Sendable ([UInt8]) -> Bool = RawClients.responseComplete,
              timeout: Double) async throws -> [Reply] {
        let descriptors = self.descriptors
        return try await Self.onThread {
            var sentAt = [Double](repeating: .nan, count: descriptors.count)
            var doneAt = [Double](repeating: .nan, count: descriptors.count)
            for (index, fd) in descriptors.enumerated() {
                sentAt[index] = Clock.now()
                var sent = 0
                while sent < request.count {
                    let written = request.withUnsafeBytes { write(fd, $0.baseAddress! + sent, request.count - sent) }
                    if written < 0 {
                        if errno == EAGAIN || errno == EINTR { continue }
                        throw Bench.Failed(description: "write: \(String(cString: strerror(errno)))")
                    }
                    sent += written
                }
            }
            var buffers = [[UInt8]](repeating: [], count: descriptors.count)
            var pending = Set(descriptors.indices)
            let deadline = Clock.now() + timeout
            var chunk = [UInt8](repeating: 0, count: 65536)
            while !pending.isEmpty {
                let remaining = deadline - Clock.now()
                guard remaining > 0 else {
                    throw Bench.Failed(description: "\(pending.count) of \(descriptors.count) connections had no complete answer after \(Int(timeout)) s")
                }
                let waiting = Array(pending)
                var polls = waiting.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
                let ready = poll(&polls, nfds_t(polls.count), Int32(min(remaining, 1) * 1000))
                if ready < 0 && errno != EINTR { throw Bench.Failed(description: "poll: \(String(cString: strerror(errno)))") }
                for (slot, index) in waiting.enumerated() where polls[slot].revents != 0 {
                    let got = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress, $0.count) }
                    if got > 0 {
                        buffers[index] += chunk[0..<got]
                        if complete(buffers[index]) {
                            pending.remove(index)
                            doneAt[index] = Clock.now()
                        }
                    } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                        throw Bench.Failed(description: "a connection closed before its answer was complete (\(buffers[index].count) bytes)")
                    }
                }
            }
            return buffers.indices.map { Reply(status: Self.status(buffers[$0]), bytes: buffers[$0], seconds: doneAt[$0] - sentAt[$0]) }
        }
    }

    /// Closes every connection.
    func close() {
        for fd in descriptors { Glibc.close(fd) }
        descriptors = []
    }

    /// Opens `count` connections, sends `request` on each, waits for complete responses, closes.
    static func exchange(port: Int, count: Int, request: [UInt8], timeout: Double) async throws -> [Reply] {
        let clients = try await open(port: port, count: count)
        defer { clients.close() }
        return try await clients.send(request, timeout: timeout)
    }

    /// Whether `bytes` hold a whole response: its head and as much body as `Content-Length`
    /// says, or a chunked body's last chunk.
    @Sendable static func responseComplete(_ bytes: [UInt8]) -> Bool {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }) else { return false }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
           let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
            return bytes.count - (end + 4) >= length
        }
        if head.contains("transfer-encoding: chunked") { return bytes.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8)) }
        // No body: 304, or a head without length.
        return true
    }

    private static func status(_ bytes: [UInt8]) -> Int {
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.".utf8)) else { return 0 }
        return Int(String(decoding: bytes[9..<12], as: UTF8.self)) ?? 0
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Bench.Failed(description: "socket: \(String(cString: strerror(errno))) (raise the open files limit?)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Bench.Failed(description: "connect to port \(port): \(reason)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Runs blocking work on a thread of its own, never on the cooperative pool.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }
}
