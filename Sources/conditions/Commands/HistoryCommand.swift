import ArgumentParser
import ConditionsCore
import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging

/// `conditions history`: the changes `watch` and `serve` recorded, from the history store.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Print the changes watch and serve recorded for URNs.",
        discussion: """
        watch and serve record every observation in an SQLite store (default \
        $XDG_STATE_HOME/conditions/history.sqlite, i.e. ~/.local/state/conditions/history.sqlite; \
        "history": {"path", "retain"} in the config; or a PostgreSQL database, "history": {"url"} or \
        $CONDITIONS_HISTORY_URL); observations that are not news collapse \
        into one change with its first and last time seen. A one-shot report records with \
        --record. This prints the changes current at any time between --since (default 7d) and \
        --until (default now): durations back from now (90m, 36h, 7d) or ISO 8601 dates and \
        times (a date alone is midnight where the config's location is).

        Text is one line per change: when it was first seen (local time), the URN, its status, \
        and until when it was seen. json, ndjson and csv carry the full result of each change.

        \(HelpExamples.block([
            ("conditions history \(HelpExamples.urn(2))", "the last 7 days"),
            ("conditions history \(HelpExamples.urn(2)) \(HelpExamples.urn(0)) --since 30d", nil),
            ("conditions history \(HelpExamples.urn(2)) --since 2026-11-01 --until 2026-12-01 --format csv > november.csv", nil),
            ("conditions history \(HelpExamples.urn(2)) --since 180d --format ndjson | jq -r '.status'", nil),
            ("conditions history --vacuum", "prune past \"retain\", compact the file"),
        ]))

        Exit status 2 when the store cannot be read (corrupt, another program's, a newer \
        schema's, a database refusing the login): one line naming the file or the URL (without \
        its password).
        """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Start: a duration back from now (7d, 36h) or an ISO 8601 date or date-time (default 7d).", valueName: "when"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("End: as --since (default now).", valueName: "when"))
    var until: String?

    @Option(name: .long, help: "Output: text (one line per change), json (one array), ndjson (one change per line) or csv.")
    var format: OutputFormat = .text

    @Flag(name: .long, help: "Prune every change last seen longer ago than \"retain\" and compact the store, then exit.")
    var vacuum = false

    @Argument(help: ArgumentHelp("URNs as watch or serve saw them (\(HelpExamples.urn(2)), \(HelpExamples.urn(0))); \"-\" reads them from stdin.", valueName: "urn"))
    var urns: [String] = []

    func validate() throws {
        if vacuum, !urns.isEmpty || since != nil || until != nil {
            throw ValidationError("--vacuum takes no URN, --since or --until")
        }
        if !vacuum, urns.isEmpty { throw ValidationError("give at least one URN, e.g. conditions history \(HelpExamples.urn(2))") }
    }

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let configuration: Configuration
        do { configuration = try global.loadConfiguration() } catch { throw Failure.configuration(error) }
        let location = try HistoryOptions.location(configuration.history, environment: global.environment)
        let timeZone = configuration.place.timeZone ?? .current
        if vacuum { return try await Self.vacuum(location, retain: configuration.history.retain, logger: logger) }

        let asked = try ReportInput.urns(arguments: urns, configured: [])
        let window: HistoryWindow
        do { window = try HistoryWindow(since: since, until: until, now: Date(), timeZone: timeZone, names: ("--since", "--until")) } catch {
            throw Failure.usage(error.message)
        }
        let store: (any HistoryStoring)?
        do { store = try await location.openIfPresent(retain: configuration.history.retain, logger: logger) } catch {
            throw Failure.usage("history: \(error)")
        }
        var changes: [HistoryChange] = []
        if let store {
            do {
                for urn in asked { changes += try await store.changes(urn: urn, from: window.from, to: window.to).changes }
            } catch {
                await store.close()
                throw Failure.usage("history: \(error)")
            }
            await store.close()
        }
        let renderer = TextRenderer(catalog: global.catalog, style: .forStandardOutput(environment: global.environment), timeZone: timeZone,
                                    placeName: configuration.place.name)
        write(Self.render(changes, format: format, renderer: renderer, timeZone: timeZone), to: .standardOutput)
        if format == .text, changes.isEmpty {
            let period = "\(renderer.localTime(window.from, withDate: true)) and \(renderer.localTime(window.to, withDate: true))"
            write("conditions: no changes recorded between \(period)\(store == nil ? " (no history yet at \(location))" : "")\n", to: .standardError)
        }
    }

    static func vacuum(_ location: HistoryLocation, retain: Double, logger: Logger) async throws {
        let store: (any HistoryStoring)?
        do { store = try await location.openIfPresent(retain: retain, logger: logger) } catch {
            throw Failure.usage("history: \(error)")
        }
        guard let store else {
            write("conditions: no history yet at \(location)\n", to: .standardError)
            return
        }
        do {
            let (pruned, before, after) = try await store.vacuum()
            await store.close()
            write("\(location): pruned \(pruned) change\(pruned == 1 ? "" : "s") last seen over \(TextRenderer.age(retain)) ago; \(Self.bytes(before)) → \(Self.bytes(after))\n",
                  to: .standardOutput)
        } catch {
            await store.close()
            throw Failure.usage("history: \(error)")
        }
    }

    /// The changes in `format`; text as one line per change.
    static func render(_ changes: [HistoryChange], format: OutputFormat, renderer: TextRenderer, timeZone: TimeZone) -> String {
        switch format {
        case .json:
            // One change per line: the stored results are spliced in, not parsed and re-indented.
            return changes.isEmpty ? "[]\n" : "[\n" + changes.map(\.jsonText).joined(separator: ",\n") + "\n]\n"
        case .ndjson:
            return changes.map { $0.jsonText + "\n" }.joined()
        case .csv:
            let header = "urn,firstSeen,lastSeen,observations,status,result\r\n"
            return header + changes.map { change in
                [change.urn, Timestamp.string(from: change.firstSeen), Timestamp.string(from: change.lastSeen), String(change.observations),
                 change.status, change.resultText].map(CSVWriter.quote).joined(separator: ",") + "\r\n"
            }.joined()
        case .text:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return changes.map { line($0, renderer: renderer, calendar: calendar) + "\n" }.joined()
        }
    }

    /// `Sat Nov 21 06:30 PST  pass:stevens  closed  (seen until 09:10, 37 times)`.
    static func line(_ change: HistoryChange, renderer: TextRenderer, calendar: Calendar) -> String {
        let first = renderer.localTime(change.firstSeen, withDate: true)
        let sameDay = calendar.isDate(change.firstSeen, inSameDayAs: change.lastSeen)
        var text = "\(first)  \(change.urn)  \(TerminalText.sanitized(summary(change), oneLine: true))"
        if change.observations > 1 {
            text += "  (seen until \(renderer.localTime(change.lastSeen, withDate: !sameDay)), \(change.observations) times)"
        }
        return text
    }

    /// The status, or for a kind whose status says only "changed", the data in brief.
    static func summary(_ change: HistoryChange) -> String {
        guard change.status == "changed", let data = change.result["data"] else { return change.status }
        // Only a kind with no status of its own is parsed, to say its data in brief.
        let text = data.serialized()
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    static func bytes(_ count: Int64) -> String {
        count < 1 << 20 ? String(format: "%.1f KiB", Double(count) / 1024) : String(format: "%.1f MiB", Double(count) / 1_048_576)
    }
}
