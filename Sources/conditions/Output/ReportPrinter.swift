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
        case .text:
            let renderer = TextRenderer(style: style, timeZone: place.timeZone ?? .current, placeName: place.name)
            var out = ""
            for record in records {
                switch record.outcome {
                case .success(_, _, _, let data):
                    out += renderer.render(urn: record.urn, data: data).joined(separator: "\n") + "\n"
                case .failure(let kind, let message, _):
                    // Flush what came before so stdout and stderr interleave in the order asked.
                    write(out, to: .standardOutput)
                    out = ""
                    write("conditions: \(record.urn): \(kind): \(message)\n", to: .standardError)
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
