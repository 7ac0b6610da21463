/// How results are printed.
package enum OutputFormat: String, CaseIterable, Sendable {
    /// Aligned, readable text for people (colour only on a terminal).
    case text
    /// One JSON array of result objects.
    case json
    /// One result object per line.
    case ndjson
    /// One row per result, `data` flattened to dotted columns.
    case csv
}
