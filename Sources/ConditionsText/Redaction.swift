import Foundation

/// Hides secrets in URLs and headers before they are printed, logged or put in an error.
public enum Redaction {
    /// Query parameter and header names (lower-cased substrings) whose values are secrets.
    public static let sensitiveNameFragments = ["secret", "key", "token", "password", "passwd", "auth", "code", "signature", "session", "cookie", "client_id", "clientid", "credential"]

    /// The text used instead of a secret.
    public static let mask = "REDACTED"

    /// Whether a parameter or header called `name` holds a secret.
    public static func isSensitive(_ name: String) -> Bool {
        let lower = name.lowercased()
        return sensitiveNameFragments.contains { lower.contains($0) }
    }

    /// `url` as a string with user info and the values of sensitive query parameters masked.
    public static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unprintable URL>" }
        if components.password != nil { components.password = mask }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                isSensitive(item.name) && item.value != nil ? URLQueryItem(name: item.name, value: mask) : item
            }
        }
        return components.string ?? "<unprintable URL>"
    }

    /// `headers` with the values of sensitive fields masked.
    public static func redact(headers: [String: String]) -> [String: String] {
        headers.reduce(into: [:]) { result, header in
            result[header.key] = isSensitive(header.key) ? mask : header.value
        }
    }
}
