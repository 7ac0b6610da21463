import AsyncHTTPClient
import Foundation
import LoopbackServer
import NIOCore
import Subprocess
import Testing
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The scale-out story: an ordinary HTTP cache (nginx's `proxy_cache`, Debian `nginx-light`,
/// installed by scripts/dev) in front of `conditions serve` answers many clients from one
/// server request per TTL, by the server's `Cache-Control`, `ETag` and `Last-Modified` alone.
@Suite struct NginxCacheTests {
    static let nginx = "/usr/sbin/nginx"

    @Test func nginxProxyCacheReachesTheServerOncePerTTL() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.nginx), "nginx-light is not installed (scripts/dev installs it)")
        let (upstream, dir) = try ServeTests.setUp()
        defer { upstream.stop(); try? FileManager.default.removeItem(at: dir) }
        try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir, environment: ServeTests.environment) { server in
            let prefix = dir.appendingPathComponent("nginx")
            try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
            let port = try LoopbackServer.freePort()
            try Self.config(prefix: prefix.path, port: port, backend: server.port)
                .write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            try await Self.withNginx(prefix: prefix) {
                let front = "http://127.0.0.1:\(port)"
                try await Self.waitUntilAnswering(front + "/healthz")
                let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                    for _ in 0..<200 {
                        group.addTask {
                            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: front + "/v1/urn/pass:snoqualmie"), timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            return (Int(response.status.code), response.headers.first(name: "X-Cache-Status"))
                        }
                    }
                    return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0.0 == 200 })
                #expect(statuses.filter { $0.1 == "HIT" }.count >= 190, "nginx answers from its cache")
                let metrics = try await server.request("/metrics")
                let line = metrics.body.split(separator: "\n").first { $0.hasPrefix("conditions_http_requests_total") && $0.contains(#"endpoint="/v1/urn""#) }
                #expect(line?.hasSuffix(" 1") == true, "the server saw one request: \(line ?? "none")")
                #expect(upstream.stats.totalRequests == 1)
            }
        }
    }

    /// What a test's nginx needs before its own `http` settings: everything under `prefix`
    /// (logs, pid, temporary files), as root or not. Ends inside the open `http` block.
    static func preamble(prefix: String, connections: Int = 1024) -> String {
        """
        \(getuid() == 0 ? "user root;" : "")
        worker_processes 1;
        error_log \(prefix)/error.log;
        pid \(prefix)/nginx.pid;
        events { worker_connections \(connections); }
        http {
            access_log off;
            client_body_temp_path \(prefix)/body;
            proxy_temp_path \(prefix)/proxy;
            fastcgi_temp_path \(prefix)/fastcgi;
            uwsgi_temp_path \(prefix)/uwsgi;
            scgi_temp_path \(prefix)/scgi;
        """
    }

    static func config(prefix: String, port: Int, backend: Int) -> String {
        """
        \(preamble(prefix: prefix))
            proxy_cache_path \(prefix)/cache keys_zone=conditions:1m;
            server {
                listen 127.0.0.1:\(port);
                location / {
                    proxy_pass http://127.0.0.1:\(backend);
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_cache conditions;
                    # Concurrent misses wait for the first instead of all reaching the server.
                    proxy_cache_lock on;
                    proxy_cache_lock_timeout 30s;
                    add_header X-Cache-Status $upstream_cache_status;
                }
            }
        }
        """
    }

    /// Runs nginx in the foreground as a child for the duration of `body`, then stops it.
    static func withNginx(prefix: URL, _ body: () async throws -> Void) async throws {
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        _ = try await Subprocess.run(
            .path(FilePath(nginx)),
            arguments: ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-g", "daemon off;"],
            platformOptions: options,
            input: .none,
            output: .discarded,
            error: .discarded
        ) { execution in
            do {
                try await body()
            } catch {
                try? execution.send(signal: .kill, toProcessGroup: true)
                throw error
            }
            try? execution.send(signal: .kill, toProcessGroup: true)
        }
    }

    /// Retries until `url` answers 200, for at most two minutes (a loaded machine may take
    /// seconds to start nginx): nginx says nothing when it is ready.
    static func waitUntilAnswering(_ url: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            if let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(2)), response.status == .ok {
                return
            }
            guard ContinuousClock.now < deadline else { throw NginxNotReady() }  // wall-clock-ok: a hang guard: it ends when nginx answers, 2 min after a hang
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct NginxNotReady: Error {}
}
