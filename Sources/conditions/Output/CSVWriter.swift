import ConditionsKit

/// `--format csv`: one row per result. Fixed columns first (`urn`, `ok`, `route`, `source`,
/// `fetchedAt`, `stale`, `age`, `error.kind`, `error.message`), then every `data` field
/// flattened to a dotted path (`data.restrictions.0.direction`), in first-seen order.
enum CSVWriter {
    static let fixedColumns = ["urn", "ok", "route", "source", "fetchedAt", "stale", "age", "error.kind", "error.message"]

    static func render(_ records: [ResultRecord]) -> String {
        var dataColumns: [String] = []
        var seen = Set<String>()
        var rows: [[String: String]] = []
        for record in records {
            var row: [String: String] = ["urn": record.urn]
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
                    if seen.insert(path).inserted { dataColumns.append(path) }
                }
            case .failure(let kind, let message, _):
                row["ok"] = "false"
                row["error.kind"] = kind
                row["error.message"] = message
            }
            rows.append(row)
        }
        let columns = fixedColumns + dataColumns
        var out = columns.map(quote).joined(separator: ",") + "\r\n"
        for row in rows {
            out += columns.map { quote(row[$0] ?? "") }.joined(separator: ",") + "\r\n"
        }
        return out
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
    static func quote(_ cell: String) -> String {
        var cell = cell
        if let first = cell.first, "=+-@".contains(first), Double(cell) == nil { cell = "'" + cell }
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
