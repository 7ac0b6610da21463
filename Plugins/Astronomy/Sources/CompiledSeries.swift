/// A series table compiled into the program (`SeriesTables`, written by
/// scripts/series-swift.py from the text in Resources/): the rows `SeriesText` would read from
/// that text, with no text to read. Reading ELP/MPP02's 5,149 numbers as text was ~0.5 ms of
/// every local answer that needs the Moon (docs/performance.md, "Issue 45").
struct CompiledSeries: SeriesRows {
    /// Each row's label: 0 none, then `labelNames` in order.
    let labels: [UInt8]
    /// How many numbers each row has.
    let counts: [UInt8]
    /// The rows' numbers, one after another.
    let numbers: [Double]

    /// The labels the tables use, as scripts/series-swift.py numbers them from 1.
    static let labelNames = ["main", "pert", "L", "R"]

    /// The rows as `SeriesText` reads them, for `SeriesTablesTests` to compare.
    func rows() -> [SeriesText.Row] {
        var rows: [SeriesText.Row] = []
        rows.reserveCapacity(labels.count)
        var start = 0
        for (label, count) in zip(labels, counts) {
            let end = start + Int(count)
            rows.append(SeriesText.Row(label: label == 0 ? nil : Self.labelNames[Int(label) - 1], numbers: Array(numbers[start..<end])))
            start = end
        }
        return rows
    }

    /// The rows in order, each's numbers a slice of `numbers`: no row is made (the longitudes'
    /// series are built at the first phase asked for, on a local answer's path).
    func forEachRow(_ body: (_ label: String?, _ numbers: ArraySlice<Double>) -> Void) {
        var start = 0
        for (label, count) in zip(labels, counts) {
            let end = start + Int(count)
            body(label == 0 ? nil : Self.labelNames[Int(label) - 1], numbers[start..<end])
            start = end
        }
    }
}

/// Rows of a series table, from the compiled arrays or from the text.
protocol SeriesRows {
    func forEachRow(_ body: (_ label: String?, _ numbers: ArraySlice<Double>) -> Void)
}

extension SeriesText: SeriesRows {
    func forEachRow(_ body: (_ label: String?, _ numbers: ArraySlice<Double>) -> Void) {
        for row in rows() { body(row.label, row.numbers[...]) }
    }
}
