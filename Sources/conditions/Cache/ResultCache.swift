import ConditionsKit
import Foundation

/// Results on disk, one small JSON file per (source instance, URN), so repeated reports from
/// cron or a status bar cost no upstream requests within a source's time-to-live, and an
/// upstream outage can fall back to the last good answer.
///
/// Safe with many processes at once: entries are written to a temporary file and renamed
/// into place, so a reader sees a whole old entry or a whole new one; an unreadable entry is
/// treated as missing and overwritten.
struct ResultCache: Sendable {
    struct Entry: Sendable {
        let urn: String
        let source: String
        let route: String
        let fetchedAt: Date
        let data: JSONValue
    }

    let directory: URL

    /// `$XDG_CACHE_HOME/conditions`, default `~/.cache/conditions`.
    static func defaultDirectory(environment: [String: String]) -> URL {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("conditions")
    }

    /// The file name for a key: a hash, so no URN text or option value (secrets included)
    /// ever appears in a file name.
    func file(for key: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var hash2: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in key.utf8.reversed() { hash2 = (hash2 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return directory.appendingPathComponent(String(format: "%016llx%016llx.json", hash, hash2))
    }

    func load(key: String) -> Entry? {
        let url = file(for: key)
        guard let data = try? Data(contentsOf: url), let value = try? JSONValue.parse(data),
              value["key"]?.stringValue == key,
              let urn = value["urn"]?.stringValue, let source = value["source"]?.stringValue,
              let route = value["route"]?.stringValue,
              let fetchedAt = value["fetchedAt"]?.stringValue.flatMap({ Timestamp.parse($0) }),
              let payload = value["data"]
        else { return nil }
        return Entry(urn: urn, source: source, route: route, fetchedAt: fetchedAt, data: payload)
    }

    /// Writes atomically with user-only permissions; failures are reported, never fatal.
    func store(key: String, entry: Entry) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let record: JSONValue = [
            "version": 1, "key": .string(key), "urn": .string(entry.urn), "source": .string(entry.source),
            "route": .string(entry.route), "fetchedAt": JSONValue(entry.fetchedAt), "data": entry.data,
        ]
        let target = file(for: key)
        let temporary = directory.appendingPathComponent(".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).json")
        let bytes = Data(record.serialized().utf8)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CacheError("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while written < buffer.count {
                let n = Glibc.write(fd, base + written, buffer.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return true
        }
        close(fd)
        guard ok, rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CacheError("cannot write \(target.path): \(reason)")
        }
    }
}

struct CacheError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
