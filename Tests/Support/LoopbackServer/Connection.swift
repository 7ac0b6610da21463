import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One accepted socket, read and written by its own thread only.
final class Connection {
    private let fd: Int32
    private let isStopping: () -> Bool
    /// Bytes received but not yet consumed (a pipelined next request).
    private var buffer: [UInt8] = []

    /// Linux's POLLRDHUP (peer closed its end), which Glibc's module does not export.
    private static let peerClosed: Int16 = 0x2000
    private static let maxHeadBytes = 64 * 1024

    init(fd: Int32, isStopping: @escaping () -> Bool) {
        self.fd = fd
        self.isStopping = isStopping
    }

    // MARK: Reading

    /// The next request, or nil when the peer closes, the server stops, or the request is malformed.
    func readRequest(connection: Int) -> LoopbackServer.Request? {
        var headEnd: Int?
        while true {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd != nil || buffer.count > Self.maxHeadBytes { break }
            guard receive() else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)

        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while buffer.count < length {
            guard receive() else { return nil }
        }
        let body = Data(buffer[..<length])
        buffer.removeFirst(length)

        let target = String(requestLine[1])
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return LoopbackServer.Request(
            method: String(requestLine[0]), target: target, path: String(parts[0]),
            query: parts.count > 1 ? String(parts[1]) : nil, headers: headers, body: body, connection: connection)
    }

    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0, errno == EINTR { continue }
            return false
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<(start + needle.count)]) == needle { return start }
        }
        return nil
    }

    // MARK: Writing

    /// Sends `response`, applying its delay and fault. False when the connection must close.
    func respond(_ response: LoopbackServer.Response, keepAlive: Bool, headOnly: Bool) -> Bool {
        if response.delay > 0, !pause(response.delay) { return false }
        if response.fault == .closeWithoutResponse { return false }

        let body = response.gzip ? Gzip.encode(response.body) : response.body
        var fields = response.headers
        if response.gzip { fields["Content-Encoding"] = "gzip" }
        fields["Connection"] = keepAlive ? "keep-alive" : "close"
        switch response.fault {
        case .hugeBody(let bytes, let chunked):
            if chunked { fields["Transfer-Encoding"] = "chunked" } else { fields["Content-Length"] = String(bytes) }
        case .wrongContentLength(let declared):
            fields["Content-Length"] = String(declared)
        default:
            if fields.keys.allSatisfy({ $0.lowercased() != "content-length" }) { fields["Content-Length"] = String(body.count) }
        }
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let headBytes = Array(head.utf8)

        switch response.fault {
        case .trickle(let chunkBytes, let interval):
            let all = headBytes + (headOnly ? [] : [UInt8](body))
            var offset = 0
            while offset < all.count {
                let end = min(all.count, offset + max(1, chunkBytes))
                guard write(all[offset..<end]) else { return false }
                offset = end
                if offset < all.count, !pause(interval) { return false }
            }
            return true
        case .hangAfterHeaders:
            guard write(headBytes[...]) else { return false }
            while pause(0.1) {}
            return false
        case .closeMidBody(let afterBytes):
            _ = write(headBytes[...]) && write([UInt8](body.prefix(afterBytes))[...])
            return false
        case .wrongContentLength:
            _ = write(headBytes[...]) && write([UInt8](body)[...])
            return false
        case .hugeBody(let bytes, let chunked):
            guard write(headBytes[...]) else { return false }
            return headOnly || streamFiller(bytes, chunked: chunked)
        case .closeWithoutResponse, nil:
            return write(headBytes[...]) && (headOnly || write([UInt8](body)[...]))
        }
    }

    /// Writes `total` filler bytes in 64 KiB pieces, so nothing near `total` is ever allocated.
    private func streamFiller(_ total: Int64, chunked: Bool) -> Bool {
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var left = total
        while left > 0 {
            let count = Int(min(Int64(piece.count), left))
            if chunked, !write(Array(String(count, radix: 16).utf8 + [13, 10])[...]) { return false }
            guard write(piece[..<count]) else { return false }
            if chunked, !write([13, 10][...]) { return false }
            left -= Int64(count)
        }
        return !chunked || write(Array("0\r\n\r\n".utf8)[...])
    }

    private func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Waits `seconds`; false (early) if the peer closes or the server stops.
    private func pause(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if isStopping() { return false }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return true }  // wall-clock-ok: the stand-in's scripted delay (Response.delayed), not a bound on a test
            var poller = pollfd(fd: fd, events: Self.peerClosed, revents: 0)
            let ready = poll(&poller, 1, Int32(min(100, max(1, left * 1000))))
            if ready > 0, poller.revents & (Self.peerClosed | Int16(POLLHUP) | Int16(POLLERR)) != 0 { return false }
        }
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
