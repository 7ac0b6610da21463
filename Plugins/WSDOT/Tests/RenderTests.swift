import ConditionsJSON
import ConditionsKit
import ConditionsKitTesting
import Foundation
import Logging
import Testing
import WSDOTStandIn
@testable import WSDOT

/// A shell script in a fresh folder, run as `/bin/sh script pidfile url`.
struct RenderScript {
    let folder: URL
    let script: URL
    var pidFile: URL { folder.appendingPathComponent("pids") }

    init(_ body: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("wsdot-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        script = folder.appendingPathComponent("render.sh")
        try ("#!/bin/sh\n" + body + "\n").write(to: script, atomically: true, encoding: .utf8)
    }

    var renderOption: String { #"["/bin/sh", "\#(script.path)", "\#(pidFile.path)"]"# }

    /// PIDs the script wrote (itself and its children).
    func pids() -> [pid_t] {
        ((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
    }

    /// True when `pid` is gone or a zombie waiting for a reaper that is not us.
    static func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        guard let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
        return state == "Z" || state == "X"
    }

    /// The script's processes still alive once a SIGKILLed process has had up to `limit` to die:
    /// the kernel ends a killed process asynchronously, so a check right after the signal can
    /// still see it running. Polls the condition; returns as soon as it holds.
    func survivors() async -> [pid_t] {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            let alive = pids().filter { !Self.isGone($0) }
            if alive.isEmpty || ContinuousClock.now >= deadline { return alive }  // wall-clock-ok: a 2-minute hang guard; the group was killed moments before
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("HTML mode: pages rendered by a program", .serialized)
struct RenderTests {
    static let report = [
        ["Temperature", "30°F / -1°C"], ["Elevation", "3022 ft"], ["Travel eastbound", "No restrictions"],
        ["Travel westbound", "Pass Closed"], ["Conditions", "Snow."], ["Last updated", "Monday, December 15, 2025 5:30 AM"],
    ]

    /// wsdot.com's shape: the report arrives from a `fetch` after load.
    static let scriptFilledPage = ScriptFilledPassPage.html(reportPath: "/data/report.json")

    func server() throws -> LoopbackServer {
        let server = LoopbackServer()
        let json = "[" + Self.report.map { "[\"\($0[0])\", \"\($0[1])\"]" }.joined(separator: ",") + "]"
        server.route("/data/report.json", .json(json))
        server.fallback { request in
            request.path.hasPrefix("/mountainpasses/") ? .text(Self.scriptFilledPage, contentType: "text/html; charset=utf-8") : .text("no", status: 404)
        }
        try server.start()
        return server
    }

    @Test("chromium-headless-shell renders a script-filled page, which parses; a plain GET of it is the shell")
    func realChromium() async throws {
        let server = try server()
        defer { server.stop() }
        let base = server.url("/mountainpasses").absoluteString
        let rendered = try makeSource(.json(#"{"baseURL": "\#(base)", "render": "chromium", "passes": ["snoqualmie", "stevens"]}"#))
        let data = try await resolve("pass:snoqualmie", with: rendered, http: RecordingHTTPClient([:]), limits: HTTPLimits(timeout: 60))
        #expect(data["status"] == "closed")
        #expect(data["temperatureF"] == 30)
        #expect(data["updated"] == "2025-12-15T13:30:00Z")
        #expect(data["url"] == .string("\(base)/snoqualmie"))
        #expect(server.requestCount("/data/report.json") >= 1)

        // A plain GET of the same page (no browser) is recognised as the shell.
        let plain = try makeSource(.json(#"{"baseURL": "\#(base)", "passes": ["snoqualmie"]}"#))
        let page = RecordingHTTPClient(["\(base)/snoqualmie": .body(Data(Self.scriptFilledPage.utf8), contentType: "text/html")])
        let error = try #require(await resolveError("pass:snoqualmie", with: plain, http: page) as? ConditionsError)
        #expect(error.message.contains("filled in by JavaScript"))

        // pass:all renders each page, at most maxConnectionsPerHost at once.
        let all = try await resolve("pass:all", with: rendered, http: RecordingHTTPClient([:]), limits: HTTPLimits(timeout: 60, maxConnectionsPerHost: 1))
        #expect(all["passes"]?.arrayValue?.count == 2)
    }

    /// Runs `pass:stevens` with `body` as the render program and returns the error, the time
    /// and the script's processes still alive afterwards. The default timeout is one no stall of
    /// a loaded machine reaches, so a program that ends by itself is never cut short.
    func failingRender(_ body: String, limits: HTTPLimits = HTTPLimits(timeout: 60, maxBodyBytes: 1 << 20)) async throws -> (error: (kind: ErrorKind, message: String), alive: [pid_t]) {
        let script = try RenderScript(body)
        defer { script.remove() }
        let source = try makeSource(.json(#"{"passes": ["stevens"], "render": \#(script.renderOption)}"#))
        var thrown: (any Error)?
        do { _ = try await resolve("pass:stevens", with: source, http: RecordingHTTPClient([:]), limits: limits) } catch { thrown = error }
        let error = try #require(thrown)
        return (ConditionsError.report(error), await script.survivors())
    }

    /// The program sleeps an hour: only the 2 s timeout can end the run inside the time limit,
    /// and the error says which ended it.
    @Test("a program that hangs (and its child) is killed at the timeout: kind timeout, one line, no process left", .timeLimit(.minutes(5)))
    func hangs() async throws {
        let result = try await failingRender(#"echo $$ >> "$1"; sleep 3600 & echo $! >> "$1"; wait"#, limits: HTTPLimits(timeout: 2, maxBodyBytes: 1 << 20))
        #expect(result.error.kind == .timeout)
        #expect(result.error.message.contains("timed out after 2 s"))
        #expect(!result.error.message.contains("\n"))
        #expect(result.alive.isEmpty)
    }

    @Test("a program that crashes fails its pass with the signal")
    func crashes() async throws {
        let result = try await failingRender(#"echo $$ >> "$1"; kill -SEGV $$"#)
        #expect(result.error.kind == .upstream)
        #expect(result.error.message.contains("killed by SIGSEGV"))
        #expect(result.alive.isEmpty)
    }

    /// After its output the program sleeps an hour: only stopping it at the size limit ends the run.
    @Test("a program that prints 2 GB is stopped at maxBodyBytes", .timeLimit(.minutes(5)))
    func printsTooMuch() async throws {
        // Then it hangs, so a renderer that read to the end before checking would meet the
        // timeout instead.
        let result = try await failingRender(#"echo $$ >> "$1"; head -c 2147483648 /dev/zero; exec sleep 3600"#)
        #expect(result.error.kind == .badResponse)
        #expect(result.error.message.contains("larger than maxBodyBytes (1048576 bytes)"))
        #expect(result.alive.isEmpty)
    }

    @Test("a program that prints nothing, or exits non-zero, fails its pass in one line")
    func printsNothing() async throws {
        let nothing = try await failingRender(#"echo $$ >> "$1"; exit 0"#)
        #expect(nothing.error.kind == .badResponse)
        #expect(nothing.error.message.contains("printed nothing"))
        let failing = try await failingRender(#"echo oops >&2; exit 3"#)
        #expect(failing.error.message.hasSuffix("exited with status 3; it said: oops"), "\(failing.error.message)")
    }

    @Test("Chromium failing to load the page: the error carries Chromium's own words (net::ERR_NAME_NOT_RESOLVED)")
    func chromiumsOwnWords() async throws {
        // .invalid never resolves (RFC 6761), with or without a network.
        let source = try makeSource(.json(#"{"baseURL": "http://wsdot-conditions-test.invalid/mountainpasses", "render": "chromium", "passes": ["stevens"]}"#))
        let error = try #require(await resolveError("pass:stevens", with: source, http: RecordingHTTPClient([:])) as? ConditionsError)
        #expect(error.kind == .upstream)
        #expect(error.message.contains("exited with status"), "\(error.message)")
        #expect(error.message.hasSuffix("; it said: Page load failed: net::ERR_NAME_NOT_RESOLVED"), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test("the last words: a network error anywhere in the tail, else the last line; log prefixes and control characters go")
    func lastWords() {
        let chromium = """
            [1126/174536.925172:ERROR:dbus/bus.cc:405] Failed to connect to the bus
            [1126/174537.039381:ERROR:components/headless/command_handler/headless_command_handler.cc:403] Page load failed: net::ERR_CONNECTION_REFUSED
            [1126/174537.100000:WARNING:shutdown] bye

            """
        #expect(PageRenderer.lastWords(Data(chromium.utf8)) == "; it said: Page load failed: net::ERR_CONNECTION_REFUSED")
        #expect(PageRenderer.lastWords(Data("first\nsecond\u{7}\n".utf8)) == "; it said: second")
        #expect(PageRenderer.lastWords(Data()) == "")
        #expect(PageRenderer.lastWords(Data(String(repeating: "x", count: 1000).utf8)).count == "; it said: ".count + 300)
    }

    @Test("a program that prints the shell gets the render-specific diagnosis")
    func printsTheShell() async throws {
        let result = try await failingRender(#"cat <<'EOF'"# + "\n" + RenderTests.scriptFilledPage + "\nEOF")
        #expect(result.error.kind == .badResponse)
        #expect(result.error.message.contains("rendered page still holds no pass report"))
    }

    @Test("a missing program or browser is one line naming what was searched and the Debian package")
    func missing() async throws {
        let source = try makeSource(.json(#"{"passes": ["stevens"], "render": ["/nonexistent/browser"]}"#))
        let error = try #require(await resolveError("pass:stevens", with: source, http: RecordingHTTPClient([:])) as? ConditionsError)
        #expect(error.message.contains("cannot run /nonexistent/browser: no such program"))
        let chromium = PageRenderer.missingChromium(optionPath: "sources.wsdot.options.render", path: "/nowhere:/nothing")
        #expect(chromium.kind == .configuration)
        #expect(chromium.message.contains(#"searched PATH "/nowhere:/nothing" for chromium-headless-shell, chromium, headless_shell, google-chrome, and lib/chromium/ beside each PATH directory"#))
        #expect(chromium.message.contains("apt-get install chromium-headless-shell"))
        #expect(chromium.message.contains("access code"))
        #expect(!chromium.message.contains("\n"))
        #expect(PageRenderer.findChromium(path: "/nonexistent/bin") == nil)
        #expect(PageRenderer.findChromium() != nil, "scripts/dev installs chromium-headless-shell")
        // Debian's binary is found in /usr/lib/chromium even when only its parent's bin is searched.
        let debian = try #require(PageRenderer.findChromium(path: "/usr/bin"))
        #expect(debian.hasSuffix("chromium-headless-shell") || debian.hasSuffix("chromium"))
        // A folder with only `lib/chromium/chromium-headless-shell` beside `bin`.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wsdot-lib-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("lib/chromium"), withIntermediateDirectories: true)
        let binary = root.appendingPathComponent("lib/chromium/chromium-headless-shell")
        try "#!/bin/sh\n".write(to: binary, atomically: true, encoding: .utf8)
        #expect(chmod(binary.path, 0o755) == 0)
        #expect(PageRenderer.findChromium(path: root.appendingPathComponent("bin").path) == binary.path)
        #expect(configurationError(try .json(#"{"render": "firefox"}"#))?.message.contains("render") == true)
        #expect(configurationError(try .json(#"{"render": []}"#))?.message.contains("argv is empty") == true)
    }

    @Test("renders never exceed maxConnectionsPerHost at once")
    func concurrency() async throws {
        // Each run appends "start" and "end" lines; more than 2 starts without ends means overlap.
        let script = try RenderScript(#"""
        echo start >> "$1.log"; n=$(grep -c start "$1.log"); e=$(grep -c end "$1.log" || true); echo $((n - e)) >> "$1.max"
        cat <<'EOF'
        <div class="condition"><div class="conditionLabel">Travel eastbound</div><div class="conditionValue">No restrictions</div></div>
        <div class="condition"><div class="conditionLabel">Conditions</div><div class="conditionValue">Dry</div></div>
        <div class="condition"><div class="conditionLabel">Last updated</div><div class="conditionValue">12/15/2025 5:30 AM</div></div>
        EOF
        echo end >> "$1.log"
        """#)
        defer { script.remove() }
        let source = try makeSource(.json(#"{"render": \#(script.renderOption)}"#))
        let all = try await resolve("pass:all", with: source, http: RecordingHTTPClient([:]), limits: HTTPLimits(maxConnectionsPerHost: 2))
        #expect(all["passes"]?.arrayValue?.count == PassCatalog.all.count)
        let overlaps = ((try? String(contentsOfFile: script.pidFile.path + ".max", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }
        #expect(overlaps.count == PassCatalog.all.count)
        #expect((overlaps.max() ?? 99) <= 2)
    }

    /// The program sleeps an hour and the timeout is two minutes: within the time limit only the
    /// cancellation can end the run, and no process of its group survives it.
    @Test("cancelling a render kills the program's group", .timeLimit(.minutes(5)))
    func cancellation() async throws {
        let script = try RenderScript(#"echo $$ >> "$1"; sleep 3600 & echo $! >> "$1"; wait"#)
        defer { script.remove() }
        let source = try makeSource(.json(#"{"passes": ["stevens"], "render": \#(script.renderOption)}"#))
        let task = Task { try await resolve("pass:stevens", with: source, http: RecordingHTTPClient([:]), limits: HTTPLimits(timeout: 120)) }
        // Poll for the script's PIDs: the condition, not a fixed delay, decides when to cancel.
        let deadline = ContinuousClock.now + .seconds(120)
        while script.pids().count < 2, ContinuousClock.now < deadline {  // wall-clock-ok: a 2-minute hang guard; the script writes its PIDs at once
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(script.pids().count == 2)
        task.cancel()
        // Cancelled, not timed out: the timeout would say "timed out after 120 s".
        let thrown: (any Error)? = switch await task.result { case .success: nil; case .failure(let error): error }
        #expect(thrown.map { ConditionsError.report($0).kind } == .cancelled, "\(String(describing: thrown))")
        #expect(await script.survivors().isEmpty)
    }
}
