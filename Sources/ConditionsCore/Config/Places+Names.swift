import ConditionsKit

/// What the host accepts as a place's name in `sources.json` (`"places"`): its rule, not the
/// contract's, which only looks names up.
extension Places {
    /// Whether `name` is a valid place name: 1 to 64 ASCII letters, digits, `-`, `_` or `.`,
    /// starting with a letter or digit, so it reads as one URN segment as written.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64, isAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
