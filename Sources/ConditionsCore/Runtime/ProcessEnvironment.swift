import Foundation

/// The process environment as a dictionary, read from `environ` directly: the first use of
/// `ProcessInfo.processInfo` costs ~0.12 ms of a ~6.5 ms local answer. Same result as
/// `ProcessInfo.processInfo.environment`: entries split at the first "=", entries without
/// one or not valid UTF-8 skipped, a later duplicate name wins.
package enum ProcessEnvironment {
    /// The process's environment variables.
    package static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            if let text = String(validatingCString: pointer), let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
