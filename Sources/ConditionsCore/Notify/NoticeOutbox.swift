import ConditionsJSON
import Foundation
import Synchronization

/// Where notices wait until their target answers 2xx: stored before the first attempt, so a
/// crash between sending and marking resends the notice (with the same id) on the next start.
/// The history store keeps it (`HistoryStore`); without history, memory does (`MemoryOutbox`),
/// and a restart loses what was pending.
package protocol NoticeOutbox: Sendable {
    /// Stores `deliveries`; a pending older one for the same URN and target is replaced. A
    /// delivery whose id is stored already is left as it is.
    func enqueue(_ deliveries: [NoticeDelivery]) async throws
    /// Claims up to `limit` pending deliveries due at `now` for `seconds`, as `claimant`:
    /// no other sender takes them until then.
    func claim(now: Date, limit: Int, for seconds: Double, claimant: String) async throws -> [NoticeDelivery]
    /// The target answered 2xx.
    func delivered(_ id: String, at: Date) async throws
    /// Try again at `at`, after `attempts` attempts.
    func retry(_ id: String, attempts: Int, at: Date) async throws
    /// Given up on (too old, refused).
    func drop(_ id: String) async throws
    /// The earliest instant a pending delivery is due, if any.
    func nextDue() async throws -> Date?
    /// Whether the outbox outlives the process.
    var isDurable: Bool { get }
    /// Releases the claims of `claimants` (senders that died mid-send), so their notices are
    /// sent again now rather than when the claims run out.
    func release(claimants: [String]) async throws
    /// Every claimant holding a pending notice.
    func claimants() async throws -> [String]
}

/// An outbox in memory: for `--no-history` (a restart loses what was pending).
package final class MemoryOutbox: NoticeOutbox {
    private struct Row {
        var delivery: NoticeDelivery
        var sent = false
        var claimedUntil: Date?
    }

    private let rows = Mutex<[String: Row]>([:])
    private let order = Mutex<[String]>([])

    package init() {}

    package var isDurable: Bool { false }

    package func enqueue(_ deliveries: [NoticeDelivery]) async throws {
        rows.withLock { rows in
            order.withLock { order in
                for delivery in deliveries where rows[delivery.id] == nil {
                    let stale = rows.filter { !$0.value.sent && $0.value.delivery.urn == delivery.urn && $0.value.delivery.target == delivery.target }.map(\.key)
                    for id in stale { rows[id] = nil }
                    order.removeAll { stale.contains($0) }
                    rows[delivery.id] = Row(delivery: delivery)
                    order.append(delivery.id)
                }
            }
        }
    }

    package func claim(now: Date, limit: Int, for seconds: Double, claimant: String) async throws -> [NoticeDelivery] {
        rows.withLock { rows in
            order.withLock { order in
                var claimed: [NoticeDelivery] = []
                for id in order where claimed.count < limit {
                    guard var row = rows[id], !row.sent, row.delivery.notBefore <= now, (row.claimedUntil ?? .distantPast) <= now else { continue }
                    row.claimedUntil = now.addingTimeInterval(seconds)
                    rows[id] = row
                    claimed.append(row.delivery)
                }
                return claimed
            }
        }
    }

    package func delivered(_ id: String, at: Date) async throws {
        rows.withLock { rows in rows[id]?.sent = true }
        order.withLock { $0.removeAll { $0 == id } }
        rows.withLock { rows in rows[id] = nil }
    }

    package func retry(_ id: String, attempts: Int, at: Date) async throws {
        rows.withLock { rows in
            rows[id]?.delivery.attempts = attempts
            rows[id]?.delivery.notBefore = at
            rows[id]?.claimedUntil = nil
        }
    }

    package func drop(_ id: String) async throws {
        rows.withLock { rows in rows[id] = nil }
        order.withLock { $0.removeAll { $0 == id } }
    }

    package func nextDue() async throws -> Date? {
        rows.withLock { rows in rows.values.filter { !$0.sent }.map { max($0.delivery.notBefore, $0.claimedUntil ?? .distantPast) }.min() }
    }

    /// Nothing outlives this process's memory.
    package func release(claimants: [String]) async throws {}
    package func claimants() async throws -> [String] { [] }
}

/// Who claims notices: `host/pid/nonce`, so a sender on the same host can tell a claim of a
/// process that no longer runs (killed mid-send) and release it at start.
package enum NoticeClaimant {
    /// This process's claimant name.
    package static let current = "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)/\(UUID().uuidString.prefix(8))"

    /// Whether `claimant` names a process of this host that is gone.
    package static func isDeadHere(_ claimant: String) -> Bool {
        let parts = claimant.split(separator: "/")
        guard parts.count == 3, parts[0] == ProcessInfo.processInfo.hostName, let pid = Int32(parts[1]), claimant != current else { return false }
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // A process killed but not yet reaped by its parent is a zombie: gone all the same.
        // (A PID reused by another program reads as alive: its claim then runs out instead.)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
