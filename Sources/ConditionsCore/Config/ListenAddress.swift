/// A `host:port` to listen on, as `--listen` and `"serve": {"listen"}` give it.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A host name or IP address, without IPv6 brackets.
    package let host: String
    /// 0 asks the system for a free port.
    package let port: Int

    /// Parses `host:port`, `[v6]:port` or `:port` (all interfaces); nil when malformed.
    package init?(_ text: String) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        guard let port = Int(portPart), (0...65535).contains(port),
              hostPart.allSatisfy({ $0.isLetter || $0.isNumber || ".-:_".contains($0) }) else { return nil }
        self.host = hostPart.isEmpty ? "0.0.0.0" : String(hostPart)
        self.port = port
    }

    /// Whether only this machine can connect: 127.0.0.0/8, ::1 or localhost.
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
