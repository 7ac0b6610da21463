import ConditionsJSON
import ConditionsKit
import ConditionsProcess
import Foundation

/// Finds the file `command[0]` names, the way a shell would but without one: a name without
/// `/` is looked up on `PATH`; a path is taken relative to the config file's folder.
enum ProgramLocator {
    /// The absolute path of the program, or a configuration error at `path` saying why not.
    static func locate(_ program: String, path: String, configDirectory: URL, searchPath: String?) throws(ConditionsError) -> String {
        guard !program.isEmpty else {
            throw ConditionsError.configuration("\(path): the program name is empty")
        }
        if program.contains("/") {
            let file: URL
            if program.hasPrefix("/") {
                file = URL(fileURLWithPath: program)
            } else if program.hasPrefix("~/") {
                file = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(String(program.dropFirst(2)))
            } else {
                file = configDirectory.appendingPathComponent(program)
            }
            let candidate = file.standardizedFileURL.path
            switch check(candidate) {
            case .executable: return candidate
            case .missing: throw ConditionsError.configuration("\(path): no program at \(candidate)")
            case .notAFile: throw ConditionsError.configuration("\(path): \(candidate) is not a file")
            case .notExecutable: throw ConditionsError.configuration("\(path): \(candidate) is not executable (chmod +x, or run it through its interpreter)")
            }
        }
        // A bare name never runs a file that merely sits in the config's folder (`ProgramSearch`).
        if let found = ProgramSearch.executable(named: program, in: ProgramSearch.directories(searchPath ?? "/usr/local/bin:/usr/bin:/bin")) {
            return found
        }
        throw ConditionsError.configuration("\(path): no program \"\(program)\" on PATH")
    }

    enum Check { case executable, missing, notAFile, notExecutable }

    static func check(_ file: String) -> Check {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { return .missing }
        if isDirectory.boolValue { return .notAFile }
        return access(file, X_OK) == 0 ? .executable : .notExecutable
    }
}
