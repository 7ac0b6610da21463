import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A server the tests talk to over HTTP on loopback: the binary (`ServeProcess`) or the server
/// in this process (`InProcessServer`).
package protocol ServedHTTP: Sendable {
    var port: Int { get }
}

extension ServedHTTP {
    package var base: String { "http://127.0.0.1:\(port)" }

    /// One request; the whole body is read (at most 4 MiB). The deadline counts the wait for
    /// one of the shared client's connections too: 1,000 requests at once queue behind a few, and
    /// a loaded CI machine once took over 30 s to let the last through. It only bounds a hang.
    package func request(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil) async throws -> Reply {
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
package struct Reply: Sendable {
    package let status: Int
    package let headers: HTTPHeaders
    package let body: String

    package func header(_ name: String) -> String? { headers.first(name: name) }
    package var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    package var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// Why `Cache-Control` is not the `max-age` left of a result fresh for `ttl` seconds and
    /// fetched after `since` (an instant taken before the request that fetched it), or nil. The
    /// result has aged by no more than the time since then, so a stalled test widens the range
    /// instead of failing; 2 s of slack cover whole seconds rounded down on both sides.
    package func maxAgeProblem(ttl: Int, fetchedAfter since: ContinuousClock.Instant) -> String? {
        let aged = Int((since.duration(to: .now) / .seconds(1)).rounded(.up))
        let value = header("Cache-Control") ?? "none"
        guard let maxAge = Int(value.replacingOccurrences(of: "max-age=", with: "")), (ttl - aged - 2...ttl).contains(maxAge) else {
            return "Cache-Control: \(value), for a \(ttl) s TTL fetched at most \(aged) s ago"
        }
        return nil
    }
}
