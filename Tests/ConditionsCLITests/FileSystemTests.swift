import Foundation
import TestHarness
import LoopbackServer
import Testing

/// The cache folder is never escaped and stays private whatever the umask; a planted symlink
/// is replaced, never written through. (The fixtures folder: HostileURNTests and the
/// Fixtures module's own traversal tests.)
@Suite(.serialized) struct FileSystemTests {
    static let environment = ["WSDOT_ACCESS_CODE": "code-77"]

    func setup() throws -> (LoopbackServer, URL) {
        let server = LoopbackServer()
        server.route("/api/GetMountainPassConditionsAsJson", .json(try Upstream.text("Plugins/WSDOT/Tests/Resources/api-winter.json")))
        try server.start()
        let dir = try Upstream.config(
            sources: #""wsdot": {"module": "WSDOT", "ttl": "5m", "options": {"mode": "api", "baseURL": "\#(server.url("/api").absoluteString)", "accessCode": "${WSDOT_ACCESS_CODE}"}}"#,
            routes: #""pass": "wsdot""#)
        return (server, dir)
    }

    /// Runs the binary under `umask 000`, the most permissive a user could have.
    func runPermissive(_ arguments: [String], in dir: URL) async throws -> Int32 {
        try await CLI.runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", #"umask 000; exec "$0" "$@""#, CLI.binary.path] + arguments,
                                 in: dir, environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path].merging(Self.environment) { $1 },
                                 timeout: 60).status
    }

    func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
    }

    @Test func cacheIsUserOnlyEvenUnderAPermissiveUmask() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("deep/er/cache").path
        let status = try await runPermissive(["--cache-dir", cache, "pass:snoqualmie", "pass:all"], in: dir)
        #expect(status == 0)
        #expect(try permissions(cache) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(files.count == 2)
        for file in files { #expect(try permissions(cache + "/" + file) == 0o600, "\(file)") }
    }

    @Test func hostileURNsNeverWriteOutsideTheCache() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        // Percent-encoded letters decode to a real pass, so these resolve and are cached under the text asked.
        let urns = ["pass:snoqualmie", "pass:%73noqualmie", "PASS:white", "pass:..%2f..%2fescape", "pass:%2e%2e", "pass:%252e%252e%252fx",
                    "pass:%2fetc%2fpasswd", "pass:$(touch x)", "pass:.%2f..%2fcache"] + HostileURNs.traversal
        let run = try await CLI.run(["--cache-dir", cache.path, "--format", "ndjson", "--"] + urns, in: dir, environment: Self.environment)
        #expect(run.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == (before + ["cache"]).sorted())
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.count == 3, "\(files)")
        #expect(files.allSatisfy { $0.wholeMatch(of: /[0-9a-f]{32}\.json/) != nil }, "\(files)")
        var isDirectory: ObjCBool = false
        #expect(!FileManager.default.fileExists(atPath: dir.deletingLastPathComponent().appendingPathComponent("escape").path, isDirectory: &isDirectory))
    }

    @Test func aPlantedSymlinkIsReplacedNotWrittenThrough() async throws {
        let (server, dir) = try setup()
        defer { server.stop(); try? FileManager.default.removeItem(at: dir) }
        let cache = dir.appendingPathComponent("cache")
        let first = try await CLI.run(["--cache-dir", cache.path, "pass:white"], in: dir, environment: Self.environment)
        #expect(first.status == 0)
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first)
        let victim = dir.appendingPathComponent("victim.txt")
        try "precious".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: cache.appendingPathComponent(entry))
        try FileManager.default.createSymbolicLink(at: cache.appendingPathComponent(entry), withDestinationURL: victim)

        let refreshed = try await CLI.run(["--cache-dir", cache.path, "--refresh", "pass:white"], in: dir, environment: Self.environment)
        #expect(refreshed.status == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        let type = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(entry).path)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect(try permissions(cache.appendingPathComponent(entry).path) == 0o600)
    }
}
