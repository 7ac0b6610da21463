import ArgumentParser
import ConditionsCore
import ConditionsText
import ConditionsProcess
import ConditionsKit
import Foundation
import Logging

/// `conditions [URN ...]`: resolve URNs (or the config's `report`) and print the results.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Resolve URNs and print their results (the default command).",
        discussion: """
        With no URN, resolves the config's "report" list; "-" reads URNs from stdin, one per \
        line ("#" starts a comment). URNs resolve concurrently; results print in the order \
        asked, failures included.
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var cache: CacheOptions

    @Option(name: .long, help: "Output format: text (for people), json (one array), ndjson (one object per line) or csv.")
    var format: OutputFormat = .text

    @Option(name: .long, help: ArgumentHelp("Render the results through this Mustache template instead of --format.", valueName: "file"))
    var template: String?

    @Option(name: .long, help: ArgumentHelp("Pin the clock for every source to this ISO 8601 instant, for reproducible reports (\(Timestamp.supportedRangeText)).", valueName: "iso8601"))
    var now: String?

    @Flag(name: .shortAndLong, help: "No progress display on stderr.")
    var quiet = false

    @Flag(name: .long, help: "Record the results in the history store, as watch and serve do (see 'conditions history --help').")
    var record = false

    @Argument(help: ArgumentHelp("URNs such as \(HelpExamples.urns.prefix(3).joined(separator: ", ")); \"-\" reads them from stdin.", valueName: "urn"))
    var urns: [String] = []

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }
        let templateRenderer = try template.map { path throws(Failure) in try TemplateRenderer(file: URL(fileURLWithPath: path)) }
        let clock = try Clock(now, place: runtime.configuration.place)

        let requested = try ReportInput.urns(arguments: urns, configured: runtime.configuration.report)
        guard !requested.isEmpty else {
            throw Failure.usage(urns.isEmpty
                ? "no URNs given and the config has no \"report\" list; try: conditions \(runtime.exampleURNs.prefix(2).joined(separator: " "))"
                : "no URNs on standard input")
        }

        // Exec programs and page renders run in process groups of their own, which the
        // terminal's Ctrl-C does not reach: they are ended first, then the report dies of the
        // signal as it would have (130, 143 in a shell).
        InterruptSignals.endChildren(then: .dieOfTheSignal)
        var resolver = Resolver(runtime: runtime, now: clock.now, pinned: clock.pinned, http: HTTPClients.make(version: Version.current, logger: logger))
        resolver.cache = try cache.policy(runtime: runtime, environment: global.environment)
        let progress = Progress.onTerminal(enabled: !quiet, total: requested.count)
        if let progress {
            resolver.progress = { @Sendable done, total in progress.update(done, total) }
        }

        var failed = false
        if record {
            // Recorded before printing, as watch does; a pinned clock (--now) is when they were observed.
            let records = await resolver.resolve(requested)
            progress?.finish()
            let recorder = try HistoryOptions.recorder(runtime: runtime, environment: global.environment, logger: logger)
            await recorder.record(records, at: clock.now)
            await recorder.close()
            failed = records.contains(where: \.failed)
            if let templateRenderer {
                write(templateRenderer.render(records, generatedAt: clock.now, place: runtime.configuration.place), to: .standardOutput)
            } else {
                var printer = ReportPrinter(format: format, style: .forStandardOutput(environment: global.environment),
                                            place: runtime.configuration.place, catalog: runtime.catalog)
                for record in records { printer.print(record) }
                printer.finish()
            }
        } else if let templateRenderer {
            // A template may refer to any result from anywhere, so it sees them all at once.
            let records = await resolver.resolve(requested)
            progress?.finish()
            failed = records.contains(where: \.failed)
            write(templateRenderer.render(records, generatedAt: clock.now, place: runtime.configuration.place), to: .standardOutput)
        } else {
            var printer = ReportPrinter(format: format, style: .forStandardOutput(environment: global.environment),
                                        place: runtime.configuration.place, catalog: runtime.catalog)
            await resolver.resolve(requested) { record in
                progress?.clear()
                failed = failed || record.failed
                printer.print(record)
            }
            progress?.finish()
            printer.finish()
        }
        // The process ends here, the runtime and resolver still held: returning would take apart
        // every instance, cache and client they hold first (~0.1 ms of a local answer, scenario
        // 1, docs/performance.md, "Issue 45"), which the exit does for nothing.
        Main.end(status: failed ? 1 : 0)
    }
}

/// The report's instant: the real clock, or `--now` pinned.
struct Clock {
    let now: Date
    let pinned: Bool

    init(_ text: String?, place: Place) throws(Failure) {
        guard let text else { now = Date(); pinned = false; return }
        guard let parsed = Timestamp.parse(text, timeZone: place.timeZone ?? .gmt) else {
            throw Failure.usage("--now: \"\(text)\" is not an ISO 8601 date or date-time (e.g. 2026-11-21T14:00:00Z)")
        }
        // Outside it dates would print with other than four-digit years and no source has
        // data; saying so here beats every URN failing on its own.
        guard Timestamp.supportedRange.contains(parsed) else {
            throw Failure.usage("--now: \"\(text)\" is outside the supported range, \(Timestamp.supportedRangeText)")
        }
        now = parsed
        pinned = true
    }
}
