import Foundation
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// An unlinked temporary file holding some bytes, positioned at its start: a child's stdin.
/// Readable at any size without anyone writing to a pipe, and gone with its last descriptor.
enum UnlinkedFile {
    static func holding(_ bytes: Data) throws -> FileDescriptor {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/conditions-stdin-XXXXXX".utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let fd = FileDescriptor(rawValue: raw)
        do {
            // Not left behind even if the host dies before the program runs; mkstemp made it
            // 0600, so what it holds is not readable by others meanwhile either.
            guard unlink(template.withUnsafeBufferPointer { $0.baseAddress! }) == 0 else { throw Errno(rawValue: errno) }
            // Only the program (through its stdin, duplicated at spawn) may inherit it, not a
            // program another thread is starting at the same moment.
            guard fcntl(raw, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno(rawValue: errno) }
            if !bytes.isEmpty {
                _ = try fd.writeAll(bytes)
                _ = try fd.seek(offset: 0, from: .start)
            }
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }
}
