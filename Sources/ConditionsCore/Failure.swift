
/// Errors that end the command with a documented exit code: 2 for usage and configuration.
package enum Failure: Error, CustomStringConvertible {
    case usage(String)
    case configuration(ConfigurationError)

    /// The message printed after `conditions: `.
    package var description: String {
        switch self {
        case .usage(let message): return message
        case .configuration(let error): return error.description
        }
    }
}
