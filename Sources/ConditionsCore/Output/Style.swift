import ConditionsKit
import Foundation

extension TextStyle {
    /// Styling for standard output: off when it is not a terminal, when `NO_COLOR` is set
    /// (https://no-color.org) or when `TERM=dumb`.
    package static func forStandardOutput(environment: [String: String]) -> TextStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return TextStyle(enabled: isatty(STDOUT_FILENO) == 1 && !noColor && environment["TERM"] != "dumb")
    }
}
