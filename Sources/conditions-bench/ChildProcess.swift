import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of a child process: its wall time, peak resident set and exit status.
struct ChildRun {
    /// Seconds from spawn to reaping.
    var wall: Double
    /// Peak resident set size in bytes (`ru_maxrss` of the child).
    var peakRSS: Int
    /// The exit status, or 128 + signal.
    var status: Int32
    /// What the child wrote to stderr, for failure messages.
    var stderr: String
}

/// Runs a program through `conditions-bench-spawn` (built next to this binary), which forks it
/// from a process of ~1 MiB and reports its status, peak RSS and wall time. Spawned from this
/// Swift process instead, the child's peak RSS would start at this process's size (Linux keeps
/// the high-water mark across exec), hiding anything smaller.
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// The helper program, next to this executable.
    static let helper = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("conditions-bench-spawn").path

    /// Runs `executable arguments` with exactly `environment`; stdin comes from `stdin` and
    /// stdout goes to `stdout` (paths).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    stdin: String = "/dev/null", stdout: String = "/dev/null", stderrPath: String) throws(SpawnError) -> ChildRun {
        let report = stderrPath + ".spawn"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, report, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([helper, stdout, stderrPath, executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envBuffer in
                // Both arrays hold at least their nil terminator, so they have storage.
                guard let arguments = argvBuffer.baseAddress, let variables = envBuffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, helper, &actions, nil, arguments, variables)
            }
        }
        guard spawned == 0 else { throw SpawnError(description: "cannot start \(helper): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SpawnError(description: "waitpid: \(String(cString: strerror(errno)))") }
        }
        let line = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let fields = line.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard status == 0, fields.count == 3, let code = fields[0], let kilobytes = fields[1], let nanoseconds = fields[2] else {
            throw SpawnError(description: "\(helper) failed for \(executable) (status \(status), report \(line.debugDescription))")
        }
        let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return ChildRun(wall: Double(nanoseconds) / 1e9, peakRSS: kilobytes * 1024, status: Int32(code), stderr: errors)
    }
}

/// A monotonic clock in seconds.
enum Clock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
