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
        // Bound, read and released at once when the `RefusedPort` goes.
        try RefusedPort().port
    }

    /// A 127.0.0.1 port that refuses every connection for as long as this lives: bound and
    /// never listening, so the kernel answers a connect with a reset and no other server (a
    /// test running beside this one) can take the port. A port freed by stopping a server is
    /// no such thing: in a parallel suite another test's server may bind it the next moment
    /// (what once made a "closed port" answer 404).
    public final class RefusedPort: @unchecked Sendable {
        // @unchecked: the descriptor is written once, in init, and closed once, in deinit.
        private let descriptor: Int32
        /// The port.
        public let port: Int

        public init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw PortError(description: "socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw PortError(description: "no free port: \(reason)")
            }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// `http://127.0.0.1:<port><path>`.
        public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

        deinit { close(descriptor) }
    }
}
