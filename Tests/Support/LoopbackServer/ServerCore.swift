import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The sockets and threads behind `LoopbackServer`. All mutable state sits in one mutex;
/// blocking socket calls happen outside it.
final class ServerCore: Sendable {
    typealias Handler = @Sendable (LoopbackServer.Request) -> LoopbackServer.Response

    private struct State {
        var listener: Int32 = -1
        var port: UInt16 = 0
        var started = false
        var stopping = false
        var routes: [String: Handler] = [:]
        var fallback: Handler = { _ in .text("not found\n", status: 404) }
        /// Open connection sockets. A thread closes its socket under the lock and removes it here,
        /// so `stop()` never shuts down a descriptor number that was already reused.
        var connections: Set<Int32> = []
        var nextConnection = 1
        var stats = LoopbackServer.Stats()
        var requests: [LoopbackServer.Request] = []
    }

    private let state = Mutex(State())
    /// Entered by the accept thread and every connection thread; `stop()` waits for it to drain.
    private let threads = DispatchGroup()

    var port: UInt16 { state.withLock { $0.port } }
    var stats: LoopbackServer.Stats { state.withLock { $0.stats } }
    var requests: [LoopbackServer.Request] { state.withLock { $0.requests } }

    func setRoute(_ path: String, _ handler: @escaping Handler) { state.withLock { $0.routes[path] = handler } }
    func setFallback(_ handler: @escaping Handler) { state.withLock { $0.fallback = handler } }

    func resetStats() {
        state.withLock { state in
            let open = state.stats.openConnections
            state.stats = LoopbackServer.Stats(openConnections: open, maxConcurrentConnections: open)
            state.requests = []
        }
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    // MARK: Lifecycle

    func start() throws(LoopbackServer.StartError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Self.failure("socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 512) == 0 else {
            let error = Self.failure("bind/listen")
            close(fd)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = Self.failure("getsockname")
            close(fd)
            throw error
        }
        let startable = state.withLock { state -> Bool in
            guard !state.started else { return false }
            state.started = true
            state.listener = fd
            state.port = UInt16(bigEndian: address.sin_port)
            return true
        }
        guard startable else {
            close(fd)
            throw LoopbackServer.StartError(description: "server was already started")
        }
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop(fd)
            threads.leave()
        }
        thread.name = "loopback-accept"
        thread.start()
    }

    func stop() {
        let started = state.withLock { state -> Bool in
            guard state.started, !state.stopping else { return false }
            state.stopping = true
            // Wakes threads blocked in recv, send or poll on these sockets.
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard started else { return }
        threads.wait()
        state.withLock { state in
            if state.listener >= 0 { close(state.listener) }
            state.listener = -1
        }
    }

    private static func failure(_ call: String) -> LoopbackServer.StartError {
        LoopbackServer.StartError(description: "\(call) failed: \(String(cString: strerror(errno)))")
    }

    // MARK: Accepting

    private func acceptLoop(_ listener: Int32) {
        while !isStopping {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let id = state.withLock { state -> Int? in
                guard !state.stopping else { return nil }
                state.connections.insert(fd)
                state.stats.connectionsAccepted += 1
                state.stats.openConnections += 1
                state.stats.maxConcurrentConnections = max(state.stats.maxConcurrentConnections, state.stats.openConnections)
                defer { state.nextConnection += 1 }
                return state.nextConnection
            }
            guard let id else {
                close(fd)
                continue
            }
            threads.enter()
            let thread = Thread { [self] in
                serve(fd, connection: id)
                state.withLock { state in
                    state.connections.remove(fd)
                    state.stats.openConnections -= 1
                    close(fd)
                }
                threads.leave()
            }
            thread.name = "loopback-connection-\(id)"
            thread.start()
        }
    }

    // MARK: Serving

    private func serve(_ fd: Int32, connection: Int) {
        let socket = Connection(fd: fd, isStopping: { [self] in isStopping })
        while let request = socket.readRequest(connection: connection) {
            let handler = state.withLock { state -> Handler in
                state.stats.totalRequests += 1
                state.stats.requestsPerPath[request.path, default: 0] += 1
                state.requests.append(request)
                return state.routes[request.path] ?? state.fallback
            }
            let response = handler(request)
            let keepAlive = request.headers["connection"]?.lowercased() != "close"
            guard socket.respond(response, keepAlive: keepAlive, headOnly: request.method == "HEAD"), keepAlive else { return }
        }
    }
}
