/// The rows of the series tables in Resources/ (moon-elpmpp02.txt, sun-vsop87d.txt,
/// delta-t.txt): lines of words separated by spaces, `#` starting a comment line. The program
/// reads them compiled in (`SeriesTables`); the tests read the text, to check that.
///
/// Read as bytes rather than as `String` lines and fields: splitting a `String` walks it
/// Character by Character, which made reading the ~500 lunar terms 6 % of a local answer's
/// CPU (`moon:now phases:5`, scenario 1, issue 45; docs/performance.md). A row's words stay
/// small strings (no allocation), and `Double(_:)` reads each as before.
struct SeriesText {
    /// One row: its first word when that is not a number (a section's header, `main`,
    /// `pert`, `L`, `R`), then the numbers of the row in order. A word that is neither ends
    /// the numbers of its row.
    struct Row: Equatable {
        var label: String?
        var numbers: [Double]
    }

    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func rows() -> [Row] {
        var rows: [Row] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            var row = Row(label: nil, numbers: [])
            for (index, word) in line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }).enumerated() {
                let text = String(decoding: word, as: UTF8.self)
                if let number = Double(text) {
                    row.numbers.append(number)
                } else if index == 0 {
                    row.label = text
                } else {
                    break
                }
            }
            rows.append(row)
        }
        return rows
    }
}
