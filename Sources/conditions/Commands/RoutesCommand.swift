import ArgumentParser
import ConditionsCore
import ConditionsJSON
import ConditionsKit

/// `conditions routes`: the routing table, pattern → instances (in the order tried) → modules.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the routing table: each URN pattern, the source instances and modules answering it.",
        discussion: """
            A route listing several instances ("routes": {"pass": ["wsdot-feed", "wsdot-page"]}) is \
            tried in that order: the next instance answers when the one before fails upstream \
            (HTTP error, timeout, network, bad response). SOURCE shows the order: \
            wsdot-feed → wsdot-page. JSON lists it as "chain": [{"source", "module"}, …], with \
            "source" and "module" naming the first.

            Examples:
              conditions routes
              conditions routes --profile offline
              conditions routes --format json | jq -c '.[] | {pattern, chain}'
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Output format: text, json, ndjson or csv (csv: examples, and the sources of a chain, separated by spaces).")
    var format: OutputFormat = .text

    func run() throws {
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: LogSetup.makeLogger(level: global.logLevel)) } catch { throw Failure.configuration(error) }
        let routes = runtime.router.routes
        switch format {
        case .text:
            let table = Table(headers: ["PATTERN", "SOURCE", "MODULE", "EXAMPLES"],
                              rows: routes.map { [$0.pattern.text, $0.handler.sourcesText, $0.handler.modulesText, Self.abbreviate($0.examples)] })
            write(table.rendered(), to: .standardOutput)
        case .csv:
            // One instance per source/module field, space-separated in the order tried, like the examples.
            let lines = [["pattern", "source", "module", "examples"]] + routes.map { route in
                [route.pattern.text, route.handler.all.flatMap(\.links).map(\.instance.id).joined(separator: " "),
                 route.handler.all.flatMap(\.links).map(\.instance.module).joined(separator: " "), route.examples.joined(separator: " ")]
            }
            write(lines.map { $0.map(CSVWriter.quote).joined(separator: ",") + "\r\n" }.joined(), to: .standardOutput)
        case .json, .ndjson:
            let values = routes.map(\.json)
            write((format == .json ? JSONValue.array(values).serialized(pretty: true) + "\n" : values.map { $0.serialized() + "\n" }.joined()), to: .standardOutput)
        }
    }

    static func abbreviate(_ examples: [String]) -> String {
        examples.count <= 3 ? examples.joined(separator: " ") : examples.prefix(3).joined(separator: " ") + " …(\(examples.count - 3) more)"
    }
}
