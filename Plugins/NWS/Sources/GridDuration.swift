/// The ISO 8601 durations of NWS's grid intervals (`PT3H`, `P1DT6H`, `P7DT14H`), in seconds.
///
/// Only fixed-length designators are read (weeks, days, hours, minutes, whole seconds): a
/// year or month has no length in seconds without a calendar, and NWS's grids never use them.
/// Anything else, a zero length, or one beyond `maximum` is nil, so a hostile body cannot ask
/// for a loop of any length.
enum GridDuration {
    /// Longer than any grid NWS serves (about a week), with room to spare.
    static let maximum = 366 * 86_400

    /// `text` in seconds, or nil when it is not such a duration.
    static func seconds(_ text: Substring) -> Int? {
        var rest = text.utf8[...]
        guard rest.first == UInt8(ascii: "P") else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var inTime = false
        var read = false
        var lastRank = -1
        while let first = rest.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                // `T` must be followed by a time part.
                guard !rest.isEmpty else { return nil }
                continue
            }
            let digits = rest.prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty, digits.count <= 7 else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let designator = rest.first else { return nil }
            rest = rest.dropFirst()
            let number = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            // Designators in ISO's order, each once: W D (date part), H M S (time part).
            let rank: Int, unit: Int
            switch (inTime, designator) {
            case (false, UInt8(ascii: "W")): (rank, unit) = (0, 604_800)
            case (false, UInt8(ascii: "D")): (rank, unit) = (1, 86_400)
            case (true, UInt8(ascii: "H")): (rank, unit) = (2, 3_600)
            case (true, UInt8(ascii: "M")): (rank, unit) = (3, 60)
            case (true, UInt8(ascii: "S")): (rank, unit) = (4, 1)
            default: return nil
            }
            guard rank > lastRank else { return nil }
            lastRank = rank
            total += number * unit
            guard total <= maximum else { return nil }
            read = true
        }
        return read && total > 0 ? total : nil
    }
}
