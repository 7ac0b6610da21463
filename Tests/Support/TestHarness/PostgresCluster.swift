import Foundation
import LoopbackServer

/// A throwaway PostgreSQL cluster for one test: made with `initdb` in a temporary folder,
/// listening on 127.0.0.1 at a free port and on a socket in that folder, and never a system
/// cluster (none is touched, none needs to exist; `scripts/dev` installs PostgreSQL without one).
///
/// PostgreSQL refuses to run as root, so as root every program of the cluster runs as `nobody`
/// (`runuser`), which owns the folder; as anyone else they run as that user.
///
/// Use `PostgresCluster.with { cluster in … }`, which stops and removes it however the body ends.
package final class PostgresCluster: Sendable {
    /// Something the cluster's programs reported: the program, its status and what it wrote.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// A server certificate and key for a cluster started with TLS (`ssl = on`).
    package struct TLSFiles: Sendable {
        package let certificate: URL
        package let key: URL

        package init(certificate: URL, key: URL) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// The folder holding the data directory, the socket and the log.
    package let folder: URL
    /// The TCP port on 127.0.0.1.
    package let port: Int
    /// The role tests connect as, its password, and its database.
    package let user = "conditions"
    package let password: String
    package let database = "history"
    private let tls: TLSFiles?
    private let binaries: URL

    private var dataDirectory: URL { folder.appendingPathComponent("data") }

    /// `postgres://conditions@127.0.0.1:<port>/history`: the URL without the password.
    package var url: String { "postgres://\(user)@127.0.0.1:\(port)/\(database)" }
    /// The URL with the password in it (for the environment, never a config file).
    package var urlWithPassword: String { "postgres://\(user):\(password)@127.0.0.1:\(port)/\(database)" }

    /// The newest `/usr/lib/postgresql/<version>/bin` installed.
    package static func binaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw Failure(description: "PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin); run scripts/dev to install it")
        }
        return root.appendingPathComponent("\(newest)/bin")
    }

    private init(tls: TLSFiles?) throws {
        binaries = try Self.binaries()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-pg-\(UUID().uuidString)")
        port = try LoopbackServer.freePort()
        password = "pw-" + UUID().uuidString.prefix(12).lowercased()
        self.tls = tls
    }

    /// A new cluster, started, with the role and database made; stopped and removed after `body`.
    ///
    /// The port is free when chosen, but another process may bind it before the server does
    /// (the suite starts many servers at once): a start that could not bind tries again on a
    /// new cluster and port, a few times.
    package static func with<T>(tls: TLSFiles? = nil, _ body: (PostgresCluster) async throws -> T) async throws -> T {
        var attempt = 1
        var made: PostgresCluster?
        while made == nil {
            let cluster = try PostgresCluster(tls: tls)
            do {
                try await cluster.create()
                try await cluster.start()
                try await cluster.makeRoleAndDatabase()
                made = cluster
            } catch let failure as Failure where failure.description.contains("could not bind") && attempt < 4 {
                await cluster.remove()
                attempt += 1
            } catch {
                await cluster.remove()
                throw error
            }
        }
        guard let cluster = made else { throw Failure(description: "no cluster started") }
        do {
            let result = try await body(cluster)
            await cluster.remove()
            return result
        } catch {
            await cluster.remove()
            throw error
        }
    }

    // MARK: Life cycle

    private func create() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if let tls {
            // The server reads its key only when it alone can (0600, its owner's).
            for (file, name) in [(tls.certificate, "server.crt"), (tls.key, "server.key")] {
                try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(name))
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent(name).path)
            }
        }
        try await handToServerUser()
        // The superuser over the folder's socket needs no password; every TCP login needs one.
        try await run("initdb", ["-D", dataDirectory.path, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                                 "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
    }

    /// Starts the server and returns once it accepts connections (`pg_ctl -w` waits for the
    /// postmaster to say it is ready; `pg_isready` confirms over TCP).
    package func start() async throws {
        var options = "-k \(folder.path) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off"
        if tls != nil {
            options += " -c ssl=on -c ssl_cert_file=\(folder.path)/server.crt -c ssl_key_file=\(folder.path)/server.key"
        }
        try await run("pg_ctl", ["start", "-w", "-t", "120", "-D", dataDirectory.path, "-l", folder.appendingPathComponent("log").path, "-o", options])
        try await run("pg_isready", ["-h", "127.0.0.1", "-p", String(port), "-t", "120"])
    }

    /// Stops the server at once (`-m immediate`: as a crash would); `start()` brings it back.
    package func stop() async throws {
        try await run("pg_ctl", ["stop", "-w", "-t", "120", "-m", "immediate", "-D", dataDirectory.path])
    }

    /// Stops and starts the server.
    package func restart() async throws {
        try await stop()
        try await start()
    }

    /// Stops the server if it runs and removes the folder.
    private func remove() async {
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) {
            try? await stop()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    private func makeRoleAndDatabase() async throws {
        try await psql("CREATE ROLE \(user) LOGIN PASSWORD '\(password)'")
        try await psql("CREATE DATABASE \(database) OWNER \(user)")
    }

    /// Runs `sql` as the superuser over the folder's socket.
    package func psql(_ sql: String, database: String = "postgres") async throws {
        try await run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder.path, "-p", String(port), "-U", "postgres", "-d", database, "-c", sql])
    }

    /// `sql`'s rows as psql prints them unaligned (`-At`): a line per row, `|` between columns.
    package func rows(_ sql: String, database: String? = nil) async throws -> [String] {
        try await run("psql", ["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder.path, "-p", String(port), "-U", "postgres",
                               "-d", database ?? self.database, "-c", sql])
            .stdout.split(separator: "\n").map(String.init)
    }

    // MARK: Programs

    private static var isRoot: Bool { geteuid() == 0 }

    /// As root, the folder becomes `nobody`'s, so the server (run as `nobody`) can write it.
    private func handToServerUser() async throws {
        guard Self.isRoot else { return }
        let output = try await CLI.runProgram(URL(fileURLWithPath: "/bin/chown"), ["-R", "nobody:nogroup", folder.path],
                                              in: URL(fileURLWithPath: "/"), environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        guard output.status == 0 else { throw Failure(description: "chown nobody \(folder.path): \(output.stderr)") }
    }

    /// Runs one of the cluster's programs, as `nobody` when this is root.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) async throws -> CLI.Output {
        let executable = binaries.appendingPathComponent(program)
        let environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "PGPASSFILE": "/dev/null", "HOME": folder.path]
        let output: CLI.Output
        if Self.isRoot {
            output = try await CLI.runProgram(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", "nobody", "--", executable.path] + arguments,
                                              in: URL(fileURLWithPath: "/"), environment: environment, timeout: 180)
        } else {
            output = try await CLI.runProgram(executable, arguments, in: URL(fileURLWithPath: "/"), environment: environment, timeout: 180)
        }
        guard output.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)\(output.stdout)\n\(log.suffix(2000))")
        }
        return output
    }
}
