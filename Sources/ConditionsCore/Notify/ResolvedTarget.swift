import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// A target with its `${ENV}` substituted: what a sender needs. Its secrets are listed so
/// every message about it can be masked.
package struct ResolvedTarget: Sendable {
    package enum Kind: Sendable {
        /// The topic URL and the `Authorization` header's value, if any.
        case ntfy(url: URL, authorization: String?)
        /// The URL and the signing key (the secret's bytes after `whsec_`).
        case webhook(url: URL, key: [UInt8])
        /// Apprise's URLs, given to it in its environment.
        case apprise(urls: [String])
    }

    package let name: String
    package let kind: Kind
    /// Values to mask wherever the target is spoken of.
    package let secrets: [String]

    package init(name: String, kind: Kind, secrets: [String]) {
        self.name = name
        self.kind = kind
        self.secrets = secrets
    }

    /// `text` with every secret of the target masked.
    package func redact(_ text: String) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.mask) }
    }
}

extension NotifySettings.Target {
    /// The target with `${ENV}` substituted from `environment`: a missing variable, a URL that is
    /// not http(s) (or plain http off loopback), a webhook secret that is not `whsec_` and base64
    /// is a configuration error naming the JSON path.
    package func resolve(environment: [String: String]) throws(ConfigurationError) -> ResolvedTarget {
        let path = "notify.targets.\(name)"
        var problems: [String] = []
        var secrets: [String] = []
        func value(_ text: String, _ key: String, secret: Bool) -> String {
            let outcome = Interpolation(environment: environment).apply(.string(text), path: "\(path).\(key)")
            for missing in outcome.missing { problems.append("\(missing.path): environment variable \(missing.variable) is not set") }
            let resolved = outcome.value.stringValue ?? text
            if secret, !resolved.isEmpty { secrets.append(resolved) }
            return resolved
        }
        func url(_ text: String, _ key: String) -> URL? {
            let resolved = value(text, key, secret: false)
            guard problems.isEmpty else { return nil }
            if let problem = NotifySettings.urlProblem(resolved, insecure: insecure) {
                problems.append("\(path).\(key): \(problem)")
                return nil
            }
            return URL(string: resolved.trimmingCharacters(in: .whitespaces))
        }
        let resolved: ResolvedTarget.Kind?
        switch kind {
        case .ntfy(let text, let token, let username, let password):
            let topic = url(text, "ntfy")
            var authorization: String?
            if let token { authorization = "Bearer " + value(token, "token", secret: true) }
            if let username, let password {
                let pair = value(username, "username", secret: false) + ":" + value(password, "password", secret: true)
                authorization = "Basic " + Data(pair.utf8).base64EncodedString()
            }
            if let authorization { secrets.append(authorization) }
            resolved = topic.map { .ntfy(url: $0, authorization: authorization) }
        case .webhook(let text, let secret):
            let target = url(text, "webhook")
            let written = value(secret, "secret", secret: true)
            var key: [UInt8]?
            if problems.isEmpty {
                if written.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(written.dropFirst(6))), !bytes.isEmpty {
                    key = Array(bytes)
                } else {
                    problems.append("\(path).secret: not a Standard Webhooks secret: expected \"whsec_\" followed by base64 (e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw)")
                }
            }
            resolved = target.flatMap { url in key.map { .webhook(url: url, key: $0) } }
        case .apprise(let urls):
            let values = urls.enumerated().map { value($1, "apprise[\($0)]", secret: true) }
            resolved = .apprise(urls: values)
        }
        guard problems.isEmpty, let resolved else {
            throw ConfigurationError(problems: problems.map { problem in secrets.reduce(problem) { $0.replacingOccurrences(of: $1, with: Redaction.mask) } })
        }
        return ResolvedTarget(name: name, kind: resolved, secrets: secrets)
    }
}
