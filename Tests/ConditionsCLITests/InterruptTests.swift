import Foundation
import TestHarness
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP through the binary (a report, `watch`, `conditions mcp`) while
/// an Exec program is running: the
/// program sits in a process group of its own, which neither the terminal nor a supervisor
/// signalling `conditions` reaches, so `conditions` must end it before going. A report then
/// dies of the signal as a shell expects (128 + its number); `watch` exits 0. A signal ignored
/// when the process started (a shell's background job, `nohup`) stays ignored.
///
/// Every test waits, by PID files, until the program and the `sleep` it started are running,
/// so the signal always lands mid-resolution.
@Suite struct InterruptTests {
    typealias Watch = WatchHookTests.Watch

    /// A config folder whose `pass:{name}` runs a program that starts `sleep 1000`, publishes
    /// both PIDs and waits.
    static func hangingConfig() throws -> (dir: URL, program: URL, child: URL) {
        let dir = try Upstream.config(
            sources: #""hang": {"module": "Exec", "options": {"command": ["/bin/sh", "hang.sh"], "routes": ["pass:{name}"], "timeout": 600}}"#,
            routes: #""pass": "hang""#)
        let program = dir.appendingPathComponent("program.pid"), child = dir.appendingPathComponent("child.pid")
        try WatchHookTests.script("""
            cat > /dev/null
            sleep 1000 &
            \(WatchHookTests.publish("$!", to: child))
            \(WatchHookTests.publish("$$", to: program))
            wait
            """, at: dir.appendingPathComponent("hang.sh"))
        return (dir, program, child)
    }

    /// Both PIDs once the program and its `sleep` run, nil (and an issue) if they never do.
    static func running(_ config: (dir: URL, program: URL, child: URL), _ process: Watch) async -> (pid_t, pid_t)? {
        let started = await WatchHookTests.eventually {
            WatchHookTests.pid(in: config.program) != nil && WatchHookTests.pid(in: config.child) != nil
        }
        guard started, let program = WatchHookTests.pid(in: config.program), let child = WatchHookTests.pid(in: config.child) else {
            await process.signal(SIGKILL)
            Issue.record("the Exec program never started: \(process.stderr)")
            return nil
        }
        #expect(WatchHookTests.isAlive(program) && WatchHookTests.isAlive(child))
        return (program, child)
    }

    static func gone(_ pids: (pid_t, pid_t)) async -> Bool {
        await WatchHookTests.eventually { !WatchHookTests.isAlive(pids.0) && !WatchHookTests.isAlive(pids.1) }
    }

    static func cleanUp(_ config: (dir: URL, program: URL, child: URL)) {
        for file in [config.program, config.child] { if let pid = WatchHookTests.pid(in: file) { kill(pid, SIGKILL) } }
        try? FileManager.default.removeItem(at: config.dir)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aReportEndsItsProgramsThenDiesOfTheSignal(_ signal: Int32) async throws {
        let config = try Self.hangingConfig()
        defer { Self.cleanUp(config) }
        let report = try Watch(["--no-cache", "pass:snoqualmie", "moon:now"], in: config.dir)
        guard let pids = await Self.running(config, report) else { return }
        await report.signal(signal)
        guard await report.finish(within: 30) else { return }
        #expect(await report.status == 128 + signal, "\(report.stderr)")
        #expect(await Self.gone(pids), "the Exec program or its child outlived the report")
        #expect(report.stdout.isEmpty)
    }

    @Test func watchInterruptedMidPollEndsItsProgramAndExitsZero() async throws {
        let config = try Self.hangingConfig()
        defer { Self.cleanUp(config) }
        let watch = try Watch(["watch", "--no-cache", "--every", "1s", "pass:snoqualmie"], in: config.dir)
        guard let pids = await Self.running(config, watch) else { return }
        await watch.signal(SIGTERM)
        guard await watch.finish(within: 30) else { return }
        #expect(await watch.status == 0, "\(watch.stderr)")
        #expect(await Self.gone(pids), "the Exec program or its child outlived watch")
    }

    /// `conditions mcp` with stdin held open: the feeder sends `initialize`, waits for its reply,
    /// then `initialized` and a `resolve` of the hanging pass, and sleeps.
    @Test func theMCPServerEndsItsProgramsThenDiesOfTheSignal() async throws {
        let config = try Self.hangingConfig()
        let feeder = config.dir.appendingPathComponent("feeder.pid")
        defer {
            if let pid = WatchHookTests.pid(in: feeder) { kill(pid, SIGKILL) }
            Self.cleanUp(config)
        }
        let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"interrupt","version":"1"}}}"#
        let initialized = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        let call = #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"resolve","arguments":{"urns":["pass:snoqualmie"]}}}"#
        let script = #"""
            exec "$0" mcp --no-cache < <(printf '%s\n' "$1"; until grep -q '"id":1' watch.out; do sleep 0.05; done
                                          printf '%s\n' "$2" "$3"; echo $BASHPID > feeder.pid; exec sleep 1000)
            """#
        let server = try Watch(["-c", script, CLI.binary.path, initialize, initialized, call], in: config.dir, program: "/bin/bash")
        guard let pids = await Self.running(config, server) else { return }
        await server.signal(SIGTERM)
        guard await server.finish(within: 30) else { return }
        #expect(await server.status == 128 + SIGTERM, "\(server.stderr)")
        #expect(await Self.gone(pids), "the Exec program or its child outlived the MCP server")
    }

    /// SIGINT, ignored by the shell that started the report, stays ignored: the SIGTERM sent
    /// after it is what ends the report (a handled SIGINT, read first, would give 130).
    @Test func aSignalIgnoredAtStartStaysIgnored() async throws {
        let config = try Self.hangingConfig()
        defer { Self.cleanUp(config) }
        let report = try Watch(["-c", #"trap '' INT; exec "$0" --no-cache pass:snoqualmie"#, CLI.binary.path], in: config.dir, program: "/bin/sh")
        guard let pids = await Self.running(config, report) else { return }
        await report.signal(SIGINT)
        await report.signal(SIGTERM)
        guard await report.finish(within: 30) else { return }
        #expect(await report.status == 128 + SIGTERM, "\(report.stderr)")
        #expect(await Self.gone(pids))
    }
}
