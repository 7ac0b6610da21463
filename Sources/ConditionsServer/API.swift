import ConditionsCore
import ConditionsJSON
import ConditionsKit
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The endpoints' bodies and headers.
struct API: Sendable {
    let server: ConditionsServer

    /// An error answered before any URN is resolved: one line of JSON, never cached.
    struct RequestError: Error, HTTPResponseError {
        let status: HTTPResponse.Status
        let kind: String
        let message: String

        /// A request failing as a URN could (`invalidURN`, `tooLarge`, …).
        init(status: HTTPResponse.Status, kind: ErrorKind, message: String) {
            (self.status, self.kind, self.message) = (status, kind.rawValue, message)
        }

        /// A request failing in a way only a request can.
        init(status: HTTPResponse.Status, kind: RequestKind, message: String) {
            (self.status, self.kind, self.message) = (status, kind.rawValue, message)
        }

        func response(from request: Request, context: some RequestContext) throws -> Response {
            API.errorResponse(status: status, kind: kind, message: message)
        }
    }

    /// The kinds only a request to `serve` fails with, before any URN is resolved; beside them
    /// a request may fail with a result's kind (`ErrorKind`: `invalidURN`, `notFound`, `tooLarge`, `internal`).
    enum RequestKind: String, Sendable {
        case invalidRequest, tooManyURNs, methodNotAllowed, unauthorized, shuttingDown, historyUnavailable
    }

    static func errorResponse(status: HTTPResponse.Status, kind: ErrorKind, message: String, headers: HTTPFields = [:]) -> Response {
        errorResponse(status: status, kind: kind.rawValue, message: message, headers: headers)
    }

    static func errorResponse(status: HTTPResponse.Status, kind: RequestKind, message: String, headers: HTTPFields = [:]) -> Response {
        errorResponse(status: status, kind: kind.rawValue, message: message, headers: headers)
    }

    /// The body of every error `serve` answers: `{"error": {"kind", "message"}}`.
    static func errorResponse(status: HTTPResponse.Status, kind: String, message: String, headers: HTTPFields = [:]) -> Response {
        let body: JSONValue = ["error": ["kind": .string(kind), "message": .string(message)]]
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body.serialized() + "\n")))
    }

    /// The HTTP status for a record: 200 for results (stale included), else by error kind.
    static func status(for record: ResultRecord) -> HTTPResponse.Status {
        guard case .failure(let kind, _, _) = record.outcome else { return .ok }
        return kind.httpStatus
    }

    func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func ready() -> Response {
        var fields: [(String, JSONValue)] = [("ready", true), ("sources", .int(server.runtime.instances.count)),
                                             ("routes", .int(server.runtime.router.routes.count))]
        var status = HTTPResponse.Status.ok
        // A replica whose shared database is away still answers (from upstreams, spooling its
        // history), but a load balancer should prefer one that shares: 503 with the reason.
        if let fleet = server.fleet {
            let reason: String?
            switch fleet.availability {
            case .ready: reason = nil
            case .unknown: reason = "not reached yet"
            case .unavailable(let why): reason = why
            }
            if let reason {
                status = .serviceUnavailable
                fields[0].1 = false
                fields.append(("reason", .string("PostgreSQL at \(fleet.shownURL): \(reason)")))
            } else {
                fields.append(("database", "ready"))
            }
        }
        // The broker is not on a request's path: the server stays ready without it, and says so.
        if let connection = server.homeAssistant {
            var mqtt: [(String, JSONValue)] = [("broker", .string(connection.broker.address))]
            switch connection.status.current {
            case .connected: mqtt.append(("connected", true))
            case .connecting: mqtt += [("connected", false), ("reason", "connecting")]
            case .unavailable(let why): mqtt += [("connected", false), ("reason", .string(why))]
            }
            mqtt.append(("publishing", .bool(connection.status.isPublisher)))
            fields.append(("mqtt", .object(JSONObject(mqtt))))
        }
        let body = JSONValue.object(JSONObject(fields))
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: body.serialized() + "\n")))
    }

    /// What `conditions routes --format json` prints.
    func routes() -> JSONValue {
        .array(server.runtime.router.routes.map(\.json))
    }

    /// The instances and modules `conditions sources` lists: ids, modules and schemes only,
    /// never an option (which may hold a secret).
    func sources() -> JSONValue {
        let configuration = server.runtime.configuration
        return [
            "instances": .array(server.runtime.instances.map { instance in
                ["id": .string(instance.id), "module": .string(instance.module), "ttl": .int(Int(instance.ttl)),
                 "schemes": .array(configuration.schemes(of: instance.id).map(JSONValue.string))]
            }),
            "modules": .array(server.runtime.catalog.modules.map { ["module": .string($0.moduleName), "serves": .string($0.summary)] }),
        ]
    }

    /// A JSON body with validators; `maxAge` nil means `no-store`.
    func json(_ value: JSONValue, request: Request, status: HTTPResponse.Status = .ok, maxAge: Int? = 0, lastModified: String? = nil) -> Response {
        let bytes = Array((value.serialized() + "\n").utf8)
        return body(ByteBuffer(bytes: bytes), etag: HTTPCaching.etag(bytes), contentType: "application/json", request: request,
                    status: status, maxAge: maxAge, lastModified: lastModified)
    }

    /// A body with its validators: `ETag` and `Last-Modified` on 200 (and `If-None-Match`
    /// answered 304), `Cache-Control` from `maxAge` (nil: `no-store`).
    func body(_ buffer: ByteBuffer, etag: String, contentType: String, request: Request, status: HTTPResponse.Status,
              maxAge: Int?, lastModified: String?) -> Response {
        let head = Self.validated(etag: etag, contentType: contentType, status: status, maxAge: maxAge, lastModified: lastModified,
                                  ifNoneMatch: request.headers[.ifNoneMatch])
        if head.status == .notModified { return Response(status: .notModified, headers: head.headers) }
        return Response(status: status, headers: head.headers, body: .init(byteBuffer: buffer))
    }

    /// The status and headers of a body with validators: 304 when `ifNoneMatch` names the ETag
    /// of a 200. In HTTPTypes' fields by default, or NIO's headers for `CachedAnswers`.
    static func validated<Fields: ResponseFields>(etag: String, contentType: String, status: HTTPResponse.Status, maxAge: Int?,
                                                  lastModified: String?, ifNoneMatch: String?,
                                                  as: Fields.Type = HTTPFields.self) -> (status: HTTPResponse.Status, headers: Fields) {
        var headers = Fields()
        headers.reserveCapacity(8)
        headers.append(.contentType, contentType)
        headers.append(.cacheControl, maxAge.map { "max-age=\($0)" } ?? "no-store")
        guard status == .ok else { return (status, headers) }
        headers.append(.eTag, etag)
        if let lastModified { headers.append(.lastModified, lastModified) }
        if let ifNoneMatch, HTTPCaching.matches(ifNoneMatch: ifNoneMatch, etag: etag) { return (.notModified, headers) }
        return (status, headers)
    }

    /// The URN of a `/v1/urn/{urn}` path, percent-decoded.
    static func urn(path: String) -> String {
        let raw = path.dropFirst("/v1/urn/".count)
        // Foundation's `contains` on strings goes through CFString; a byte search does not.
        return raw.utf8.contains(UInt8(ascii: "%")) ? String(raw).removingPercentEncoding ?? String(raw) : String(raw)
    }

    /// The `Cache-Control` freshness of an answer: nil (`no-store`) unless it is a 200.
    static func maxAge(of answer: ResultCoordinator.Answer, status: HTTPResponse.Status) -> Int? {
        status == .ok ? answer.maxAge : nil
    }

    /// `GET /v1/urn/{urn}`: one result object, its status by error kind. The body and its
    /// validators were made once, when the result was resolved.
    func single(_ request: Request) async -> Response {
        let answer = await server.coordinator.resolve(Self.urn(path: request.uri.path))
        let status = Self.status(for: answer.record)
        return body(answer.rendered.line, etag: answer.rendered.etag, contentType: "application/json", request: request, status: status,
                    maxAge: Self.maxAge(of: answer, status: status), lastModified: answer.rendered.lastModified)
    }

    /// `/v1/resolve`: every answer in the order asked; fresh for as long as the least fresh one.
    func many(_ urns: [String], request: Request) async throws -> Response {
        let answers = await server.coordinator.resolve(urns)
        let failed = answers.contains { $0.record.failed }
        let maxAge = failed ? nil : answers.map(\.maxAge).min()
        let lastModified = failed ? nil : answers.compactMap { answer -> Date? in
            if case .success(_, _, let fetchedAt, _, _) = answer.record.outcome { return fetchedAt }
            return nil
        }.max().map(HTTPCaching.httpDate)
        // Each answer's line is already serialized: NDJSON is their concatenation, and the
        // array the same lines between brackets and commas.
        var buffer = ByteBuffer()
        // A URN several chains answered (`pass:all` of two states) is a result per answer, as
        // the CLI lists them.
        let lines = answers.flatMap(\.rendered.answerLines)
        buffer.reserveCapacity(lines.reduce(2) { $0 + $1.readableBytes })
        let ndjson = request.headers[.accept]?.contains("application/x-ndjson") == true
        if !ndjson { buffer.writeInteger(UInt8(ascii: "[")) }
        for (index, line) in lines.enumerated() {
            var line = line
            if !ndjson {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                line.moveWriterIndex(to: line.writerIndex - 1)  // the newline
            }
            buffer.writeImmutableBuffer(line)
        }
        if !ndjson { buffer.writeString("]\n") }
        let etag = buffer.withUnsafeReadableBytes { HTTPCaching.etag($0) }
        return body(buffer, etag: etag, contentType: ndjson ? "application/x-ndjson" : "application/json", request: request, status: .ok,
                    maxAge: maxAge, lastModified: lastModified)
    }

    /// The URNs of `?urn=a&urn=b`.
    static func urns(query: [String], examples: [String] = []) throws -> [String] {
        try checked(query, examples: examples)
    }

    /// The URNs of a POSTed JSON array of strings.
    static func urns(body: Data, examples: [String] = []) throws -> [String] {
        guard let value = try? JSONValue.parse(body), let array = value.arrayValue else {
            let shown = [ExampleURNs.pick(examples, 0), ExampleURNs.pick(examples, 1)].map { "\"\($0)\"" }.joined(separator: ", ")
            throw RequestError(status: .badRequest, kind: .invalidRequest, message: "the body must be a JSON array of URN strings, e.g. [\(shown)]")
        }
        let urns = try array.map { element throws -> String in
            guard let text = element.stringValue else {
                throw RequestError(status: .badRequest, kind: .invalidRequest, message: "every element must be a URN string, found \(element.typeName)")
            }
            return text
        }
        return try checked(urns, examples: examples)
    }

    private static func checked(_ urns: [String], examples: [String]) throws -> [String] {
        guard !urns.isEmpty else {
            throw RequestError(status: .badRequest, kind: .invalidRequest,
                               message: "no URN given; e.g. /v1/resolve?urn=\(ExampleURNs.pick(examples, 0))&urn=\(ExampleURNs.pick(examples, 1))")
        }
        guard urns.count <= ServerSettings.maximumURNs else {
            throw RequestError(status: .badRequest, kind: .tooManyURNs, message: "\(urns.count) URNs; at most \(ServerSettings.maximumURNs) per request")
        }
        return urns
    }
}

extension API {
    /// `GET /v1/events?urn=…[&every=5m][&lastEventId=…]`: Server-Sent Events, `initial` then
    /// `change`, until the client's connection closes (`closing`), which ends the subscription
    /// at once. With a `Last-Event-ID` (the header an `EventSource` sends when it reconnects, or
    /// the parameter), the changes stored since that one come first, then live ones.
    func stream(_ request: Request, closing: EventLoopFuture<Void>) throws -> Response {
        let query = request.uri.queryParameters
        let urns = try Self.urns(query: query.getAll("urn").map { String($0) }, examples: server.exampleURNs)
        var every: Int?
        if let text = query["every"] {
            guard let seconds = DurationText.seconds(String(text)), seconds >= 1, seconds <= 86400 else {
                throw RequestError(status: .badRequest, kind: .invalidRequest, message: "every: \"\(text)\" is not a duration between 1s and 1d (e.g. 30s, 5m)")
            }
            every = Int(seconds)
        }
        let resumeAfter = try Self.lastEventID(header: request.headers[.lastEventID], query: query["lastEventId"].map(String.init))
        let keys = Array(Set(urns)).map { urn in
            // A local source (TTL 0) has no natural period; a minute is watch's granularity.
            let ttl = Int(server.coordinator.ttl(of: urn))
            return EventHub.Key(urn: urn, interval: every ?? (ttl > 0 ? ttl : 60))
        }
        // A HEAD (the router answers it with GET's handler, without the body) learns the
        // headers and subscribes to nothing.
        if request.method == .head {
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"])
        }
        guard let subscription = server.events.subscribe(keys, resumingAfter: resumeAfter) else {
            throw RequestError(status: .serviceUnavailable, kind: .shuttingDown, message: "the server is shutting down")
        }
        let events = server.events
        let (id, stream) = subscription
        closing.whenComplete { _ in events.unsubscribe(id) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: .init { writer in
                defer { events.unsubscribe(id) }
                if let resumeAfter {
                    let replayed = await events.replay(id, after: resumeAfter)
                    for chunk in replayed.text {
                        try await writer.write(ByteBuffer(string: chunk))
                    }
                    guard replayed.complete else { return try await writer.finish(nil) }
                }
                for await chunk in stream {
                    try await writer.write(ByteBuffer(string: chunk))
                }
                try await writer.finish(nil)
            })
    }

    /// The change a stream resumes after: the `Last-Event-ID` header, else the `lastEventId`
    /// parameter (an `EventSource` reconnecting sends the header with the URL it first opened,
    /// parameter and all, so the header, which is newer, wins); each must be well formed. Nil
    /// when neither is given.
    static func lastEventID(header: String?, query: String?) throws -> Int64? {
        let fromQuery = try query.map { text throws -> Int64 in try eventID(text, name: "lastEventId") }
        return try header.map { text throws -> Int64 in try eventID(text, name: "Last-Event-ID") } ?? fromQuery
    }

    private static func eventID(_ text: String, name: String) throws -> Int64 {
        // What openapi.json declares (`^[0-9]{1,18}$`): every such number fits in an Int64.
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }), let id = Int64(text) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw RequestError(status: .badRequest, kind: .invalidRequest,
                               message: "\(name): \"\(shown)\" is not an event id (a whole number of 1 to 18 digits, as sent in an event's id: line)")
        }
        return id
    }
}

extension HTTPField.Name {
    /// The id of the last event an `EventSource` received, sent when it reconnects (WHATWG HTML, Server-sent events).
    static let lastEventID = Self("Last-Event-ID")!
}

extension ErrorKind {
    /// The status `serve` answers a URN that failed with this kind: the asker's mistake is 4xx,
    /// the upstream's failure 502 or 504, the rest 500. The host's reading of the vocabulary.
    var httpStatus: HTTPResponse.Status {
        switch self {
        case .invalidURN, .invalidArguments: .badRequest
        case .notFound: .notFound
        case .upstream, .badResponse, .http, .network, .tooLarge: .badGateway
        case .timeout: .gatewayTimeout
        case .configuration, .cancelled, .internal: .internalServerError
        }
    }
}
