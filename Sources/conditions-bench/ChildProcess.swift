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

/// Spawns `conditions` directly (no shell) and measures it with `wait4`, so the figures are the
/// child's own: its peak RSS, and a wall time that includes starting the process.
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable arguments` with exactly `environment`; stdout goes to `stdout` (a path).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    stdout: String = "/dev/null", stderrPath: String) throws(SpawnError) -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let start = Clock.now()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envBuffer in
                // Both arrays hold at least their nil terminator, so they have storage.
                guard let arguments = argvBuffer.baseAddress, let variables = envBuffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, executable, &actions, nil, arguments, variables)
            }
        }
        guard spawned == 0 else { throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw SpawnError(description: "wait4: \(String(cString: strerror(errno)))") }
        }
        let wall = Clock.now() - start
        // WIFEXITED/WEXITSTATUS are macros Swift cannot see.
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let errors = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return ChildRun(wall: wall, peakRSS: usage.ru_maxrss * 1024, status: code, stderr: errors)
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
