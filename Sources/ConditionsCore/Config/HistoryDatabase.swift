import Foundation

/// The PostgreSQL database history is kept in, resolved from `"history": {"url", "passwordFile",
/// "sslmode", "sslrootcert"}` and the environment: what `PostgresHistoryStore` connects to.
///
/// The password comes only from `${ENV}` in the URL or a libpq password file; it is never part
/// of `displayURL`, of an error or of anything printed.
package struct HistoryDatabase: Sendable {
    /// libpq's `sslmode`, the values this program supports.
    package enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, unverified; plain otherwise (libpq's default).
        case prefer
        /// TLS or no connection; the certificate is not verified.
        case require
        /// TLS with the chain verified against `sslrootcert` (the system's roots without it)
        /// and the server's name checked against the URL's host.
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var database: String
    /// Never printed.
    package var password: String?
    package var sslmode: SSLMode
    package var sslrootcert: URL?

    /// `postgres://user@host:port/database`: the URL as messages show it, without a password.
    package var displayURL: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(Self.percentEncoded(user))@\(shownHost):\(port)/\(Self.percentEncoded(database))"
    }

    // MARK: URLs

    /// A `postgres://` or `postgresql://` URL's parts.
    struct ParsedURL {
        var user: String
        var password: String?
        var host: String
        var port: Int
        var database: String
        var sslmode: SSLMode?
    }

    /// Reads `postgres://user[:password]@host[:port][/database][?sslmode=…]`; throws one line
    /// saying what is wrong, never quoting the password.
    static func parse(_ text: String) throws(Problem) -> ParsedURL {
        guard let scheme = ["postgres://", "postgresql://"].first(where: { text.hasPrefix($0) }) else {
            throw Problem("\"\(redacted(text))\" is not a postgres:// or postgresql:// URL")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        guard let at = rest.lastIndex(of: "@") else {
            throw Problem("\"\(redacted(text))\" names no user (postgres://user@host/database)")
        }
        let userInfo = rest[..<at]
        var hostPort = rest[rest.index(after: at)...]
        var user = userInfo
        var password: String?
        if let colon = userInfo.firstIndex(of: ":") {
            user = userInfo[..<colon]
            password = decoded(userInfo[userInfo.index(after: colon)...])
        }
        var parsed = ParsedURL(user: decoded(user) ?? "", password: password, host: "", port: 5432, database: "", sslmode: nil)
        guard !parsed.user.isEmpty else { throw Problem("\"\(redacted(text))\" names no user (postgres://user@host/database)") }
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            parsed.host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            hostPort = hostPort[hostPort.index(after: close)...]
            if !hostPort.isEmpty, !hostPort.hasPrefix(":") { throw Problem("\"\(redacted(text))\": expected :port after ]") }
            hostPort = hostPort.dropFirst()
        } else if let colon = hostPort.lastIndex(of: ":") {
            parsed.host = String(hostPort[..<colon])
            hostPort = hostPort[hostPort.index(after: colon)...]
        } else {
            parsed.host = String(hostPort)
            hostPort = ""
        }
        guard !parsed.host.isEmpty else { throw Problem("\"\(redacted(text))\" names no host (postgres://user@host/database)") }
        if !hostPort.isEmpty {
            guard let port = Int(hostPort), (1...65535).contains(port) else {
                throw Problem("\"\(redacted(text))\": port \"\(hostPort)\" is not a number from 1 to 65535")
            }
            parsed.port = port
        }
        parsed.database = decoded(path) ?? ""
        if parsed.database.isEmpty { parsed.database = parsed.user }
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? decoded(parts[1]) ?? "" : ""
            guard name == "sslmode" else {
                throw Problem("\"\(redacted(text))\": unsupported parameter \"\(name)\" (only sslmode; sslrootcert and passwordFile are keys of \"history\")")
            }
            guard let mode = SSLMode(rawValue: value) else { throw Problem(sslmodeProblem(value)) }
            parsed.sslmode = mode
        }
        return parsed
    }

    /// Whether `text` (as written in the config, `${…}` unexpanded) carries a password that is
    /// not a `${…}` reference.
    static func hasLiteralPassword(_ text: String) -> Bool {
        guard let scheme = ["postgres://", "postgresql://"].first(where: { text.hasPrefix($0) }) else { return false }
        let authority = text.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return false }
        let password = authority[authority.index(after: colon)..<at]
        return !password.isEmpty && !password.contains("${")
    }

    /// `text` with whatever stands between `user:` and `@` replaced by nothing: a URL safe to show.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + String(text[at...])
    }

    static func sslmodeProblem(_ value: String) -> String {
        "sslmode \"\(value)\" is not one of \(SSLMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"
    }

    private static func decoded(_ text: Substring) -> String? {
        String(text).removingPercentEncoding
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/?#"))) ?? text
    }

    /// One line about a URL or password file, without where it came from.
    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

// MARK: Password files

extension HistoryDatabase {
    /// The password for `host`, `port`, `database` and `user` in a libpq password file
    /// (`host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped, `#`
    /// comments, the first matching line winning). A file readable by group or others is
    /// refused, as libpq refuses it.
    static func password(in file: URL, host: String, port: Int, database: String, user: String) throws(Problem) -> String? {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: file.path) } catch {
            throw Problem("\(file.path): cannot be read: \((error as NSError).localizedDescription)")
        }
        let mode = (attributes[.posixPermissions] as? Int) ?? 0
        if mode & 0o077 != 0 {
            throw Problem("\(file.path) is readable by group or others (mode \(String(mode & 0o777, radix: 8))); the password file must be private: chmod 600 \(file.path)")
        }
        let text: String
        do { text = try String(contentsOf: file, encoding: .utf8) } catch {
            throw Problem("\(file.path): cannot be read: \((error as NSError).localizedDescription)")
        }
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(line)
            guard fields.count >= 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A password file line's fields: `:` separates, `\` escapes the next character; the fifth
    /// field (the password) runs to the line's end.
    private static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":", fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
