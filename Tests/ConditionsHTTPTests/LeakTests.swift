import ConditionsHTTP
import ConditionsKit
import Foundation
import LoopbackServer
import Testing

/// Many failing requests leave nothing behind: no socket outlives the client, connections
/// stay within the pool's cap, and a 2 GB body costs no more memory than the limit allows.
///
/// Other suites run in this process at the same time, so file descriptors are counted only
/// when they are sockets to this test's server (matched through /proc/net/tcp), and memory
/// is judged by growth far smaller than the bodies streamed.
@Suite(.serialized) struct LeakTests {
    typealias Response = LoopbackServer.Response

    /// This process's open sockets connected to `port` on 127.0.0.1.
    static func socketsConnected(to port: UInt16) -> Int {
        // /proc files report size 0; read them to the end rather than by their size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return -1 }
        defer { try? handle.close() }
        let table = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let remote = String(format: "0100007F:%04X", port)
        var inodes: Set<String> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 9, fields[2] == remote else { continue }
            inodes.insert(String(fields[9]))
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { fd in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return false }
            return inodes.contains(String(target.dropFirst(8).dropLast()))
        }.count
    }

    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return 0 }
        return kilobytes * 1024
    }

    @Test func faultyRequestsLeaveNoSocketBehind() async throws {
        let body = Data(repeating: 65, count: 20_000)
        let server = try startServer {
            $0.route("/hang", Response(body: body).with(.hangAfterHeaders))
            $0.route("/trickle", Response(body: body).with(.trickle(chunkBytes: 10, interval: 0.05)))
            $0.route("/cut", Response(body: body).with(.closeMidBody(afterBytes: 500)))
            $0.route("/liar", Response(body: body).with(.wrongContentLength(declared: 90_000)))
            $0.route("/silent", Response(body: body).with(.closeWithoutResponse))
            $0.route("/huge", Response().with(.hugeBody(bytes: 1 << 30, chunked: true)))
            $0.route("/declared", Response().with(.hugeBody(bytes: 1 << 30, chunked: false)))
            $0.route("/late", Response(body: body).delayed(2))
            $0.route("/busy", Response(status: 503, body: body))
            $0.route("/ok", Response(body: body))
        }
        defer { server.stop() }
        let limits = HTTPLimits(connectTimeout: 1, timeout: 0.3, maxBodyBytes: 1 << 20, maxConnectionsPerHost: 4)
        let client = try makeClient(limits)
        // The two that must answer do so through a view of the same pool whose timeouts no stall
        // of a loaded machine reaches; the faulty ones fail at 0.3 s or sooner whatever happens.
        let patient = client.limited(HTTPLimits(connectTimeout: 30, timeout: 30, maxBodyBytes: 1 << 20, maxConnectionsPerHost: 4))
        let paths = ["/hang", "/trickle", "/cut", "/liar", "/silent", "/huge", "/declared", "/late", "/busy", "/ok"]
        var failures = 0
        for round in 0..<10 {
            await withTaskGroup(of: Bool.self) { group in
                for path in paths {
                    let view: any HTTPClient = ["/busy", "/ok"].contains(path) ? patient : client
                    group.addTask { (try? await view.get(server.url("\(path)?round=\(round)"))) == nil }
                }
                for await failed in group where failed { failures += 1 }
            }
            // Between rounds only pooled connections remain, never more than the cap.
            #expect(Self.socketsConnected(to: server.port) <= 4, "round \(round)")
        }
        #expect(failures == 80, "every faulty path failed, /busy and /ok answered")
        #expect(server.stats.totalRequests >= 100)
        // A healthy request's connection stays in the pool, so the count does see this client's sockets.
        _ = try await client.get(server.url("/ok"))
        #expect(Self.socketsConnected(to: server.port) >= 1)
        client.shutdown()
        #expect(await eventually { Self.socketsConnected(to: server.port) == 0 })
        #expect(await eventually { server.stats.openConnections == 0 })
    }

    @Test func twoGigabyteBodiesCostOnlyTheirLimit() async throws {
        let server = try startServer {
            $0.route("/huge", Response().with(.hugeBody(bytes: 2 << 30, chunked: true)))
        }
        defer { server.stop() }
        let client = try makeClient(HTTPLimits(timeout: 20, maxBodyBytes: 8 << 20))
        defer { client.shutdown() }
        // Warm up allocator and libcurl buffers before measuring.
        _ = try? await client.get(server.url("/huge"))
        let before = Self.residentBytes()
        for _ in 0..<10 {
            let error = await httpError { _ = try await client.get(server.url("/huge")) }
            #expect(error == .bodyTooLarge(limit: 8 << 20, url: server.url("/huge").absoluteString))
        }
        let grown = Self.residentBytes() - before
        // Ten 2 GB bodies, each cut at 8 MiB: growth stays far below even one body's limit × 10.
        #expect(grown < 64 << 20, "RSS grew \(grown >> 20) MiB")
    }

    @Test func aClosedConnectionIsNamedSoItCanBeRetried() async throws {
        let server = try startServer { $0.route("/silent", Response().with(.closeWithoutResponse)) }
        defer { server.stop() }
        // A timeout no stall of a loaded machine reaches: one would make this a timeout error.
        let client = try makeClient(HTTPLimits(timeout: 30))
        let error = await httpError { _ = try await client.get(server.url("/silent")) }
        #expect(error == .transport(url: server.url("/silent").absoluteString, detail: CurlHTTPClient.closedWithoutAnswer))
    }
}
