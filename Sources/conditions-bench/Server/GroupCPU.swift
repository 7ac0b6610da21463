import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time used so far by every process of a process group (user + system, from /proc):
/// the cost of a request in CPU, which a loaded machine disturbs far less than requests/s.
enum GroupCPU {
    static func seconds(group: pid_t) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var total = 0.0
        for entry in entries where entry.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state ppid pgrp … utime (12th) stime (13th).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, Int32(fields[2]) == group, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            total += (user + system) / ticks
        }
        return total
    }
}
