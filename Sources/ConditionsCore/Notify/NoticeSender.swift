import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import ConditionsText
import Crypto
import Foundation

/// Sends one delivery to its target, once: ntfy's publish API, a Standard Webhooks POST, or the
/// `apprise` program. Retrying is the `Notifier`'s.
package struct NoticeSender: Sendable {
    /// What one attempt gave.
    package enum Outcome: Sendable, Equatable {
        /// The target answered 2xx (apprise: exited 0); `detail` says what it answered.
        case delivered(detail: String)
        /// Worth trying again: a network error, 5xx, 408, 429; `after` is the target's
        /// `Retry-After` in seconds, when it gave one.
        case retry(reason: String, after: Double?)
        /// Not worth trying again (a 4xx the notice itself caused, a refused credential).
        case failed(reason: String)
    }

    let http: any HTTPClient
    /// The `apprise` program: a name on PATH or a path.
    var apprise = "apprise"

    package init(http: any HTTPClient, apprise: String = "apprise") {
        self.http = http
        self.apprise = apprise
    }

    package func send(_ delivery: NoticeDelivery, to target: ResolvedTarget, now: Date = Date()) async -> Outcome {
        switch target.kind {
        case .ntfy(let url, let authorization):
            var headers = ["Title": Self.headerValue(delivery.notice.title), "Priority": "\(delivery.notice.priority.rawValue)",
                           "X-Sequence-ID": delivery.sequenceID, "Content-Type": "text/plain; charset=utf-8"]
            if !delivery.notice.tags.isEmpty { headers["Tags"] = Self.headerValue(delivery.notice.tags.joined(separator: ",")) }
            if let link = delivery.notice.link { headers["Click"] = link.absoluteString }
            if let image = delivery.notice.image { headers["Attach"] = image.absoluteString }
            if let authorization { headers["Authorization"] = authorization }
            return await post(url, headers: headers, body: Data(NoticeDelivery.clipped(delivery.notice.body).utf8), target: target)
        case .webhook(let url, let key):
            let body = Data(Self.webhookBody(delivery).serialized().utf8)
            let timestamp = String(Int(now.timeIntervalSince1970))
            let headers = ["Content-Type": "application/json", "webhook-id": delivery.id, "webhook-timestamp": timestamp,
                           "webhook-signature": Self.signature(id: delivery.id, timestamp: timestamp, body: body, key: key)]
            return await post(url, headers: headers, body: body, target: target)
        case .apprise(let urls):
            return await runApprise(delivery, urls: urls, target: target)
        }
    }

    /// The webhook's JSON: `type`, `urn`, `title`, `body`, `priority`, `tags`, `link`, `image`,
    /// `changeId`, `before` and `after` (the data), `at`.
    static func webhookBody(_ delivery: NoticeDelivery) -> JSONValue {
        var object: JSONObject = ["type": "conditions.notice", "urn": .string(delivery.urn), "title": .string(delivery.notice.title),
                                  "body": .string(NoticeDelivery.clipped(delivery.notice.body)), "priority": .int(delivery.notice.priority.rawValue),
                                  "tags": .array(delivery.notice.tags.map(JSONValue.string)), "changeId": .string(delivery.changeID)]
        object["link"] = delivery.notice.link.map { .string($0.absoluteString) } ?? .null
        object["image"] = delivery.notice.image.map { .string($0.absoluteString) } ?? .null
        object["before"] = delivery.before
        object["after"] = delivery.after
        object["at"] = JSONValue(delivery.at)
        return .object(object)
    }

    /// `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` (Standard Webhooks).
    static func signature(id: String, timestamp: String, body: Data, key: [UInt8]) -> String {
        var content = Data("\(id).\(timestamp).".utf8)
        content.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: content, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// A header's value: ASCII as it is; otherwise RFC 2047's `=?UTF-8?B?…?=`, which ntfy decodes.
    static func headerValue(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard !line.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 }) else { return line }
        return "=?UTF-8?B?" + Data(line.utf8).base64EncodedString() + "?="
    }

    private func post(_ url: URL, headers: [String: String], body: Data, target: ResolvedTarget) async -> Outcome {
        do {
            let response = try await http.send(HTTPRequest(method: "POST", url: url, headers: headers, retry: HTTPRetry(statuses: [], attempts: 0), body: body))
            let answer = String(decoding: response.body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let shown = target.redact(answer.isEmpty ? "" : ": " + answer.replacingOccurrences(of: "\n", with: " "))
            switch response.status {
            case 200..<300: return .delivered(detail: "HTTP \(response.status)\(shown)")
            case 408, 425, 429, 500...599:
                let after = response.headers["retry-after"].flatMap { RetryingHTTPClient.seconds(retryAfter: $0, now: Date()) }
                return .retry(reason: "HTTP \(response.status)\(shown)", after: after)
            default: return .failed(reason: "HTTP \(response.status)\(shown)")
            }
        } catch {
            return .retry(reason: target.redact(ConditionsError.report(error).message), after: nil)
        }
    }

    /// `apprise -t TITLE` with the body on stdin and the URLs in `APPRISE_URLS`, never in argv.
    private func runApprise(_ delivery: NoticeDelivery, urls: [String], target: ResolvedTarget) async -> Outcome {
        let type = delivery.notice.priority >= .urgent ? "failure" : delivery.notice.priority >= .high ? "warning" : "info"
        let process = SupervisedProcess(program: apprise, arguments: ["-t", delivery.notice.title, "-n", type],
                                        environment: .inherit(updating: ["APPRISE_URLS": urls.joined(separator: " ")]),
                                        output: .collect(limit: 64 << 10, stderrTail: 2048), timeout: .seconds(60),
                                        onTimeout: .terminate(grace: .seconds(2)), leftovers: .kill)
        do {
            let outcome = try await process.run(input: Data(NoticeDelivery.clipped(delivery.notice.body).utf8))
            let said = target.redact(String(decoding: outcome.stderrTail, as: UTF8.self)).split(separator: "\n").last.map(String.init) ?? ""
            switch outcome.ending {
            case .exited(0): return .delivered(detail: "apprise exited 0")
            case .exited(let status): return .retry(reason: "apprise exited \(status)\(said.isEmpty ? "" : ": \(said)")", after: nil)
            case .signaled(let signal): return .retry(reason: "apprise died of \(SignalName.describe(signal))", after: nil)
            case .timedOut: return .retry(reason: "apprise did not finish within 60 s", after: nil)
            case .outputTooLarge: return .retry(reason: "apprise printed more than 64 KiB", after: nil)
            case .cancelled: return .retry(reason: "cancelled", after: nil)
            }
        } catch {
            return .failed(reason: error.programNotFound
                ? "no apprise program found on PATH; install it (apt-get install apprise, or pip install apprise)"
                : "apprise: \(error.description)")
        }
    }
}
