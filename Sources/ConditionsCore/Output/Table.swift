/// A plain left-aligned text table for `routes` and `sources`.
package struct Table {
    /// The column titles.
    package let headers: [String]
    /// The cells, row by row.
    package let rows: [[String]]

    /// A table of `rows` under `headers`.
    package init(headers: [String], rows: [[String]]) {
        self.headers = headers
        self.rows = rows
    }

    /// The table as aligned text, each line indented by `indent` spaces.
    package func rendered(indent: Int = 0) -> String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        let pad = String(repeating: " ", count: indent)
        return all.map { row in
            pad + row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
