import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process groups of the programs running now, for an interrupted host that must not leave
/// one behind when it exits (`SupervisedProcess.terminateAll`).
final class ProcessGroups: Sendable {
    private let groups = Mutex<Set<pid_t>>([])

    init() {}

    func insert(_ pgid: pid_t) { _ = groups.withLock { $0.insert(pgid) } }
    func remove(_ pgid: pid_t) { _ = groups.withLock { $0.remove(pgid) } }

    /// `signal` to every running program's group.
    func signalAll(_ signal: Int32) {
        groups.withLock { groups in
            for pgid in groups { _ = kill(-pgid, signal) }
        }
    }
}
