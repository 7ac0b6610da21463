import Foundation
import TestHarness
import Testing

/// The headless browser (Debian's chromium-headless-shell) as the dashboard tests use it:
/// `scripts/browser.py` over the DevTools pipe for pages that stay live, and plain
/// `--dump-dom` for what a browser without JavaScript gets.
enum Browser {
    /// What `scripts/browser.py` reported.
    struct Report {
        let json: [String: Any]
        var error: String? { json["error"] as? String }
        var waited: Bool? { json["waited"] as? Bool }
        var value: Any? { json["value"] }
        var object: [String: Any] { value as? [String: Any] ?? [:] }
        var navigations: Int? { json["navigations"] as? Int }
        var dom: String { json["dom"] as? String ?? "" }
    }

    /// Runs `scripts/browser.py url arguments` (bounded by `timeout` seconds inside the script,
    /// and by the runner a little after).
    static func load(_ url: String, _ arguments: [String] = [], timeout: Double = 60) async throws -> Report {
        let script = CLI.packageRoot.appendingPathComponent("scripts/browser.py").path
        let output = try await CLI.runProgram(
            URL(fileURLWithPath: "/usr/bin/python3"), [script, url, "--timeout", String(timeout)] + arguments,
            in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path, "TZ": "UTC"],
            timeout: timeout + 30)
        let object = (try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8))) as? [String: Any]
        guard let object else {
            Issue.record("scripts/browser.py printed no JSON (status \(output.status)): \(output.stdout.prefix(500)) \(output.stderr.prefix(2000))")
            throw BrowserFailed()
        }
        let report = Report(json: object)
        if let error = report.error { Issue.record("browser: \(error)") }
        return report
    }

    struct BrowserFailed: Error {}

    /// Chromium's own `--dump-dom` of `url` with JavaScript off: the DOM after the load event.
    static func dumpDOMWithoutScript(_ url: String) async throws -> String {
        let binary = try #require(["/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }, "chromium-headless-shell is not installed (scripts/dev installs it)")
        var arguments = ["--headless", "--dump-dom", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage",
                         "--blink-settings=scriptEnabled=false"]
        if geteuid() == 0 { arguments.append("--no-sandbox") }
        let output = try await CLI.runProgram(URL(fileURLWithPath: binary), arguments + [url], in: CLI.packageRoot,
                                              environment: ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path], timeout: 60)
        #expect(output.status == 0, "chromium exited with \(output.status): \(output.stderr.suffix(1000))")
        return output.stdout
    }
}
