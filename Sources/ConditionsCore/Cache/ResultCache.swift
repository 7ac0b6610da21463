import ConditionsText
import ConditionsJSON
import ConditionsKit
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result cache (docs/caching.md): results on disk, one small JSON file per (source
/// instance, URN), so repeated reports from cron or a status bar cost no upstream requests
/// within a source's TTL, and an upstream outage can fall back to the last good answer.
///
/// Safe with many processes at once: entries are written to a temporary file and renamed
/// into place, so a reader sees a whole old entry or a whole new one; an unreadable entry is
/// treated as missing and overwritten. Nothing here is fatal: problems are logged as one
/// `cache: …` warning line each (once per process) and the report goes on without the cache.
package struct ResultCache: Sendable {
    /// One stored result.
    package struct Entry: Sendable {
        /// The URN as asked.
        package let urn: String
        /// The instance id that answered.
        package let source: String
        /// The route pattern matched.
        package let route: String
        /// When the source fetched the data.
        package let fetchedAt: Date
        /// The result data.
        package let data: JSONValue
        /// Stored so a cached answer reads through the same presentation as a fresh one.
        package var kind: ResultKind? = nil
        /// Seconds the result stays fresh by its own account (`SourceResult.ttl`); nil: the instance's TTL.
        package var ttl: Double? = nil
        /// The URNs a combined result was made from.
        package var inputs: [SourceResult.Input] = []
    }

    /// The cache folder (created 0700 on first write).
    package let directory: URL

    /// A cache in `directory`, created (0700) on first write.
    package init(directory: URL) { self.directory = directory }

    /// The largest entry read. Results are small JSON (a few KiB); anything bigger is damage
    /// or a planted file, and reading it whole could take seconds and gigabytes.
    static let maximumEntryBytes = 32 << 20

    /// Temporary files older than this are left over from a killed writer (a write takes
    /// milliseconds) and are removed.
    static let abandonedTemporaryAge: TimeInterval = 300

    /// `$XDG_CACHE_HOME/conditions`, default `~/.cache/conditions`.
    package static func defaultDirectory(environment: [String: String]) -> URL {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        return base.appendingPathComponent("conditions")
    }

    /// The file for a key. Keys are already hashes (`Resolver.cacheKey`); hashing again keeps
    /// the promise that no URN text or option value ever appears in a file name even if a
    /// caller passes something else.
    func file(for key: String) -> URL {
        directory.appendingPathComponent(String(CacheKey.digest(key).prefix(32)) + ".json")
    }

    /// The entry stored under `key`, or nil when there is none or it cannot be used. An entry
    /// over `maximumEntryBytes` is deleted unread.
    package func load(key: String, logger: Logger) -> Entry? {
        let url = file(for: key)
        // O_NONBLOCK: something planted at the entry's path (a FIFO) must not hang the report;
        // O_NOFOLLOW: a symlink there is not followed (the next store replaces it).
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size <= Self.maximumEntryBytes else {
            // Deleted, not just skipped, so every later report does not pay for it again.
            unlink(url.path)
            Self.warn("ignored and deleted \(url.path): \(size) bytes is over the \(Self.maximumEntryBytes)-byte limit for an entry", logger: logger)
            return nil
        }
        guard let data = Self.read(fd, size: size), let value = try? JSONValue.parse(data),
              value["key"]?.stringValue == key,
              let urn = value["urn"]?.stringValue, let source = value["source"]?.stringValue,
              let route = value["route"]?.stringValue,
              let fetchedAt = value["fetchedAt"]?.dateValue,
              let payload = value["data"]
        else { return nil }
        return Entry(urn: urn, source: source, route: route, fetchedAt: fetchedAt, data: payload,
                     kind: value["kind"]?.stringValue.map(ResultKind.init(rawValue:)),
                     ttl: value["ttl"]?.doubleValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
                     inputs: value["inputs"]?.arrayValue?.compactMap(ResultRecord.input) ?? [])
    }

    /// Reads up to `size` bytes; a file that grows meanwhile is cut at `size`, and one that
    /// shrinks yields what is there (the parse then decides).
    private static func read(_ fd: Int32, size: Int) -> Data? {
        var data = Data(count: size)
        var total = 0
        let ok = data.withUnsafeMutableBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            while total < size {
                let n = systemRead(fd, base + total, size - total)
                if n < 0 { if errno == EINTR { continue }; return false }
                if n == 0 { break }
                total += n
            }
            return true
        }
        guard ok else { return nil }
        if total < size { data.count = total }
        return data
    }

    /// Writes atomically with user-only permissions. Failures are logged, never fatal.
    package func store(key: String, entry: Entry, logger: Logger) {
        guard prepare(logger: logger) else { return }
        var record: JSONObject = [
            "version": 2, "key": .string(key), "urn": .string(entry.urn), "source": .string(entry.source),
            "route": .string(entry.route), "fetchedAt": JSONValue(entry.fetchedAt),
        ]
        // Optional, so entries written before kinds existed still load (as generic results).
        if let kind = entry.kind { record["kind"] = .string(kind.rawValue) }
        if let ttl = entry.ttl { record["ttl"] = JSONValue(ttl) }
        if !entry.inputs.isEmpty { record["inputs"] = .array(entry.inputs.map(ResultRecord.json)) }
        record["data"] = entry.data
        let target = file(for: key)
        let temporary = directory.appendingPathComponent(".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).json")
        let bytes = Data(JSONValue.object(record).serialized().utf8)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            Self.warn("cannot create \(temporary.path): \(Self.reason(errno))", logger: logger)
            return
        }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let n = systemWrite(fd, base + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += n
            }
        }
        close(fd)
        if failure == 0, rename(temporary.path, target.path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary.path)
            Self.warn("cannot write \(target.path): \(Self.reason(failure))", logger: logger)
        }
    }

    // MARK: The folder

    /// Folders this process has prepared, and whether that worked. The checks and the scan
    /// for abandoned temporary files run once per process and folder, not on every write: a
    /// 1,000-URN report writes 1,000 entries.
    private static let prepared = Mutex<[String: Bool]>([:])

    /// Creates the folder (0700) or tightens an existing one to 0700, and removes temporary
    /// files abandoned by killed writers. False when entries cannot be written there.
    private func prepare(logger: Logger) -> Bool {
        let path = directory.path
        if let known = Self.prepared.withLock({ $0[path] }) { return known }
        let ready = Self.prepareNow(path, logger: logger)
        // Concurrent first writes may both prepare; both outcomes are the same and warnings
        // are deduplicated, so there is no need to hold the lock across the file system work.
        Self.prepared.withLock { $0[path] = ready }
        return ready
    }

    private static func prepareNow(_ path: String, logger: Logger) -> Bool {
        if let failure = makeDirectory(path) {
            warn(failure, logger: logger)
            return false
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            warn("cannot use \(path): \(reason(errno))", logger: logger)
            return false
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            warn("cannot use \(path): not a folder", logger: logger)
            return false
        }
        let mode = info.st_mode & 0o7777
        if mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            // Entries are 0600 whatever the folder, so writing on is still safe; only their
            // names (hashes) stay visible to others.
            warn("cannot make \(path) private (mode \(String(mode, radix: 8)), wanted 700): \(reason(errno))", logger: logger)
        }
        removeAbandonedTemporaries(in: path)
        return true
    }

    /// `mkdir -p` with 0700 for every folder it creates; nil on success, else the warning.
    private static func makeDirectory(_ path: String) -> String? {
        if mkdir(path, 0o700) == 0 { return nil }
        let code = errno
        switch code {
        case EEXIST:
            return nil  // a file in the way is reported by the caller's stat
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            guard parent != path, !parent.isEmpty else { return "cannot create \(path): \(reason(code))" }
            if let failure = makeDirectory(parent) { return failure }
            if mkdir(path, 0o700) == 0 || errno == EEXIST { return nil }
            return "cannot create \(path): \(reason(errno))"
        default:
            return "cannot create \(path): \(reason(code))"
        }
    }

    /// Deletes `.tmp-*` files older than `abandonedTemporaryAge`: a writer killed between
    /// creating its temporary file and renaming it leaves one behind for ever otherwise.
    /// Younger ones may belong to a writer still at work and are kept.
    private static func removeAbandonedTemporaries(in path: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        let cutoff = Date().timeIntervalSince1970 - abandonedTemporaryAge
        for name in names where name.hasPrefix(".tmp-") {
            let file = path + "/" + name
            var info = stat()
            guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            #if canImport(Darwin)
            let modified = info.st_mtimespec.tv_sec
            #else
            let modified = info.st_mtim.tv_sec
            #endif
            guard Double(modified) < cutoff else { continue }
            unlink(file)
        }
    }

    // MARK: Warnings

    /// Warnings already printed, so a folder that cannot be written warns once, not once per URN.
    private static let warned = Mutex<Set<String>>([])

    /// Logs `cache: message` once per process.
    static func warn(_ message: String, logger: Logger) {
        guard warned.withLock({ $0.insert(message).inserted }) else { return }
        logger.warning("cache: \(message)")
    }

    /// strerror(3) text, for one-line messages ("Permission denied").
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

// The C calls under names that do not collide with `Data`/`FileHandle` members.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
