import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The machine and build the figures were measured on, printed above the table.
struct Machine: Encodable {
    let cpu: String
    let cores: Int
    let memoryGiB: Double
    let kernel: String
    let swift: String
    let build: String
    let loadAverage: String
    let binary: String
    /// Whether the binary links the Swift runtime statically (`--static-swift-stdlib`).
    let staticSwiftRuntime: Bool

    static func describe(binary: String, workspace: Workspace) async -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let kilobytes = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Double($0) } ?? 0
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        #if DEBUG
        let build = "debug (figures are not representative: use -c release)"
        #else
        let build = "release"
        #endif
        return Machine(cpu: model, cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)), memoryGiB: kilobytes / 1_048_576,
                       kernel: "Linux \(kernel)", swift: await swiftVersion(workspace: workspace), build: build,
                       loadAverage: load, binary: binary, staticSwiftRuntime: !needsSharedSwiftCore(binary))
    }

    /// The first line of `swift --version` from PATH or /opt/swift, if there is one.
    private static func swiftVersion(workspace: Workspace) async -> String {
        let path = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map(String.init) + ["/opt/swift/usr/bin"]
        guard let swift = path.map({ $0 + "/swift" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "unknown (no swift on PATH)"
        }
        let out = workspace.file("swift-version.txt")
        guard let run = try? await ChildProcess.run(swift, ["--version"], environment: ["PATH": "/usr/bin:/bin"], stdout: out, stderrPath: workspace.file("swift-version.err")),
              run.status == 0, let text = try? String(contentsOfFile: out, encoding: .utf8)
        else { return "unknown" }
        return text.split(separator: "\n").first { $0.contains("Swift version") }.map(String.init) ?? "unknown"
    }

    /// Whether the binary's dynamic string table names libswiftCore.so (read from its start,
    /// where the table lives, not the whole 80 MB file).
    private static func needsSharedSwiftCore(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4 << 20)) ?? Data()
        return head.range(of: Data("libswiftCore.so".utf8)) != nil
    }

    var lines: [String] {
        [
            "machine  \(cpu), \(cores) cores, \(String(format: "%.1f", memoryGiB)) GiB, \(kernel)",
            "build    \(build); \(swift)",
            "binary   \(binary) (Swift runtime \(staticSwiftRuntime ? "linked statically" : "in shared libraries"))",
            "load     \(loadAverage) (1, 5, 15 min) at start",
        ]
    }
}
