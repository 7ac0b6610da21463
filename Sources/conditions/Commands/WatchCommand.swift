import ArgumentParser
import ConditionsCore
import ConditionsJSON
import ConditionsProcess
import ConditionsKit
import Foundation
import Logging

/// `conditions watch`: re-resolve on an interval and report only what changed.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Re-resolve URNs on an interval and print only changes.",
        discussion: """
        Prints each URN's state once, then one line per change (a pass going from restricted \
        to closed, a new moon phase). With --format ndjson prints events: \
        {"event": "initial"|"change", "urn", "at", "before", "after"}.

        --exec runs a program on each change (argv only, no shell; repeat --exec for its \
        arguments, or give one JSON array). Its stdin is a regular file holding the event as \
        JSON, which it may ignore; CONDITIONS_URN, CONDITIONS_STATUS and \
        CONDITIONS_PREVIOUS_STATUS are set. It runs in its own process group, with its stdout \
        and stderr going to watch's stderr. One running longer than --exec-timeout (default \
        30s) gets SIGTERM to its group, then SIGKILL 2 s later. Each failure (non-zero status, \
        killed by a signal, program not found, timeout) is one log line; watching goes on.

        \(HelpExamples.block([
            ("conditions watch \(HelpExamples.urn(2)) \(HelpExamples.urn(0)) --every 5m", nil),
            ("conditions watch \(HelpExamples.urn(2)) --every 10m --format ndjson >> changes.log", nil),
            ("conditions watch \(HelpExamples.urn(2)) --every 5m --exec notify-send --exec Changed", nil),
            ("conditions watch \(HelpExamples.urn(0)) --every 1h --exec '[\"/usr/local/bin/post-to-chat\", \"--channel\", \"conditions\"]'", nil),
            ("conditions watch \(HelpExamples.urn(2)) --every 5m --notify phone", nil),
        ]))

        --notify sends what each change is worth telling (a pass closing: urgent; chains \
        required: high) to a target of the config's "notify" section: a phone through ntfy, a \
        signed webhook, any Apprise service. A notice is stored before it is sent and sent \
        again after a restart until the target answers 2xx (docs/notifications.md).

        Every poll's results are recorded in the history store (see 'conditions history \
        --help'), each change committed before it is printed or its hook runs; \
        --no-history records nothing.

        Ctrl-C, SIGTERM or SIGHUP stops watching, sends SIGTERM to running hooks' (and Exec \
        programs') groups, and exits 0.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions
    @OptionGroup var history: HistoryOptions

    @Option(name: .long, help: ArgumentHelp("Interval between polls: 90, 90s, 5m, 1h.", valueName: "duration"))
    var every: String = "5m"

    @Option(name: .long, help: "Output: text (one line per change) or ndjson (change events).")
    var format: OutputFormat = .text

    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Program to run on each change; repeat for its arguments, or give a JSON argv array.", valueName: "program"))
    var exec: [String] = []

    @Option(name: .long, help: ArgumentHelp("Kill an --exec hook running longer than this: 30s, 2m.", valueName: "duration"))
    var execTimeout: String = "30s"

    @Option(name: .long, help: ArgumentHelp("Stop after this many polls (default: until interrupted).", valueName: "n"))
    var count: Int?

    @Option(name: .long, help: ArgumentHelp("Send each change's notice to this target of the config's notify.targets (ntfy, webhook, apprise); repeat for more.", valueName: "target"))
    var notify: [String] = []

    @Argument(help: ArgumentHelp("URNs to watch (default: the config's report list); \"-\" reads them from stdin.", valueName: "urn"))
    var urns: [String] = []

    func validate() throws {
        guard let seconds = DurationText.seconds(every), seconds >= 1 else {
            throw ValidationError("--every: \"\(every)\" is not a duration of at least 1 s (e.g. 30s, 5m, 1h)")
        }
        guard seconds <= 7 * 86400 else { throw ValidationError("--every: at most 7d") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        guard let timeout = DurationText.seconds(execTimeout), timeout > 0, timeout <= 86400 else {
            throw ValidationError("--exec-timeout: \"\(execTimeout)\" is not a duration between 0 and 1d (e.g. 10s, 2m)")
        }
        guard [.text, .ndjson].contains(format) else { throw ValidationError("--format: watch prints text or ndjson") }
    }

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
        let hook = try exec.isEmpty ? nil : ChangeHook(arguments: exec, timeout: .seconds(DurationText.seconds(execTimeout) ?? 30))
        let interval = DurationText.seconds(every) ?? 300
        let watched = try ReportInput.urns(arguments: urns, configured: runtime.configuration.report)
        guard !watched.isEmpty else { throw Failure.usage("nothing to watch: give URNs or a \"report\" list in the config") }
        let policy = try cache.policy(runtime: runtime, environment: global.environment)
        Self.exitCleanlyOnInterrupt()

        let renderer = TextRenderer(catalog: runtime.catalog, style: .forStandardOutput(environment: global.environment),
                                    timeZone: runtime.configuration.place.timeZone ?? .current,
                                    placeName: runtime.configuration.place.name)
        let recorder = try history.recorder(runtime: runtime, environment: global.environment, logger: logger)
        var tracker = WatchTracker(catalog: runtime.catalog)
        let notices = try await WatchNotices.start(notify, runtime: runtime, watched: watched, recorder: recorder,
                                                    environment: global.environment, logger: logger)
        var poll = 0
        while true {
            poll += 1
            let now = Date()
            var resolver = Resolver(runtime: runtime, now: now, pinned: false, http: HTTPClients.make(version: Version.current, logger: logger))
            resolver.cache = policy
            let records = await resolver.resolve(watched)
            // Committed before anything is printed or run: a change already shown is never
            // lost, even to SIGKILL.
            let changeIDs = await recorder?.record(records, at: now)
            await notices?.poll(records, changeIDs: changeIDs, at: now)
            for change in tracker.changes(in: records, at: now) {
                let event = change.event
                switch format {
                case .ndjson:
                    write(event.serialized() + "\n", to: .standardOutput)
                default:
                    let when = renderer.localTime(now, withDate: true)
                    let line = change.before.map { "\($0.status) → \(change.after.status)" } ?? change.after.status
                    write("\(when)  \(change.record.urn)  \(line)\n", to: .standardOutput)
                }
                if let hook, let before = change.before {
                    await hook.run(event: event, urn: change.record.urn, status: change.after.status, previous: before.status, logger: logger)
                }
            }
            if let count, poll >= count {
                await notices?.finish()
                await recorder?.close()
                return
            }
            try await StandardStreams.sleepWatchingOutput(seconds: interval)
        }
    }

    /// Ctrl-C, SIGTERM and SIGHUP end the watch with status 0; output already written is complete
    /// because every line is written whole. Running hooks (and Exec programs) sit in process
    /// groups of their own, out of reach of the terminal's Ctrl-C and of a supervisor
    /// signalling watch alone, so their groups get SIGTERM first.
    static func exitCleanlyOnInterrupt() {
        InterruptSignals.endChildren(then: .exit(0))
    }
}
