import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif
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
///
/// The helper itself is started through swift-subprocess, like every process the project
/// starts: a clean signal state, no descriptor but 0, 1 and 2 inherited, and an async wait
/// (pidfd) that holds no thread of the cooperative pool while a scenario runs.
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
                    stdin: String = "/dev/null", stdout: String = "/dev/null", stderrPath: String) async throws(SpawnError) -> ChildRun {
        let report = stderrPath + ".spawn"
        let status: TerminationStatus
        do {
            // Handed to the helper as its 0 and 1, and closed here once it has them.
            let input = try FileDescriptor.open(FilePath(stdin), .readOnly, options: .closeOnExec)
            let reportFile: FileDescriptor
            do {
                reportFile = try FileDescriptor.open(FilePath(report), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                                     permissions: [.ownerReadWrite])
            } catch {
                try? input.close()
                throw error
            }
            let variables = Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
                Environment.Key(rawValue: name).map { ($0, value) }
            })
            status = try await Subprocess.run(
                .path(FilePath(helper)),
                arguments: Arguments([stdout, stderrPath, executable] + arguments),
                environment: .custom(variables),
                input: .fileDescriptor(input, closeAfterSpawningProcess: true),
                output: .fileDescriptor(reportFile, closeAfterSpawningProcess: true),
                error: .fileDescriptor(.standardError, closeAfterSpawningProcess: false)
            ).terminationStatus
        } catch {
            throw SpawnError(description: "cannot start \(helper): \(error)")
        }
        let line = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let fields = line.split(separator: " ").map { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard status == .exited(0), fields.count == 3, let code = fields[0], let kilobytes = fields[1], let nanoseconds = fields[2] else {
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
