import Foundation
import Logging

/// The server's open-files limit.
package enum DescriptorLimit {
    /// Every connection is a descriptor, and the usual soft limit (1,024) would refuse the
    /// 1,025th idle event-stream client; the hard limit is what the administrator allows.
    package static func raise(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = limit.rlim_max
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("open files limit raised from \(before) to \(limit.rlim_max)")
        } else {
            logger.warning("cannot raise the open files limit from \(before): \(String(cString: strerror(errno)))")
        }
    }
}
