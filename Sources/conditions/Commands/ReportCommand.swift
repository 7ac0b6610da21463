import ArgumentParser
import ConditionsKit
import Foundation
import Logging

/// `conditions [URN ...]`: resolve URNs (or the config's `report`) and print the results.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Resolve URNs and print their results (the default command).",
        discussion: """
        With no URN, resolves the config's "report" list. URNs resolve concurrently; results \
        print in the order asked, failures included.
        """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Output format: text (for people), json (one array) or ndjson (one object per line).")
    var format: OutputFormat = .text

    @Option(name: .long, help: ArgumentHelp("Pin the clock for every source to this ISO 8601 instant, for reproducible reports.", valueName: "iso8601"))
    var now: String?

    @Argument(help: ArgumentHelp("URNs such as pass:snoqualmie, moon:now, phases:5.", valueName: "urn"))
    var urns: [String] = []

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger) } catch { throw Failure.configuration(error) }

        let instant: Date
        if let now {
            guard let parsed = Timestamp.parse(now, timeZone: runtime.configuration.place.timeZone ?? .gmt) else {
                throw Failure.usage("--now: \"\(now)\" is not an ISO 8601 date or date-time (e.g. 2026-11-21T14:00:00Z)")
            }
            instant = parsed
        } else {
            instant = Date()
        }

        let requested = urns.isEmpty ? runtime.configuration.report : urns
        guard !requested.isEmpty else {
            throw Failure.usage("no URNs given and the config has no \"report\" list; try: conditions pass:snoqualmie moon:now")
        }

        let resolver = Resolver(runtime: runtime, now: instant, http: HTTPClients.make(version: Version.current))
        let records = await resolver.resolve(requested)
        let printer = ReportPrinter(format: format, style: .forStandardOutput(environment: global.environment),
                                    place: runtime.configuration.place)
        printer.print(records)
        if records.contains(where: \.failed) { throw ExitCode(1) }
    }
}
