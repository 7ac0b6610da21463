import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process groups of the programs running now, for a signal handler that must not leave
/// one behind when the host exits (`watch` ends its hooks this way).
package final class ProcessGroups: Sendable {
    private let groups = Mutex<Set<pid_t>>([])

    package init() {}

    func insert(_ pgid: pid_t) { _ = groups.withLock { $0.insert(pgid) } }
    func remove(_ pgid: pid_t) { _ = groups.withLock { $0.remove(pgid) } }

    /// `signal` to every running program's group.
    package func signalAll(_ signal: Int32) {
        groups.withLock { groups in
            for pgid in groups { _ = kill(-pgid, signal) }
        }
    }
}
