import Foundation
import LoopbackServer
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster for one scenario: `initdb` in a folder of the workspace, listening on
/// 127.0.0.1 at a free port (and a socket in that folder), stopped and removed at the end. No
/// system cluster is touched or needed (`scripts/dev` installs PostgreSQL without one).
///
/// PostgreSQL refuses to run as root, so as root its programs run as `nobody` (`runuser`),
/// which owns the folder. The bench's own: it cannot import the test harness's cluster.
struct ThrowawayPostgres: Sendable {
    let folder: URL
    let port: Int
    let binaries: URL
    /// The role `conditions` logs in as, its password and its database.
    let user = "conditions"
    let password: String
    let database = "history"

    /// The environment variable the configs take the password from (never written into a file).
    static let passwordVariable = "BENCH_PG_PASSWORD"

    /// `postgres://conditions:${BENCH_PG_PASSWORD}@127.0.0.1:<port>/history?sslmode=disable`, for sources.json.
    var configURL: String { "postgres://\(user):${\(Self.passwordVariable)}@127.0.0.1:\(port)/\(database)?sslmode=disable" }

    /// The newest `/usr/lib/postgresql/<version>/bin`.
    static func newestBinaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw Bench.Failed(description: "PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin); scripts/dev installs it")
        }
        return root.appendingPathComponent("\(newest)/bin")
    }

    /// A cluster made, started, with the role and database, for the length of `body`.
    /// `settings`: more `-c name=value` for the server.
    static func with<T>(_ bench: Bench, settings: [String] = [], _ body: (ThrowawayPostgres) async throws -> T) async throws -> T {
        let port: Int
        do { port = try LoopbackServer.freePort() } catch { throw Bench.Failed(description: "\(error)") }
        let cluster = ThrowawayPostgres(folder: try bench.workspace.folder("postgres-\(UUID().uuidString.prefix(8))"), port: port,
                                        binaries: try newestBinaries(), password: "pw-" + UUID().uuidString.prefix(12).lowercased())
        do {
            try await cluster.create()
            try await cluster.start(settings: settings)
            try await cluster.psql("CREATE ROLE \(cluster.user) LOGIN PASSWORD '\(cluster.password)'")
            try await cluster.psql("CREATE DATABASE \(cluster.database) OWNER \(cluster.user)")
        } catch {
            await cluster.remove()
            throw error
        }
        do {
            let value = try await body(cluster)
            await cluster.remove()
            return value
        } catch {
            await cluster.remove()
            throw error
        }
    }

    private var dataDirectory: URL { folder.appendingPathComponent("data") }

    private func create() async throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        if geteuid() == 0 {
            let chown = try await Subprocess.run(.path("/bin/chown"), arguments: ["-R", "nobody:nogroup", folder.path],
                                                 output: .discarded, error: .string(limit: 1 << 16))
            guard chown.terminationStatus == .exited(0) else {
                throw Bench.Failed(description: "chown nobody \(folder.path) failed", detail: chown.standardError)
            }
        }
        // The superuser over the folder's socket needs no password; every TCP login needs one.
        try await run("initdb", ["-D", dataDirectory.path, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                                 "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"])
    }

    /// Starts the server; `pg_ctl -w` returns once it accepts connections. fsync off: a
    /// throwaway cluster, and the figures are about this program's work, not the disk's.
    private func start(settings: [String]) async throws {
        let options = (["-k \(folder.path)", "-p \(port)", "-c listen_addresses=127.0.0.1", "-c fsync=off"] + settings.map { "-c \($0)" })
            .joined(separator: " ")
        try await run("pg_ctl", ["start", "-w", "-t", "120", "-D", dataDirectory.path, "-l", folder.appendingPathComponent("log").path, "-o", options])
    }

    private func remove() async {
        if FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("postmaster.pid").path) {
            _ = try? await run("pg_ctl", ["stop", "-w", "-t", "120", "-m", "immediate", "-D", dataDirectory.path])
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `sql` as the superuser over the folder's socket; returns what it printed
    /// (unaligned, tuples only: one row a line).
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") async throws -> String {
        try await run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder.path, "-p", String(port), "-U", "postgres",
                               "-d", database, "-c", sql])
    }

    /// Runs one of the cluster's programs, as `nobody` when this is root.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) async throws -> String {
        let executable = binaries.appendingPathComponent(program).path
        let (path, all) = geteuid() == 0 ? ("/usr/sbin/runuser", ["-u", "nobody", "--", executable] + arguments) : (executable, arguments)
        let result = try await Subprocess.run(
            .path(FilePath(path)), arguments: Arguments(all),
            environment: .custom([.init(rawValue: "PATH")!: "/usr/bin:/bin", .init(rawValue: "LC_ALL")!: "C.UTF-8",
                                  .init(rawValue: "PGPASSFILE")!: "/dev/null", .init(rawValue: "HOME")!: folder.path]),
            workingDirectory: "/",
            output: .string(limit: 16 << 20), error: .string(limit: 1 << 20))
        guard result.terminationStatus == .exited(0) else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw Bench.Failed(description: "\(program) exited with \(result.terminationStatus): \(result.standardError.prefix(300))",
                               detail: result.standardError + result.standardOutput + "\n" + log.suffix(2000))
        }
        return result.standardOutput
    }
}
