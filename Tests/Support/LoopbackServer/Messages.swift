import Foundation

extension LoopbackServer {
    /// A request as the server parsed it.
    public struct Request: Sendable {
        /// The method, e.g. `GET`.
        public var method: String
        /// The request target as sent: path plus `?query`.
        public var target: String
        /// The path part of the target, which routes match.
        public var path: String
        /// The query part of the target without `?`, if any.
        public var query: String?
        /// Header fields, names lower-cased; a repeated field keeps its last value.
        public var headers: [String: String]
        /// The body, read according to Content-Length.
        public var body: Data
        /// Which accepted connection carried the request, counting from 1.
        public var connection: Int
    }

    /// What the server sends back, with optional misbehaviour.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Extra header fields. Content-Length, Connection and Content-Encoding are added by the server.
        public var headers: [String: String]
        /// The body before any gzip encoding.
        public var body: Data
        /// Seconds to wait before sending anything; cut short if the client goes away.
        public var delay: Double
        /// Whether to send the body gzip-encoded with `Content-Encoding: gzip`.
        public var gzip: Bool
        /// A way to misbehave while sending, or nil to behave.
        public var fault: Fault?

        /// A response; every part is optional.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0, gzip: Bool = false, fault: Fault? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.gzip = gzip
            self.fault = fault
        }

        /// A text body, `text/plain` unless `contentType` says otherwise.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
        }

        /// A JSON body given as text.
        public static func json(_ json: String, status: Int = 200) -> Response {
            text(json, status: status, contentType: "application/json")
        }

        /// A redirect to `location`, a path on this server or an absolute URL.
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: ["Location": location])
        }

        /// This response, sent after `seconds`.
        public func delayed(_ seconds: Double) -> Response {
            var copy = self
            copy.delay = seconds
            return copy
        }

        /// This response, gzip-encoded.
        public func gzipped() -> Response {
            var copy = self
            copy.gzip = true
            return copy
        }

        /// This response, sent with `fault`.
        public func with(_ fault: Fault) -> Response {
            var copy = self
            copy.fault = fault
            return copy
        }
    }

    /// Ways a response can go wrong on the wire.
    public enum Fault: Sendable, Equatable {
        /// Sends the whole response (head and body) `chunkBytes` at a time, pausing `interval` seconds between chunks.
        case trickle(chunkBytes: Int, interval: Double)
        /// Sends the head, then nothing until the client or the server gives up.
        case hangAfterHeaders
        /// Declares the full Content-Length, sends the first `afterBytes` of the body, then closes.
        case closeMidBody(afterBytes: Int)
        /// Declares `declared` as Content-Length, sends the real body, then closes.
        case wrongContentLength(declared: Int)
        /// Streams `bytes` bytes of filler without holding them in memory, as a declared
        /// Content-Length or, if `chunked`, with chunked transfer coding and no length.
        case hugeBody(bytes: Int64, chunked: Bool)
        /// Closes the connection without answering.
        case closeWithoutResponse
    }

    /// Counters since start or the last `resetStats()`.
    public struct Stats: Sendable, Equatable {
        /// Requests received, all paths.
        public var totalRequests = 0
        /// Requests received per path (query excluded).
        public var requestsPerPath: [String: Int] = [:]
        /// Connections accepted.
        public var connectionsAccepted = 0
        /// Connections open now.
        public var openConnections = 0
        /// The most connections open at one time.
        public var maxConcurrentConnections = 0
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public var description: String
    }
}
