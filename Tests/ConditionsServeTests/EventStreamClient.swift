import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// A client of `/v1/events` reading the stream as an `EventSource` does: blocks of fields ended
/// by a blank line. Its own HTTP client, so `close()` drops the connection as a browser losing
/// the network does.
///
/// `@unchecked Sendable`: one test task uses it, one call at a time.
final class EventStreamClient: @unchecked Sendable {
    /// One block of the stream: an event (`id:`, `event:`, `data:`) or comment lines.
    struct Block: Sendable, CustomStringConvertible {
        let id: Int64?
        let name: String?
        let data: String?
        let comments: [String]

        /// `data` as a JSON object.
        var object: [String: Any] { data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:] }
        var before: String? { object["before"] as? String }
        var after: String? { object["after"] as? String }
        var description: String { "id: \(id.map(String.init) ?? "-") event: \(name ?? "-") data: \(data?.prefix(120) ?? "-") \(comments)" }
    }

    let status: Int
    let headers: HTTPHeaders
    private let client: HTTPClient
    private var body: HTTPClientResponse.Body.AsyncIterator
    private var buffer = ""

    private init(status: Int, headers: HTTPHeaders, client: HTTPClient, body: HTTPClientResponse.Body.AsyncIterator) {
        self.status = status
        self.headers = headers
        self.client = client
        self.body = body
    }

    /// Opens `path` on `server` with `headers`. A stream silent for 2 minutes (heartbeats come
    /// every 15 s) fails the read instead of hanging the test.
    static func open(_ server: some ServedHTTP, _ path: String, headers: [(String, String)] = []) async throws -> EventStreamClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.read = .seconds(120)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        var request = HTTPClientRequest(url: server.base + path)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await client.execute(request, timeout: .seconds(120))
            return EventStreamClient(status: Int(response.status.code), headers: response.headers, client: client,
                                     body: response.body.makeAsyncIterator())
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The next block; nil once the server has ended the stream.
    func next() async throws -> Block? {
        while true {
            if let end = buffer.range(of: "\n\n") {
                let text = String(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                return Self.block(text)
            }
            guard let chunk = try await body.next() else { return nil }
            buffer += String(buffer: chunk)
        }
    }

    /// The next `count` events, skipping comment blocks (kept in `comments`, if given).
    func events(_ count: Int, comments: inout [String]) async throws -> [Block] {
        var events: [Block] = []
        while events.count < count {
            guard let block = try await next() else { break }
            if block.name == nil && block.data == nil { comments += block.comments } else { events.append(block) }
        }
        return events
    }

    func events(_ count: Int) async throws -> [Block] {
        var comments: [String] = []
        return try await events(count, comments: &comments)
    }

    /// Drops the connection.
    func close() async {
        try? await client.shutdown()
    }

    private static func block(_ text: String) -> Block {
        var id: Int64?
        var name: String?
        var data: String?
        var comments: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("id: ") {
                id = Int64(line.dropFirst(4))
            } else if line.hasPrefix("event: ") {
                name = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                data = (data.map { $0 + "\n" } ?? "") + line.dropFirst(6)
            }
        }
        return Block(id: id, name: name, data: data, comments: comments)
    }
}
