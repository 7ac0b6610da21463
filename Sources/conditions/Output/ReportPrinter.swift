import ConditionsKit
import Foundation

/// Prints records in the chosen format: results to stdout; in text mode failures go to stderr,
/// one line each, while JSON formats keep them in the stream as error objects.
struct ReportPrinter {
    let format: OutputFormat
    let style: Style
    let place: Place

    func print(_ records: [ResultRecord]) {
        switch format {
        case .json:
            write(JSONValue.array(records.map(\.json)).serialized(pretty: true) + "\n", to: .standardOutput)
        case .ndjson:
            write(records.map { $0.json.serialized() + "\n" }.joined(), to: .standardOutput)
        case .csv:
            write(CSVWriter.render(records), to: .standardOutput)
        case .text:
            let renderer = TextRenderer(style: style, timeZone: place.timeZone ?? .current, placeName: place.name)
            var out = ""
            for record in records {
                switch record.outcome {
                case .success(_, _, let fetchedAt, let data, let staleAge):
                    var lines = renderer.render(urn: record.urn, data: TerminalText.sanitized(data))
                    if let staleAge {
                        lines.append("  " + style.yellow("⚠ stale: upstream failed; showing the result fetched \(renderer.localTime(fetchedAt, withDate: true)) (\(TextRenderer.age(staleAge)) ago)"))
                    }
                    out += lines.joined(separator: "\n") + "\n"
                case .failure(let kind, let message, _):
                    // Flush what came before so stdout and stderr interleave in the order asked.
                    write(out, to: .standardOutput)
                    out = ""
                    let line = TerminalText.sanitized("conditions: \(record.urn): \(kind): \(message)", oneLine: true)
                    write(line + "\n", to: .standardError)
                }
            }
            write(out, to: .standardOutput)
        }
    }
}

func write(_ text: String, to handle: FileHandle) {
    guard !text.isEmpty else { return }
    handle.write(Data(text.utf8))
}
