import Foundation
import TestHarness
import Testing

/// The headless browser (Debian's chromium-headless-shell) as the dashboard tests use it,
/// through `scripts/browser.py` over the DevTools pipe. Chromium's `--dump-dom` does not fit:
/// it reads the DOM with JavaScript (so prints nothing with scripts off), and with
/// `--virtual-time-budget` it never ends for a page holding an EventSource open.
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
}
