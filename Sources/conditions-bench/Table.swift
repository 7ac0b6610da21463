/// The results as an aligned text table.
enum Table {
    static func render(_ figures: [Figure]) -> String {
        let header = ["#", "figure", "measured", "target", "result"]
        let rows = figures.map { figure in
            [String(figure.scenario), figure.name, figure.text, figure.target,
             figure.passed.map { $0 ? "PASS" : "FAIL" } ?? ""]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
                .replacing(/\s+$/, with: "")
        }
        let missed = figures.filter { $0.passed == false }.count
        let summary = missed == 0 ? "all targets met" : "\(missed) target\(missed == 1 ? "" : "s") missed"
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line) + ["", summary])
            .joined(separator: "\n")
    }
}
