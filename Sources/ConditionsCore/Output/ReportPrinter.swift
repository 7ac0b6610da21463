import ConditionsJSON
import ConditionsKit
import Foundation

/// Prints records in the chosen format as they arrive (in the order asked), so a long report's
/// memory is bounded by what is in flight, not by its length. Results go to stdout; in text
/// mode failures go to stderr, one line each, while the other formats keep them in the stream
/// as error objects or rows.
package struct ReportPrinter {
    let format: OutputFormat
    let style: TextStyle
    let place: Place
    private let renderer: TextRenderer
    private var printed = 0
    private var csv = CSVWriter.Stream()

    /// A printer of `format`, styled by `style`, local times in `place`'s zone, results read
    /// through `catalog`'s presentations.
    package init(format: OutputFormat, style: TextStyle, place: Place, catalog: SourceCatalog) {
        self.format = format
        self.style = style
        self.place = place
        renderer = TextRenderer(catalog: catalog, style: style, timeZone: place.timeZone ?? .current, placeName: place.name)
    }

    /// Prints one record; call in the order the records were asked for. A URN several chains
    /// answered prints each chain's answer as a result of its own, in order.
    package mutating func print(_ record: ResultRecord) {
        guard record.joined.isEmpty else {
            for answer in record.answers { print(answer) }
            return
        }
        defer { printed += 1 }
        switch format {
        case .json:
            // The same bytes as the whole array pretty-printed: elements indented one level.
            let element = record.json.serialized(pretty: true).replacingOccurrences(of: "\n", with: "\n  ")
            write((printed == 0 ? "[\n  " : ",\n  ") + element, to: .standardOutput)
        case .ndjson:
            write(record.json.serialized() + "\n", to: .standardOutput)
        case .csv:
            write(csv.add(record), to: .standardOutput)
        case .text:
            switch record.outcome {
            case .success(_, _, let fetchedAt, let data, let staleAge):
                var lines = renderer.render(urn: record.urn, data: TerminalText.sanitized(data), kind: record.kind)
                if let staleAge {
                    lines.append("  " + style.yellow("⚠ stale: upstream failed; showing the result fetched \(renderer.localTime(fetchedAt, withDate: true)) (\(TextRenderer.age(staleAge)) ago)"))
                }
                write(lines.joined(separator: "\n") + "\n", to: .standardOutput)
            case .failure(let kind, let message, _):
                let line = TerminalText.sanitized("conditions: \(record.urn): \(kind.rawValue): \(message)", oneLine: true)
                write(line + "\n", to: .standardError)
            }
        }
    }

    /// Prints what closes the output (the JSON array's bracket, CSV rows still held back).
    package mutating func finish() {
        switch format {
        case .json: write(printed == 0 ? "[]\n" : "\n]\n", to: .standardOutput)
        case .csv: write(csv.finish(), to: .standardOutput)
        default: break
        }
    }
}
