import ArgumentParser
import ConditionsCore
import ConditionsKit

/// `conditions routes`: the routing table, pattern → instance → module.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the routing table: each URN pattern, the source instance and module answering it.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Output format: text, json, ndjson or csv (examples separated by spaces).")
    var format: OutputFormat = .text

    func run() throws {
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: LogSetup.makeLogger(level: global.logLevel)) } catch { throw Failure.configuration(error) }
        let rows = runtime.router.routes.map { route in
            (pattern: route.pattern.text, instance: route.handler.id, module: route.handler.module,
             examples: route.examples)
        }
        switch format {
        case .text:
            let table = Table(headers: ["PATTERN", "SOURCE", "MODULE", "EXAMPLES"],
                              rows: rows.map { [$0.pattern, $0.instance, $0.module, Self.abbreviate($0.examples)] })
            write(table.rendered(), to: .standardOutput)
        case .csv:
            let lines = [["pattern", "source", "module", "examples"]] + rows.map { [$0.pattern, $0.instance, $0.module, $0.examples.joined(separator: " ")] }
            write(lines.map { $0.map(CSVWriter.quote).joined(separator: ",") + "\r\n" }.joined(), to: .standardOutput)
        case .json, .ndjson:
            let values = rows.map { row -> JSONValue in
                ["pattern": .string(row.pattern), "source": .string(row.instance), "module": .string(row.module),
                 "examples": .array(row.examples.map(JSONValue.string))]
            }
            write((format == .json ? JSONValue.array(values).serialized(pretty: true) + "\n" : values.map { $0.serialized() + "\n" }.joined()), to: .standardOutput)
        }
    }

    static func abbreviate(_ examples: [String]) -> String {
        examples.count <= 3 ? examples.joined(separator: " ") : examples.prefix(3).joined(separator: " ") + " …(\(examples.count - 3) more)"
    }
}
