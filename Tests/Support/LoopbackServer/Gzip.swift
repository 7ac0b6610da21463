import Foundation

/// A minimal gzip encoder that stores the data in uncompressed deflate blocks.
///
/// Clients must still run a real gzip decoder to read it, which is what tests of
/// `Content-Encoding: gzip` handling need, without the server depending on zlib.
enum Gzip {
    static func encode(_ data: Data) -> Data {
        var output = Data([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isFinal = offset + length == bytes.count
            output.append(isFinal ? 0x01 : 0x00)
            output.append(contentsOf: littleEndian(UInt16(length)))
            output.append(contentsOf: littleEndian(~UInt16(length)))
            output.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
        } while offset < bytes.count
        output.append(contentsOf: littleEndian(crc32(bytes)))
        output.append(contentsOf: littleEndian(UInt32(truncatingIfNeeded: bytes.count)))
        return output
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
