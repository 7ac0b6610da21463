import Foundation
import OpenAPIKit
import TestHarness
import Testing

/// schemathesis (the version `scripts/dev` pins in `.build/schemathesis-venv`) generates
/// requests from the running server's own `/v1/openapi.json` and checks every answer against
/// it, with all its checks: status codes, content types, headers and bodies as declared, valid
/// data accepted and invalid data refused, undeclared methods answered 405 with `Allow`.
/// Against the built `conditions serve` on fixtures and the moon: no network.
@Suite struct SchemathesisTests {
    static let venv = CLI.packageRoot.appendingPathComponent(".build/schemathesis-venv")
    /// What keeps the run bounded (Tests/Schemathesis/schemathesis.toml).
    static let config = CLI.packageRoot.appendingPathComponent("Tests/Schemathesis/schemathesis.toml")

    /// Every operation: schemathesis leaves out the one that served the document unless a
    /// filter selects it. A fixed seed, one worker, no example database and at most 50
    /// generated cases per operation and phase: the same requests on every run (the
    /// packages are pinned too), in about 20 s (a few resumed event streams are read for 2 s each;
    /// well under the 240 s allowed on the loaded 2-core machine).
    static let arguments = ["--include-path-regex", "^/", "--checks", "all", "--seed", "20260101", "--workers", "1", "--max-examples", "50",
                            "--generation-database", "none", "--request-timeout", "20", "--no-color"]

    @Test func theServerConformsToItsDocument() async throws {
        let st = Self.venv.appendingPathComponent("bin/st")
        // Never skipped: CI runs `scripts/dev test`, which creates the venv first.
        guard FileManager.default.isExecutableFile(atPath: st.path) else {
            Issue.record("No schemathesis at .build/schemathesis-venv: run scripts/dev (or scripts/dev test) to create it")
            return
        }
        let dir = try DashboardSetup.fixtures()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ended = try await ServeProcess.with(["--listen", "127.0.0.1:0"], in: dir) { server in
            let run = try await CLI.runProgram(
                st, ["--config-file", Self.config.path, "run", server.base + "/v1/openapi.json"] + Self.arguments,
                in: dir, environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "TZ": "UTC", "LANG": "C.UTF-8"],
                timeout: 240)
            #expect(run.status == 0, "st run exited \(run.status):\n\(Self.readable(run.stdout))\n\(Self.readable(run.stderr))")
            // A run that tested nothing, or skipped operations, would also exit 0.
            let operations = try OpenAPITests.decoded().paths.values.reduce(0) { $0 + ($1.pathItemValue?.endpoints.count ?? 0) }
            #expect(run.stdout.contains("Tested: \(operations)\n"), "\(operations) operations described; schemathesis:\n\(Self.readable(run.stdout))")
            let cases = try #require(run.stdout.firstMatch(of: /(\d+) generated, (\d+) passed/), "\(Self.readable(run.stdout))")
            #expect(Int(cases.1)! > 10 * operations && cases.1 == cases.2)
        }
        #expect(ended.status == 0, "conditions serve: \(ended.stderr.suffix(2000))")
    }

    /// schemathesis' report with each line cut to 1,000 characters: a failure's `curl` line
    /// repeats the request, and a generated URL may be 100 KB long.
    static func readable(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.count > 1000 ? $0.prefix(1000) + " …" : $0 }
            .joined(separator: "\n")
    }
}
