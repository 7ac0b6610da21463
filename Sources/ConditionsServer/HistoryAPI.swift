import ConditionsCore
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Hummingbird

extension API {
    /// At most this many changes in one answer, and the default: the latest ones of the window.
    static let historyLimits = (default: 1000, maximum: 10_000)

    /// `GET /v1/history/{urn}?since=7d&until=…&limit=…`: the changes recorded for one URN,
    /// oldest first, with the window they answer. 503 when this server records no history.
    func history(_ request: Request) async throws -> Response {
        let raw = String(request.uri.path.dropFirst("/v1/history/".count))
        let urn = raw.utf8.contains(UInt8(ascii: "%")) ? raw.removingPercentEncoding ?? raw : raw
        do { _ = try URN(urn) } catch {
            throw RequestError(status: .badRequest, kind: .invalidURN, message: error.message)
        }
        let query = request.uri.queryParameters
        let timeZone = server.runtime.configuration.place.timeZone ?? .gmt
        let window: HistoryWindow
        do {
            window = try HistoryWindow(since: query["since"].map(String.init), until: query["until"].map(String.init), now: Date(), timeZone: timeZone,
                                   inEitherOrder: true)
        } catch {
            throw RequestError(status: .badRequest, kind: .invalidRequest, message: error.message)
        }
        var limit = Self.historyLimits.default
        if let value = query["limit"] {
            guard value.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(String(value)), (1...Self.historyLimits.maximum).contains(number) else {
                throw RequestError(status: .badRequest, kind: .invalidRequest, message: "limit: \"\(value)\" is not a whole number from 1 to \(Self.historyLimits.maximum)")
            }
            limit = number
        }
        guard let recorder = server.history else {
            throw RequestError(status: .serviceUnavailable, kind: .historyUnavailable,
                               message: "this server records no history (--no-history or \"history\": {\"enabled\": false})")
        }
        guard let store = await recorder.store() else {
            let reason = recorder.failure.map { ": \($0.reason)" } ?? ""
            throw RequestError(status: .serviceUnavailable, kind: .historyUnavailable, message: "the history store cannot be read\(reason)")
        }
        let found: (changes: [HistoryChange], truncated: Bool)
        do {
            found = try await store.changes(urn: urn, from: window.from, to: window.to, limit: limit)
        } catch {
            throw RequestError(status: .serviceUnavailable, kind: .historyUnavailable, message: "the history store cannot be read: \(error.reason)")
        }
        // The changes' stored results spliced in as they are, not parsed and written again.
        var text = #"{"urn":"# + JSONValue.string(urn).serialized()
        text += #","since":""# + Timestamp.string(from: window.from) + #"","until":""# + Timestamp.string(from: window.to)
        text += #"","truncated":"# + (found.truncated ? "true" : "false") + #","changes":["#
        text += found.changes.map(\.jsonText).joined(separator: ",") + "]}\n"
        let bytes = Array(text.utf8)
        // What was recorded a moment ago is in the next answer: never stored by a cache.
        return body(ByteBuffer(bytes: bytes), etag: HTTPCaching.etag(bytes), contentType: "application/json", request: request,
                    status: .ok, maxAge: nil, lastModified: nil)
    }
}
