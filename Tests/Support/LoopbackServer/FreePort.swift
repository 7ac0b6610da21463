import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LoopbackServer {
    /// The error of `freePort()`: the system call and its `strerror`.
    public struct PortError: Error, CustomStringConvertible {
        public let description: String
    }

    /// A 127.0.0.1 port the kernel just handed out and released, for a program that cannot
    /// announce the port it picked (nginx). Another process could take it in between; the
    /// callers start their program at once.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PortError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw PortError(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
