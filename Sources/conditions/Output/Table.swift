/// A plain left-aligned text table for `routes` and `sources`.
struct Table {
    let headers: [String]
    let rows: [[String]]

    func rendered(indent: Int = 0) -> String {
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
