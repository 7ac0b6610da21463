/// "Did you mean …?" candidates by edit distance, shared by the router and by sources that
/// reject an unknown name (a pass slug, say).
///
/// ```swift
/// Suggestions.closest(to: "snoqalmie", among: ["snoqualmie", "stevens"])  // ["snoqualmie"]
/// ```
public enum Suggestions {
    /// Text longer than this gets no suggestions: nobody mistypes a name that long, and edit
    /// distance grows with the product of the lengths (a 1 MB config key took seconds).
    public static let maximumLength = 256

    /// Up to `limit` candidates close to `text`, closest first: within an edit distance of
    /// about a third of the length, or sharing a prefix of three characters or more. Text over
    /// `maximumLength` characters gets none.
    public static func closest(to text: String, among candidates: [String], limit: Int = 3) -> [String] {
        guard text.count <= maximumLength else { return [] }
        let needle = Array(text.lowercased())
        let threshold = max(2, needle.count / 3)
        var seen = Set<String>()
        let scored = candidates.filter { seen.insert($0).inserted }.compactMap { candidate -> (String, Int)? in
            let hay = Array(candidate.lowercased())
            let distance = editDistance(needle, hay)
            let sharesPrefix = needle.count >= 3 && (hay.starts(with: needle.prefix(3)))
            guard distance <= threshold || sharesPrefix || hay.starts(with: needle) && !needle.isEmpty else { return nil }
            return (candidate, distance)
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    /// Levenshtein distance, with transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
