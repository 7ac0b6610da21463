import Foundation
import LoopbackServer
import Synchronization

/// A real Eclipse Mosquitto broker for one test (Debian's `mosquitto`, which `scripts/dev`
/// installs): its own folder, a free loopback port, optionally a password file made by
/// `mosquitto_passwd` and a TLS listener whose certificate a CA made here signed. Stopped and
/// removed by `stop()`, which the tests call in a `defer`; `restart()` brings it back on the
/// same port, as a broker restarted by its operator.
package final class MosquittoBroker: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let folder: URL
    /// The plain listener (or the TLS one, with `tls`).
    package let port: Int
    package let tls: Bool
    /// The user the password file knows, and its password.
    package let username = "conditions"
    package let password = "pw-" + UUID().uuidString.prefix(12).lowercased()
    /// The CA that signed the broker's certificate (`tls` only).
    package var caFile: URL { folder.appendingPathComponent("ca.crt") }
    /// A CA that signed nothing.
    package var otherCAFile: URL { folder.appendingPathComponent("other-ca.crt") }
    private let process = Mutex<Process?>(nil)

    /// `mqtt://127.0.0.1:<port>` or `mqtts://localhost:<port>`.
    package var url: String { tls ? "mqtts://localhost:\(port)" : "mqtt://127.0.0.1:\(port)" }

    /// A broker, started; with `authenticated`, anonymous clients are refused.
    package init(authenticated: Bool = false, tls: Bool = false) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try LoopbackServer.freePort()
        self.tls = tls
        var config = getuid() == 0 ? ["user root"] : []  // as root it would switch to `mosquitto`, who cannot read this folder
        config += ["persistence false", "log_dest stderr", "log_type all", "listener \(port) 127.0.0.1"]
        if authenticated {
            try await Self.run("/usr/bin/mosquitto_passwd", ["-b", "-c", folder.appendingPathComponent("passwd").path, username, password], in: folder)
            config += ["allow_anonymous false", "password_file \(folder.appendingPathComponent("passwd").path)"]
        } else {
            config.append("allow_anonymous true")
        }
        if tls {
            try await makeCertificates()
            config += ["cafile \(caFile.path)", "certfile \(folder.appendingPathComponent("server.crt").path)",
                       "keyfile \(folder.appendingPathComponent("server.key").path)"]
        }
        try (config.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try await start()
    }

    /// Starts the broker and returns once it accepts connections (its log says "running").
    package func start() async throws {
        let log = folder.appendingPathComponent("log-\(UUID().uuidString.prefix(6)).txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", folder.appendingPathComponent("mosquitto.conf").path]
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The broker has its own copy; the test process keeps no descriptor of it.
        try? handle.close()
        self.process.withLock { $0 = process }
        // mosquitto writes "running" once its listeners are open.
        let deadline = Date().addingTimeInterval(60)
        while true {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains(" running") { return }
            if !process.isRunning || Date() > deadline {  // wall-clock-ok: a hang guard for a broker that never starts
                throw Failure(description: "mosquitto did not start: \(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops the broker, as a crash would, and waits for it to exit. SIGKILL: a child started
    /// by Foundation's `Process` from a thread of the test's pool inherits that thread's signal
    /// mask, in which SIGTERM is blocked, so a SIGTERM would stay pending for ever.
    package func halt() async {
        guard let process = process.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        kill(process.processIdentifier, SIGKILL)
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// A broker for `body`, stopped and removed however the body ends.
    package static func with<T>(authenticated: Bool = false, tls: Bool = false, _ body: (MosquittoBroker) async throws -> T) async throws -> T {
        let broker = try await MosquittoBroker(authenticated: authenticated, tls: tls)
        do {
            let result = try await body(broker)
            await broker.stop()
            return result
        } catch {
            await broker.stop()
            throw error
        }
    }

    /// Stops and starts the broker on the same port; retained messages are gone (no persistence).
    package func restart() async throws {
        await halt()
        try await start()
    }

    /// Stops the broker and removes its folder.
    package func stop() async {
        await halt()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Everything the broker logged.
    package var log: String {
        let logs = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("log-") }.sorted()
        return logs.compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
    }

    private func makeCertificates() async throws {
        let openssl = "/usr/bin/openssl"
        for name in ["ca", "other-ca"] {
            try await Self.run(openssl, ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                                         "-subj", "/CN=conditions test \(name)", "-keyout", "\(name).key", "-out", "\(name).crt"], in: folder)
        }
        try await Self.run(openssl, ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=localhost",
                                     "-keyout", "server.key", "-out", "server.csr"], in: folder)
        try "subjectAltName=DNS:localhost\n".write(to: folder.appendingPathComponent("san.ext"), atomically: true, encoding: .utf8)
        try await Self.run(openssl, ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                                     "-extfile", "san.ext", "-out", "server.crt"], in: folder)
    }

    private static func run(_ program: String, _ arguments: [String], in folder: URL) async throws {
        let out = try await CLI.runProgram(URL(fileURLWithPath: program), arguments, in: folder, environment: ["PATH": "/usr/bin:/bin"], timeout: 120)
        guard out.status == 0 else { throw Failure(description: "\(program) \(arguments.joined(separator: " ")): \(out.stderr)") }
    }
}
