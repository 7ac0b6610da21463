#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An exclusive `flock` on the store's folder, held while a connection sets the store up
/// (WAL mode, the schema): connections opening one store at once, in this process or others,
/// take turns there. Two converting a new file to WAL at once is not safe to leave to SQLite:
/// it answers one of them SQLITE_BUSY without calling its busy handler (waiting could
/// deadlock), and retrying until the busy timeout still lost under load (issue 46's loaded
/// runs). Once set up, a store's writers share it as SQLite intends.
///
/// The folder, not the database file: closing any descriptor of the database file would drop
/// SQLite's own POSIX locks on it for every connection of the process. Acquired on the store's
/// own thread, never one of the cooperative pool: it waits in short sleeps until `timeout`.
struct StoreOpeningLock: Sendable {
    private let descriptor: Int32

    /// Locks `folder`; nil when the file system cannot lock it (the store opens without taking
    /// turns, as before). Throws `busy` when another holds it for longer than `timeout` seconds.
    static func acquire(_ folder: URL, file: URL, timeout: Double) throws(HistoryError) -> StoreOpeningLock? {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1_000
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR else {
                close(descriptor)
                return nil
            }
            guard Date() < deadline else {
                close(descriptor)
                throw HistoryError(file: file, kind: .busy, reason: "another process has been setting the store up for more than \(Int(timeout)) s")
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        return StoreOpeningLock(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Lets the next connection set the store up; call once.
    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
