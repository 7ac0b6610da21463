import ConditionsText
import ConditionsJSON
import ConditionsKit

/// `--format csv`: one row per result. Fixed columns first (`urn`, `ok`, `route`, `source`,
/// `fetchedAt`, `stale`, `age`, `error.kind`, `error.message`), then every `data` field
/// flattened to a dotted path (`data.items.0.name`), in first-seen order; reports
/// longer than `Stream.headerWindow` rows end with `data.more`.
package enum CSVWriter {
    static let fixedColumns = ["urn", "ok", "route", "source", "fetchedAt", "stale", "age", "error.kind", "error.message"]
    /// The last column of a report longer than `Stream.headerWindow` rows: as a JSON object,
    /// the fields of a row that first appeared after the header was printed.
    static let moreColumn = "data.more"

    /// Rows as they arrive. A header must name every column before the first row, so rows are
    /// held back until `headerWindow` of them have been seen (or the report ends, which gives
    /// the exact header of a whole report); after that they print at once, and a field the
    /// header lacks goes into `data.more` rather than being dropped.
    struct Stream {
        /// Enough rows for every field a report's sources have in practice (a pass, the moon,
        /// phases, a failure), few enough that holding them costs a few MiB at most.
        static let headerWindow = 1000

        private var held: [[String: String]] = []
        private var dataColumns: [String] = []
        private var seen = Set<String>()
        /// The printed header's columns, once printed.
        private var header: [String]?

        /// The CSV text `record` adds now: nothing while rows are held, else rows (and the header).
        mutating func add(_ record: ResultRecord) -> String {
            var row: [String: String] = ["urn": record.urn]
            var paths: [String] = []
            switch record.outcome {
            case .success(let route, let source, let fetchedAt, let data, let staleAge):
                row["ok"] = "true"
                row["route"] = route
                row["source"] = source
                row["fetchedAt"] = Timestamp.string(from: fetchedAt)
                row["stale"] = staleAge == nil ? "false" : "true"
                row["age"] = staleAge.map { String(Int($0.rounded())) } ?? ""
                for (path, value) in flatten(data, prefix: "data") {
                    row[path] = value
                    paths.append(path)
                }
            case .failure(let kind, let message, _):
                row["ok"] = "false"
                row["error.kind"] = kind.rawValue
                row["error.message"] = message
            }
            if let header {
                let known = Set(header)
                var more = JSONObject()
                for path in paths where !known.contains(path) { more[path] = .string(row[path] ?? "") }
                if more.count > 0 { row[CSVWriter.moreColumn] = JSONValue.object(more).serialized() }
                return line(row, header)
            }
            for path in paths where seen.insert(path).inserted { dataColumns.append(path) }
            held.append(row)
            return held.count >= Self.headerWindow ? printHeld(withMore: true) : ""
        }

        /// What is still held when the report ends.
        mutating func finish() -> String {
            header == nil ? printHeld(withMore: false) : ""
        }

        private mutating func printHeld(withMore: Bool) -> String {
            let columns = CSVWriter.fixedColumns + dataColumns + (withMore ? [CSVWriter.moreColumn] : [])
            header = columns
            var out = columns.map(quote).joined(separator: ",") + "\r\n"
            for row in held { out += line(row, columns) }
            held = []
            return out
        }

        private func line(_ row: [String: String], _ columns: [String]) -> String {
            columns.map { quote(row[$0] ?? "") }.joined(separator: ",") + "\r\n"
        }
    }

    static func flatten(_ value: JSONValue, prefix: String) -> [(String, String)] {
        switch value {
        case .object(let object):
            return object.flatMap { flatten($1, prefix: "\(prefix).\($0)") }
        case .array(let elements):
            return elements.enumerated().flatMap { flatten($1, prefix: "\(prefix).\($0)") }
        case .null:
            return [(prefix, "")]
        case .string(let s):
            return [(prefix, s)]
        default:
            return [(prefix, value.serialized())]
        }
    }

    /// RFC 4180 quoting; cells a spreadsheet would run as a formula are prefixed with `'`.
    package static func quote(_ cell: String) -> String {
        var cell = cell
        if let first = cell.first, "=+-@".contains(first), Double(cell) == nil { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
