import Foundation
import LoopbackServer
import Synchronization

/// A stand-in for an ntfy server on loopback, built from ntfy's documented publish API
/// (docs.ntfy.sh/publish): `POST /<topic>` with the message as the body and `Title`,
/// `Priority`, `Tags`, `Click`, `Attach`, `X-Sequence-ID` as headers (RFC 2047 `=?UTF-8?B?…?=`
/// decoded, as ntfy does), or `POST /` with the JSON form; a bearer token or basic auth when
/// `authorization` is set (401 otherwise); `GET /v1/health`; `GET /<topic>/auth`; and faults queued per request:
/// 429 with `Retry-After`, 500, or a hang until the server stops.
public final class NtfyStandIn: Sendable {
    /// One message as the server took it.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var title: String?
        public var message: String
        public var priority: Int?
        public var tags: [String]
        public var click: String?
        public var attach: String?
        public var sequenceID: String?
    }

    /// What the next publish gets instead of a 200.
    public enum Fault: Sendable {
        case tooManyRequests(retryAfter: Int)
        case serverError
        case hang
    }

    public let server = LoopbackServer()
    private let state = Mutex<(messages: [Message], faults: [Fault], attempts: Int)>(([], [], 0))
    /// `Authorization` the server requires, or nil for none.
    public let authorization: String?

    public init(authorization: String? = nil) {
        self.authorization = authorization
        server.route("/v1/health", .init(headers: ["Content-Type": "application/json"], body: Data(#"{"healthy":true}"#.utf8)))
        server.fallback { [self] request in self.publish(request) }
    }

    public func start() throws { try server.start() }
    public func stop() { server.stop() }

    /// The URL of `topic`.
    public func topicURL(_ topic: String) -> URL { server.url("/\(topic)") }

    /// Messages taken, in order.
    public var messages: [Message] { state.withLock { $0.messages } }
    /// Publish attempts, faults included.
    public var attempts: Int { state.withLock { $0.attempts } }

    /// Queues faults for the next publishes, in order.
    public func fail(_ faults: Fault...) { state.withLock { $0.faults += faults } }

    private func publish(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
        if request.method == "GET", request.path.hasSuffix("/auth") {
            // `GET /<topic>/auth`: whether the credentials may use the topic.
            guard authorization == nil || request.headers["authorization"] == authorization else {
                return .init(status: 401, headers: ["Content-Type": "application/json"], body: Data(#"{"code":40101,"http":401,"error":"unauthorized"}"#.utf8))
            }
            return .init(headers: ["Content-Type": "application/json"], body: Data(#"{"success":true}"#.utf8))
        }
        guard request.method == "POST" || request.method == "PUT" else { return .init(status: 405) }
        let fault: Fault? = state.withLock { state in
            state.attempts += 1
            return state.faults.isEmpty ? nil : state.faults.removeFirst()
        }
        switch fault {
        case .tooManyRequests(let seconds):
            return .init(status: 429, headers: ["Retry-After": "\(seconds)", "Content-Type": "application/json"],
                         body: Data(#"{"code":42901,"http":429,"error":"limit reached: too many requests"}"#.utf8))
        case .serverError: return .init(status: 500, body: Data(#"{"code":50001,"http":500,"error":"internal server error"}"#.utf8))
        case .hang: return .init(status: 200, delay: 3600)
        case nil: break
        }
        if let authorization, request.headers["authorization"] != authorization {
            return .init(status: 401, headers: ["Content-Type": "application/json"], body: Data(#"{"code":40101,"http":401,"error":"unauthorized"}"#.utf8))
        }
        let header = { (name: String) in request.headers[name.lowercased()].map(Self.decoded) }
        var message: Message
        if request.path == "/" {
            guard let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any], let topic = object["topic"] as? String else {
                return .init(status: 400, body: Data(#"{"code":40001,"http":400,"error":"invalid request: topic missing"}"#.utf8))
            }
            message = Message(topic: topic, title: object["title"] as? String, message: object["message"] as? String ?? "",
                              priority: object["priority"] as? Int, tags: object["tags"] as? [String] ?? [], click: object["click"] as? String,
                              attach: object["attach"] as? String, sequenceID: object["sequence_id"] as? String)
        } else {
            message = Message(topic: String(request.path.dropFirst()), title: header("Title"), message: String(decoding: request.body, as: UTF8.self),
                              priority: header("Priority").flatMap { Int($0) }, tags: header("Tags")?.split(separator: ",").map(String.init) ?? [],
                              click: header("Click"), attach: header("Attach"), sequenceID: header("X-Sequence-ID"))
        }
        if let id = message.sequenceID, id.count > 64 || !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
            return .init(status: 400, body: Data(#"{"code":40049,"http":400,"error":"invalid request: sequence ID invalid"}"#.utf8))
        }
        if message.message.utf8.count > 4096 { return .init(status: 413) }
        state.withLock { $0.messages.append(message) }
        let reply = #"{"id":"\#(UUID().uuidString.prefix(12))","time":\#(Int(Date().timeIntervalSince1970)),"event":"message","topic":"\#(message.topic)"}"#
        return .init(headers: ["Content-Type": "application/json"], body: Data(reply.utf8))
    }

    /// A header as ntfy reads it: RFC 2047's `=?UTF-8?B?…?=` decoded.
    static func decoded(_ value: String) -> String {
        guard value.hasPrefix("=?UTF-8?B?") || value.hasPrefix("=?utf-8?b?"), value.hasSuffix("?="),
              let data = Data(base64Encoded: String(value.dropFirst(10).dropLast(2))) else { return value }
        return String(decoding: data, as: UTF8.self)
    }
}
