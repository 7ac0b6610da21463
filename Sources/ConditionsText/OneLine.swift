extension String {
    /// This text on one line, as messages and labels quote upstream text: control and format
    /// characters and every run of white space (line breaks, non-breaking and zero-width spaces
    /// among them) as one space, trimmed; cut after `limit` Unicode scalars with "…" when more
    /// follows.
    public func oneLine(limit: Int = .max) -> String {
        var out = String.UnicodeScalarView()
        var count = 0
        var space = false
        for scalar in unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .control || category == .format || scalar == "\u{2028}" || scalar == "\u{2029}" {
                space = !out.isEmpty
                continue
            }
            for next in space ? [" ", scalar] : [scalar] {
                if count >= limit { return String(out) + "…" }
                out.append(next)
                count += 1
            }
            space = false
        }
        return String(out)
    }
}
