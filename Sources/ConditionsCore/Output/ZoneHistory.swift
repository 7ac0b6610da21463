import Foundation

/// A time zone's local time at any instant, as the system's tz database records it: the TZif
/// file `/usr/share/zoneinfo/<identifier>` (RFC 8536; version 2+ for its 64-bit transitions
/// and the footer's rule for instants after the last one). Its abbreviations are the database's
/// own for every date it covers: "PDT" in Seattle in 1950, "CEST" in Berlin, "-03" in São Paulo.
/// Foundation on Linux has no such source: `TimeZone.abbreviation(for:)` answers "GMT-7" for
/// every date, and ICU's `zzz` gives "PDT" only from about 1970 and "GMT+1" for Berlin.
struct ZoneHistory: Sendable {
    /// The local time type in force over a span of instants.
    struct Period: Equatable, Sendable {
        /// Seconds east of UTC.
        let utcOffset: Int
        let abbreviation: String
    }

    /// Seconds since the epoch at which `periods[i]` starts; ascending.
    private let transitions: [Int64]
    private let periods: [Period]
    /// Before the first transition: the file's first local time type (RFC 8536 §3.2).
    private let initial: Period
    /// After the last transition (the file's footer), when it has one this reader understands.
    private let rule: PosixZoneRule?

    /// The system's tz database, where Debian's tzdata (and glibc) keeps it.
    static let systemDirectory = "/usr/share/zoneinfo"

    /// The zone's file, or nil when it is missing, unreadable, or not TZif version 2 or later.
    init?(identifier: String, directory: String = Self.systemDirectory) {
        // Identifiers come from TimeZone, but a path must never climb out of the directory.
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.split(separator: "/").contains("..") else { return nil }
        // A TZif file is a few KiB; anything far larger is not one.
        guard let handle = FileHandle(forReadingAtPath: directory + "/" + identifier) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
        self.init(tzif: [UInt8](data))
    }

    /// Parses TZif bytes; nil for anything malformed or older than version 2.
    init?(tzif bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        // The version-1 block (32-bit times) comes first; skip it to reach the 64-bit one.
        guard let v1 = reader.header(), v1.version >= 2, reader.skip(v1.bodySize(timeSize: 4)),
              let header = reader.header(), header.typeCount > 0 else { return nil }
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            guard let time = reader.int64(), time > transitions.last ?? .min else { return nil }
            transitions.append(time)
        }
        var typeIndices: [Int] = []
        typeIndices.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            guard let index = reader.uint8(), Int(index) < header.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var types: [(utcOffset: Int, abbreviationIndex: Int)] = []
        for _ in 0..<header.typeCount {
            guard let utcOffset = reader.int32(), reader.skip(1), let index = reader.uint8(), Int(index) < header.charCount else { return nil }
            types.append((Int(utcOffset), Int(index)))
        }
        guard let characters = reader.take(header.charCount) else { return nil }
        let typePeriods = types.map { type in
            Period(utcOffset: type.utcOffset,
                   abbreviation: String(decoding: characters.dropFirst(type.abbreviationIndex).prefix { $0 != 0 }, as: UTF8.self))
        }
        // Then leap seconds and indicators this reader has no use for, and the footer:
        // "\n" TZ string "\n", the string empty when the last period lasts for ever.
        guard reader.skip(header.leapCount * 12 + header.isStandardCount + header.isUTCCount),
              reader.uint8() == UInt8(ascii: "\n"), let footer = reader.line() else { return nil }
        self.transitions = transitions
        periods = typeIndices.map { typePeriods[$0] }
        initial = typePeriods[0]
        // A rule this reader cannot read leaves the last period in force, as an empty one does.
        rule = footer.isEmpty ? nil : PosixZoneRule(footer)
    }

    /// The period in force at `seconds` since the epoch.
    func period(at seconds: Int64) -> Period {
        guard let first = transitions.first, let last = transitions.last else { return rule?.period(at: seconds) ?? initial }
        if seconds < first { return initial }
        if seconds > last, let rule { return rule.period(at: seconds) }
        // The last transition at or before `seconds`.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return periods[low]
    }

    /// Big-endian reads over the file's bytes; every read checks the length first.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        struct Header {
            let version: Int
            let isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int

            func bodySize(timeSize: Int) -> Int {
                timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                    + isStandardCount + isUTCCount
            }
        }

        mutating func header() -> Header? {
            guard let magic = take(4), magic.elementsEqual("TZif".utf8), let version = uint8(), skip(15) else { return nil }
            var counts: [Int] = []
            for _ in 0..<6 {
                // RFC 8536's limits are far below this; the cap keeps the size arithmetic small.
                guard let count = int32(), (0...100_000).contains(count) else { return nil }
                counts.append(Int(count))
            }
            let number = version == 0 ? 1 : Int(version) - Int(UInt8(ascii: "0"))
            return Header(version: number, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                          timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - position else { return nil }
            defer { position += count }
            return bytes[position..<position + count]
        }

        mutating func skip(_ count: Int) -> Bool { take(count) != nil }

        mutating func uint8() -> UInt8? { take(1)?.first }

        /// The bytes up to the next newline, which is consumed; nil when there is none.
        mutating func line() -> ArraySlice<UInt8>? {
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            defer { position = end + 1 }
            return bytes[position..<end]
        }

        mutating func int32() -> Int32? {
            guard let slice = take(4) else { return nil }
            return Int32(bitPattern: slice.reduce(0) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() -> Int64? {
            guard let slice = take(8) else { return nil }
            return Int64(bitPattern: slice.reduce(0) { $0 << 8 | UInt64($1) })
        }
    }
}
