import Foundation

/// A time zone's transitions as the system's tzdata stores them (RFC 8536 TZif, version 2+
/// 64-bit section), read from `/usr/share/zoneinfo/<identifier>`. It answers a UTC offset and
/// abbreviation for instants from the first listed transition on, up to the last one — or
/// for ever after it when the file's footer rule has no daylight saving time (Asia/Kolkata,
/// UTC). Daylight-saving rules are not evaluated: later instants (past 2037 in the "fat"
/// files Debian ships) get nil and callers use Foundation instead.
struct ZoneInfo {
    /// The local time type in force from a transition on.
    struct Period: Equatable {
        let utcOffset: Int
        let isDaylight: Bool
        let abbreviation: String
    }

    private let transitions: [Int64]
    private let periods: [Period]
    /// The period for ever after the last transition, when the footer says nothing changes.
    private let lastingPeriod: Period?

    /// The zone's file, or nil when it is missing, unreadable or not TZif version 2+.
    init?(identifier: String, directory: String = "/usr/share/zoneinfo") {
        // Identifiers come from TimeZone, but a path must never climb out of the directory.
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.split(separator: "/").contains("..") else { return nil }
        guard let data = FileManager.default.contents(atPath: directory + "/" + identifier) else { return nil }
        self.init(data: data)
    }

    /// Parses TZif bytes; nil for anything malformed.
    init?(data: Data) {
        let bytes = [UInt8](data)
        var reader = Reader(bytes: bytes)
        // The version-1 block (32-bit times) comes first; skip it to reach the 64-bit one.
        guard let v1 = reader.header(), v1.version >= 2, reader.skip(v1.bodySize(timeSize: 4)),
              let header = reader.header() else { return nil }
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            guard let time = reader.int64() else { return nil }
            transitions.append(time)
        }
        var indices: [Int] = []
        indices.reserveCapacity(header.timeCount)
        for _ in 0..<header.timeCount {
            guard let index = reader.uint8(), Int(index) < header.typeCount else { return nil }
            indices.append(Int(index))
        }
        var types: [(offset: Int, isDaylight: Bool, abbreviationIndex: Int)] = []
        for _ in 0..<header.typeCount {
            guard let offset = reader.int32(), let isDaylight = reader.uint8(), let index = reader.uint8(),
                  Int(index) < header.charCount else { return nil }
            types.append((Int(offset), isDaylight != 0, Int(index)))
        }
        guard let chars = reader.take(header.charCount).map(Array.init) else { return nil }
        func period(_ type: (offset: Int, isDaylight: Bool, abbreviationIndex: Int)) -> Period {
            Period(utcOffset: type.offset, isDaylight: type.isDaylight,
                   abbreviation: String(decoding: chars[type.abbreviationIndex...].prefix { $0 != 0 }, as: UTF8.self))
        }
        let typePeriods = types.map(period)
        self.transitions = transitions
        periods = indices.map { typePeriods[$0] }
        // The footer: a POSIX TZ string between newlines ("PST8PDT,M3.2.0,M11.1.0", "IST-5:30").
        // Without a comma there is no daylight rule, so the last period (or the only type) lasts.
        guard reader.skip(header.leapCount * 12 + header.isStandardCount + header.isUTCCount),
              reader.uint8() == UInt8(ascii: "\n"), let footer = reader.line(), !footer.isEmpty,
              !footer.contains(UInt8(ascii: ",")) else {
            lastingPeriod = nil
            return
        }
        let last = periods.last ?? (typePeriods.count == 1 ? typePeriods[0] : nil)
        lastingPeriod = last?.isDaylight == false ? last : nil
    }

    /// The period in force at `date`, or nil before the first transition or after the last
    /// one while daylight-saving rules may apply.
    func period(at date: Date) -> Period? {
        let time = date.timeIntervalSince1970.rounded(.down)
        guard time.isFinite else { return nil }
        guard let first = transitions.first, let last = transitions.last else { return lastingPeriod }
        if time >= Double(last) { return lastingPeriod }
        guard time >= Double(first) else { return nil }
        let seconds = Int64(time)
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
                guard let count = int32(), count >= 0 else { return nil }
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
