import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which proxy each request goes through, read once from the environment as libcurl 7.88
/// reads it, so that an error can name the proxy and the variable that chose it (libcurl 7.88
/// cannot say which proxy it used).
///
/// - A URL of scheme `http` uses `http_proxy` (lower case only: a CGI program's
///   `HTTP_PROXY` comes from a request's `Proxy:` header), else `all_proxy`, else `ALL_PROXY`.
/// - A URL of scheme `https` uses `https_proxy`, else `HTTPS_PROXY`, else `all_proxy`, else
///   `ALL_PROXY`.
/// - `no_proxy`, else `NO_PROXY`, lists the hosts reached directly (see `bypasses(host:noProxy:)`).
/// - An empty variable counts as unset.
///
/// The transfer passes the chosen value to libcurl as `CURLOPT_PROXY` and the `no_proxy` value
/// as `CURLOPT_NOPROXY`, so libcurl never consults the environment itself and does what these
/// settings say, each redirect hop's host checked against `no_proxy` as the first one is.
public struct ProxySettings: Sendable, Equatable {
    /// A proxy as a variable names it.
    public struct Proxy: Sendable, Equatable {
        /// The variable's value as it is, for libcurl. It may hold a user name and password:
        /// never print it, print `name`.
        public let value: String
        /// The variable it came from: `http_proxy`, `HTTPS_PROXY`, `all_proxy`, …
        public let variable: String
        /// Host and port, with the scheme only when it is not `http://`, never the credentials:
        /// `127.0.0.1:9`, `proxy.example:1080`, `socks5h://[::1]:1080`.
        public let name: String

        /// The proxy `value` names, read from `variable`.
        public init(value: String, variable: String) {
            self.value = value
            self.variable = variable
            name = Self.name(of: value)
        }

        /// Host and port of a proxy string as libcurl reads one: no scheme is `http://`; no
        /// port is 1080, 443 for an `https://` proxy; user and password are dropped.
        static func name(of value: String) -> String {
            var rest = Substring(value.trimmingCharacters(in: .whitespaces))
            var scheme = "http"
            if let separator = rest.range(of: "://") {
                scheme = rest[..<separator.lowerBound].lowercased()
                rest = rest[separator.upperBound...]
            }
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            var host = hostAndPort
            var port: Substring?
            if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
                host = hostAndPort[...close]
                let after = hostAndPort[hostAndPort.index(after: close)...]
                if after.hasPrefix(":") { port = after.dropFirst() }
            } else if let colon = hostAndPort.lastIndex(of: ":") {
                host = hostAndPort[..<colon]
                port = hostAndPort[hostAndPort.index(after: colon)...]
            }
            let shownPort = port.flatMap { $0.isEmpty ? nil : String($0) } ?? (scheme == "https" ? "443" : "1080")
            let shownHost = host.isEmpty ? "(no host)" : String(host)
            return (scheme == "http" ? "" : "\(scheme)://") + "\(shownHost):\(shownPort)"
        }
    }

    /// The proxy for `http` URLs, if any.
    public let http: Proxy?
    /// The proxy for `https` URLs, if any.
    public let https: Proxy?
    /// The hosts reached directly, as `no_proxy` (or `NO_PROXY`) gives them; nil when neither is set.
    public let noProxy: String?

    /// No proxy at all.
    public static let none = ProxySettings(environment: [:])

    /// The settings `environment` gives, with libcurl's precedence.
    public init(environment: [String: String]) {
        func first(_ names: String...) -> Proxy? {
            for name in names {
                if let value = environment[name], !value.isEmpty { return Proxy(value: value, variable: name) }
            }
            return nil
        }
        http = first("http_proxy", "all_proxy", "ALL_PROXY")
        https = first("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
        noProxy = ["no_proxy", "NO_PROXY"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    /// The settings of this process's environment.
    public static func fromEnvironment() -> ProxySettings {
        ProxySettings(environment: ProcessInfo.processInfo.environment)
    }

    /// The proxy for a URL of `scheme`, before `no_proxy` is considered: what the transfer
    /// gives libcurl as `CURLOPT_PROXY`.
    public func proxy(forScheme scheme: String) -> Proxy? {
        switch scheme.lowercased() {
        case "http": http
        case "https": https
        default: nil
        }
    }

    /// The proxy a request to `url` goes through, or nil when it goes directly.
    public func proxy(for url: URL) -> Proxy? {
        proxy(forScheme: url.scheme ?? "", host: url.host ?? "")
    }

    /// The proxy a connection to `host` goes through for a request of `scheme`: a redirect
    /// keeps the proxy its request's scheme chose, and its host is checked against `no_proxy`.
    public func proxy(forScheme scheme: String, host: String) -> Proxy? {
        guard let proxy = proxy(forScheme: scheme) else { return nil }
        if let noProxy, Self.bypasses(host: host, noProxy: noProxy) { return nil }
        return proxy
    }

    /// Whether `noProxy` exempts `host` from the proxy, as libcurl 7.88's `Curl_check_noproxy`
    /// decides:
    ///
    /// - `*` alone exempts every host;
    /// - otherwise the list is split at commas and blanks, and a host name matches a pattern
    ///   equal to it or a domain it is in (`example.com` and `.example.com` both match
    ///   `example.com` and `www.example.com`, not `notexample.com`), case-insensitively, a
    ///   trailing dot on either ignored;
    /// - an IPv4 address matches an address equal to it or a CIDR range holding it
    ///   (`192.168.0.0/16`); a `/0` suffix asks for the address itself, as in libcurl;
    /// - an IPv6 address (brackets dropped, as libcurl does before it checks) is compared as a
    ///   name: `::1` matches `::1`, never `[::1]` nor a range.
    public static func bypasses(host: String, noProxy: String) -> Bool {
        var name = Array(host.utf8)
        if name.first == UInt8(ascii: "["), name.last == UInt8(ascii: "]") { name = Array(name.dropFirst().dropLast()) }
        guard !name.isEmpty, !noProxy.isEmpty else { return false }
        if noProxy == "*" { return true }
        let address = ipv4(host: name)
        if address == nil, name.last == UInt8(ascii: ".") { name.removeLast() }
        let patterns = Array(noProxy.utf8).split { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        for pattern in patterns {
            if let address {
                let parts = pattern.split(separator: UInt8(ascii: "/"), maxSplits: 1, omittingEmptySubsequences: false)
                guard let network = ipv4(host: Array(parts[0])) else { continue }
                // libcurl reads the bits with atoi into an unsigned int: a negative count is huge.
                let bits = parts.count > 1 ? atoi(parts[1]) : 0
                guard (0...32).contains(bits) else { continue }
                if bits == 0 || bits == 32 {
                    if address == network { return true }
                } else if (address ^ network) & (UInt32.max << UInt32(32 - bits)) == 0 {
                    return true
                }
            } else {
                var token = pattern[...]
                if token.last == UInt8(ascii: ".") { token = token.dropLast() }
                if token.first == UInt8(ascii: ".") { token = token.dropFirst() }
                if token.count == name.count {
                    if equalIgnoringCase(token, name[...]) { return true }
                } else if token.count < name.count {
                    let tail = name[(name.count - token.count)...]
                    if name[name.count - token.count - 1] == UInt8(ascii: "."), equalIgnoringCase(token, tail) { return true }
                }
            }
        }
        return false
    }

    /// An IPv4 address as libcurl reads one (with `inet_pton`, as libcurl does): four decimal
    /// parts, each at most 255 and without a leading zero; nil for anything else.
    private static func ipv4(host: [UInt8]) -> UInt32? {
        var address = in_addr()
        let parsed = (host + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { inet_pton(AF_INET, $0.baseAddress, &address) }
        }
        return parsed == 1 ? UInt32(bigEndian: address.s_addr) : nil
    }

    /// ASCII case-insensitive equality, as libcurl's `strncasecompare`.
    private static func equalIgnoringCase(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return a.count == b.count && zip(a, b).allSatisfy { lower($0) == lower($1) }
    }

    /// C's `atoi`: leading blanks, an optional sign, then digits; 0 when none.
    private static func atoi(_ text: ArraySlice<UInt8>) -> Int {
        var rest = text.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        var sign = 1
        if let first = rest.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if first == UInt8(ascii: "-") { sign = -1 }
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { (0x30...0x39).contains($0) }.prefix(9)
        return sign * digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
