import ConditionsJSON
import Foundation
import NIOPosix
import Synchronization

/// Observations the store could not take yet (PostgreSQL restarting, an SQLite file held past
/// the busy timeout), kept in a file in the state folder until it can, then written in the
/// order they were seen.
///
/// Each process appends to a file of its own, `history-spool.<pid>.ndjson`, holding an
/// exclusive `flock` on it for as long as it lives; every append is flushed to disk
/// (`fsync`) before `append` returns, so a process killed with SIGKILL loses nothing it
/// spooled. A spool whose lock can be taken belongs to a process that is gone: the next
/// drain of any process on the machine adopts it, so the changes a killed replica saw reach
/// the store too. A line cut short by a kill mid-append is skipped and counted.
package final class HistorySpool: Sendable {
    /// The folder holding the spool files (the state folder).
    package let folder: URL
    /// This process's spool file.
    package let file: URL
    /// The open, locked spool file; -1 until the first append.
    private let descriptor = Mutex<Int32>(-1)
    /// Observations appended and not yet drained (this process's file only; orphans are
    /// found on each drain): lets `isEmpty` answer without touching the disk.
    private let pendingCount = Mutex(0)
    /// One drain at a time: two would write the same lines twice.
    private let draining = Mutex(false)

    package static let filePrefix = "history-spool."
    package static let fileSuffix = ".ndjson"

    /// A spool in `folder`, this process's file named by its pid. Creates nothing until the
    /// first append. (A spool left by an earlier process with the same pid is taken over.)
    package init(folder: URL, processID: Int32 = getpid()) {
        self.folder = folder
        file = folder.appendingPathComponent("\(Self.filePrefix)\(processID)\(Self.fileSuffix)")
    }

    /// Whether this process has spooled observations not yet drained.
    package var isEmpty: Bool { pendingCount.withLock { $0 == 0 } }

    /// Appends `observations` and flushes them to disk before returning.
    package func append(_ observations: [HistoryObservation]) async throws {
        guard !observations.isEmpty else { return }
        var text = ""
        for observation in observations { text += Self.line(observation) + "\n" }
        let bytes = Array(text.utf8)
        try await NIOThreadPool.singleton.runIfActive { [self] in
            try descriptor.withLock { descriptor in
                if descriptor < 0 { descriptor = try openLocked(file.path) }
                try Self.writeAll(bytes, to: descriptor, file: file)
                guard fsync(descriptor) == 0 else { throw SpoolError(file: file, reason: "cannot flush to disk: \(Self.errnoText())") }
            }
        }
        pendingCount.withLock { $0 += observations.count }
    }

    /// Writes every spooled observation, this process's and those of processes that are gone,
    /// oldest first, through `write` (in chunks), then empties the spools it wrote. Returns
    /// how many it wrote and how many torn lines it skipped; throws what `write` threw, leaving
    /// every spool as it was (a later drain writes them again; the store collapses what it has
    /// already seen).
    @discardableResult
    package func drain(into write: ([HistoryObservation]) async throws -> Void) async throws -> (written: Int, torn: Int) {
        guard draining.withLock({ busy in defer { busy = true }; return !busy }) else { return (0, 0) }
        defer { draining.withLock { $0 = false } }
        let (own, orphans) = try await NIOThreadPool.singleton.runIfActive { [self] in try readAll() }
        defer { for orphan in orphans { close(orphan.descriptor) } }
        var observations = own.contents.observations
        var torn = own.contents.torn
        for orphan in orphans {
            observations += orphan.contents.observations
            torn += orphan.contents.torn
        }
        guard !observations.isEmpty || torn > 0 || !orphans.isEmpty else { return (0, 0) }
        // Stable: what one process saw at one instant keeps its order.
        let ordered = observations.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var start = 0
        while start < ordered.count {
            let end = min(start + HistoryStore.observationsPerStatement, ordered.count)
            try await write(Array(ordered[start..<end]))
            start = end
        }
        try await NIOThreadPool.singleton.runIfActive { [self] in
            try descriptor.withLock { descriptor in
                if descriptor >= 0, own.consumed > 0 { descriptor = try dropPrefix(own.consumed, of: descriptor) }
            }
            // Unlinked while still locked, so no other process adopts it in between.
            for orphan in orphans { unlink(orphan.file.path) }
        }
        pendingCount.withLock { $0 = max(0, $0 - own.contents.observations.count) }
        return (ordered.count, torn)
    }

    // MARK: Files

    private struct Contents {
        var observations: [HistoryObservation] = []
        var torn = 0
    }

    private struct Own {
        var contents = Contents()
        /// Bytes read, up to the last complete line: what a drain may drop.
        var consumed: Int = 0
    }

    private struct Orphan {
        let file: URL
        let descriptor: Int32
        let contents: Contents
    }

    /// `path` opened for appending and locked; a line a killed process left unfinished at its
    /// end is ended first, so the next append starts a line of its own.
    private func openLocked(_ path: String) throws -> Int32 {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SpoolError(file: file, reason: "cannot create its folder: \((error as NSError).localizedDescription)")
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SpoolError(file: file, reason: "cannot open: \(Self.errnoText())") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = Self.errnoText()
            close(descriptor)
            throw SpoolError(file: file, reason: "cannot lock: \(reason)")
        }
        var last: UInt8 = 0
        let size = lseek(descriptor, 0, SEEK_END)
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
            try Self.writeAll([UInt8(ascii: "\n")], to: descriptor, file: file)
        }
        return descriptor
    }

    /// Drops the first `count` bytes (lines a drain wrote) of the locked spool `descriptor`
    /// refers to, keeping what was appended since: emptied in place when nothing was, else the
    /// rest copied to a new file that is locked, flushed, then renamed over the spool, so a
    /// kill at any point leaves either the old spool or the new one, never neither. Returns
    /// the descriptor to append to from now on.
    private func dropPrefix(_ count: Int, of descriptor: Int32) throws -> Int32 {
        let size = Int(lseek(descriptor, 0, SEEK_END))
        guard size > count else {
            guard ftruncate(descriptor, 0) == 0 else { throw SpoolError(file: file, reason: "cannot empty: \(Self.errnoText())") }
            return descriptor
        }
        var rest = [UInt8](repeating: 0, count: size - count)
        let read = rest.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(count)) }
        guard read == rest.count else { throw SpoolError(file: file, reason: "cannot read back: \(Self.errnoText())") }
        let next = file.path + ".next"
        unlink(next)
        let replacement = try openLocked(next)
        do {
            try Self.writeAll(rest, to: replacement, file: file)
            guard fsync(replacement) == 0, rename(next, file.path) == 0 else {
                throw SpoolError(file: file, reason: "cannot replace: \(Self.errnoText())")
            }
        } catch {
            close(replacement)
            unlink(next)
            throw error
        }
        close(descriptor)
        return replacement
    }

    /// This process's spool, and every other spool whose lock could be taken (kept locked
    /// until the drain ends).
    private func readAll() throws -> (Own, [Orphan]) {
        // Read under the lock appends take, so no line is read half-written.
        let own = try descriptor.withLock { descriptor -> Own in
            if descriptor < 0, FileManager.default.fileExists(atPath: file.path) { descriptor = try openLocked(file.path) }
            guard descriptor >= 0 else { return Own() }
            let size = Int(lseek(descriptor, 0, SEEK_END))
            var bytes = [UInt8](repeating: 0, count: size)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            guard read == size else { throw SpoolError(file: file, reason: "cannot read: \(Self.errnoText())") }
            let consumed = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            return Own(contents: Self.parse(Data(bytes[0..<consumed])), consumed: consumed)
        }
        var orphans: [Orphan] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where name.hasPrefix(Self.filePrefix) && name.hasSuffix(Self.fileSuffix) && name != file.lastPathComponent {
            let other = folder.appendingPathComponent(name)
            let descriptor = open(other.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)  // its process is alive and drains it itself
                continue
            }
            do {
                orphans.append(Orphan(file: other, descriptor: descriptor, contents: try Self.read(other)))
            } catch {
                close(descriptor)
                throw error
            }
        }
        return (own, orphans)
    }

    private static func read(_ file: URL) throws -> Contents {
        do { return parse(try Data(contentsOf: file)) } catch {
            throw SpoolError(file: file, reason: "cannot read: \((error as NSError).localizedDescription)")
        }
    }

    private static func parse(_ data: Data) -> Contents {
        var contents = Contents()
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The last piece follows the last newline: empty, or a line an append never finished.
        if let last = lines.popLast(), !last.isEmpty { contents.torn += 1 }
        for line in lines where !line.isEmpty {
            if let observation = observation(Data(line)) {
                contents.observations.append(observation)
            } else {
                contents.torn += 1
            }
        }
        return contents
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, file: URL) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SpoolError(file: file, reason: "cannot append: \(errnoText())")
            }
            offset += written
        }
    }

    // MARK: Lines

    /// `{"urn", "at" (ms), "status", "key" (hex), "result"}` on one line.
    static func line(_ observation: HistoryObservation) -> String {
        let object: JSONValue = [
            "urn": .string(observation.urn),
            "at": .int(Int((observation.at.timeIntervalSince1970 * 1000).rounded())),
            "status": .string(observation.status),
            "key": .string(observation.key.map { String(format: "%02x", $0) }.joined()),
            "result": observation.result,
        ]
        return object.serialized()
    }

    static func observation(_ line: Data) -> HistoryObservation? {
        guard let object = try? JSONValue.parse(line),
              let urn = object["urn"]?.stringValue, let at = object["at"]?.doubleValue,
              let status = object["status"]?.stringValue, let hex = object["key"]?.stringValue,
              let key = bytes(hex), let result = object["result"] else { return nil }
        return HistoryObservation(urn: urn, at: Date(timeIntervalSince1970: at / 1000), status: status, key: key, result: result)
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return bytes
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// A spool file that could not be opened, written, read or emptied; names the file.
package struct SpoolError: Error, Sendable, CustomStringConvertible {
    package let file: URL
    package let reason: String
    package var description: String { "\(file.path): \(reason)" }
}
