import Foundation

/// Where a program named without a `/` is found, the way a shell would: the first executable
/// file of that name in `PATH`'s directories. Empty and relative entries (the current folder
/// to a shell) are skipped, so a bare name never runs a file that merely sits in the folder
/// the program was started from.
public enum ProgramSearch {
    /// `searchPath`'s absolute directories, in order.
    public static func directories(_ searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> [String] {
        (searchPath ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// The first `directory/name` of `directories` that is an executable file, else nil.
    public static func executable(named name: String, in directories: [String] = directories()) -> String? {
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Whether `path` is a file (not a folder) this process may execute.
    public static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue && access(path, X_OK) == 0
    }
}
