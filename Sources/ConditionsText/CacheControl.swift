import Foundation

/// `Cache-Control` and `Age` read as RFC 9111 says: what the host (a server's upstream
/// documents) and the modules (`HTTPResponse.freshness`, JSON APIs' TTLs) both need.
public enum CacheControl {
    /// Seconds a response with `headers` (names in lower case) may be reused: its `max-age`
    /// less its `Age`; 0 for `no-store` or `no-cache`; nil when it says neither.
    public static func freshness(_ headers: [String: String]) -> Double? {
        guard let control = headers["cache-control"] else { return nil }
        var maxAge: Double?
        for directive in control.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch parts.first?.lowercased() {
            case "no-store", "no-cache": return 0
            case "max-age":
                let value = parts.count == 2 ? parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
                if let seconds = deltaSeconds(value) { maxAge = seconds }
            default: continue
            }
        }
        guard let maxAge else { return nil }
        let age = headers["age"].flatMap { deltaSeconds($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return max(0, maxAge - age)
    }

    /// RFC 9111 delta-seconds: digits only; a huge value reads as a large number, never a trap.
    private static func deltaSeconds(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Double(text.prefix(10))
    }
}
