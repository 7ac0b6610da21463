import Foundation
import LoopbackServer
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Debian's nginx (`nginx-light`) on a loopback port: serving files from a folder (the
/// ceiling the server is compared with, serving the same bytes as static files), or in front
/// of replicas of `conditions serve` as docs/server.md sets it up.
enum Nginx {
    static let program = "/usr/sbin/nginx"

    /// Serves `files` (name → bytes) at `/name` with `Content-Type: application/json` while
    /// `body` runs with the port and nginx's process group (master and workers).
    static func with<T: Sendable>(files: [String: Data], workspace: Workspace, _ body: (Int, pid_t) async throws -> T) async throws -> T {
        let root = try workspace.folder("nginx/root")
        for (name, bytes) in files { try bytes.write(to: root.appendingPathComponent(name)) }
        guard let name = files.keys.first else { throw Bench.Failed(description: "nginx: no files to serve") }
        return try await run(folder: "nginx", workspace: workspace, probe: "/" + name, server: { port in
            // Keep-alive connections never closed for their request count, as for wrk's.
            """
            keepalive_requests 1000000;
            default_type application/json;
            server {
                listen 127.0.0.1:\(port);
                root \(root.path);
            }
            """
        }, body)
    }

    /// Round robin over `replicas` (ports on 127.0.0.1), keep-alive connections to them, no
    /// cache of its own: the `upstream` block of docs/server.md, while `body` runs.
    static func roundRobin<T: Sendable>(to replicas: [Int], workspace: Workspace, _ body: (Int, pid_t) async throws -> T) async throws -> T {
        try await run(folder: "nginx-fleet", workspace: workspace, probe: "/healthz", server: { port in
            """
            keepalive_requests 1000000;
            upstream conditions {
            \(replicas.map { "    server 127.0.0.1:\($0) max_fails=0;" }.joined(separator: "\n"))
                keepalive 64;
                keepalive_requests 1000000;
            }
            server {
                listen 127.0.0.1:\(port);
                location / {
                    proxy_pass http://conditions;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_read_timeout 120s;
                }
            }
            """
        }, body)
    }

    /// nginx with `server(port)` inside its `http` block, in the workspace's `folder`, from the
    /// moment `probe` answers 200 until `body` returns.
    private static func run<T: Sendable>(folder: String, workspace: Workspace, probe: String, server: (Int) -> String,
                                         _ body: (Int, pid_t) async throws -> T) async throws -> T {
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw Bench.Failed(description: "no \(program): apt-get install nginx-light (scripts/dev installs it)")
        }
        let prefix = try workspace.folder(folder)
        let port: Int
        do { port = try LoopbackServer.freePort() } catch { throw Bench.Failed(description: "\(error)") }
        // As a web server would be set up: a worker per core, no access log.
        try """
        \(getuid() == 0 ? "user root;" : "")
        worker_processes auto;
        error_log \(prefix.path)/error.log;
        pid \(prefix.path)/nginx.pid;
        events { worker_connections 4096; }
        http {
            access_log off;
            client_body_temp_path \(prefix.path)/body;
            proxy_temp_path \(prefix.path)/proxy;
            fastcgi_temp_path \(prefix.path)/fastcgi;
            uwsgi_temp_path \(prefix.path)/uwsgi;
            scgi_temp_path \(prefix.path)/scgi;
        \(server(port))
        }
        """.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
        let result = try await Subprocess.run(
            .path(FilePath(program)),
            arguments: ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-g", "daemon off;"],
            platformOptions: options,
            input: .none, output: .discarded, error: .discarded
        ) { execution -> T in
            defer { try? execution.send(signal: .quit, toProcessGroup: true) }
            guard try await waitUntilAnswering(port: port, path: probe) else {
                throw Bench.Failed(description: "nginx did not answer on port \(port)",
                                   detail: (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")
            }
            return try await body(port, execution.processIdentifier.value)
        }
        return result.closureResult
    }

    /// nginx says nothing when ready: ask until it answers 200, for at most 10 s.
    private static func waitUntilAnswering(port: Int, path: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let replies = try? await RawClients.exchange(port: port, count: 1, request: RawClients.get(path), timeout: 2),
               replies.first?.status == 200 {
                return true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
