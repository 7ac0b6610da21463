/// Every kind of failure a result can report: its raw value is the `kind` of the result's
/// `{"error": {"kind", "message"}}`, in every output, history row and `--exec` event. What a
/// module needs to know of a kind is a property here; the host adds its own readings of it
/// (the HTTP status `serve` answers, the fix `conditions doctor` prints).
public enum ErrorKind: String, Sendable, CaseIterable {
    /// The URN text itself is malformed (empty, control characters, too long, ...).
    case invalidURN
    /// No scheme, pattern or item answers the URN.
    case notFound
    /// A pattern matched but the source rejects an argument.
    case invalidArguments
    /// `sources.json` or a source's options are wrong.
    case configuration
    /// The upstream service reported a failure of its own.
    case upstream
    /// The upstream answered with data we cannot use (wrong types, missing fields).
    case badResponse
    /// The upstream could not be reached: its name, the connection, TLS or a proxy failed.
    case network
    /// The upstream, or a program, took longer than allowed.
    case timeout
    /// The upstream answered with an error status, or redirected too many times.
    case http
    /// The upstream's answer was larger than allowed.
    case tooLarge
    /// The URN was given up before it had an answer (the report was interrupted).
    case cancelled
    /// Anything else: a bug or an unexpected system failure.
    case `internal`

    /// Whether the upstream failed rather than the request: the next instance of the route's
    /// fallback chain is asked, then a cached result stands in (stale). Other kinds are the answer.
    public var fallsBack: Bool {
        switch self {
        case .upstream, .badResponse, .network, .timeout, .http, .tooLarge: true
        case .invalidURN, .notFound, .invalidArguments, .configuration, .cancelled, .internal: false
        }
    }

    /// Whether a failure says something about conditions, so history keeps it (`timeout` is a
    /// state worth keeping). A URN that is malformed, routes nowhere, has arguments its source
    /// rejects or a source misconfigured is the asker's mistake, not an observation.
    public var isObservation: Bool {
        switch self {
        case .invalidURN, .notFound, .invalidArguments, .configuration: false
        case .upstream, .badResponse, .network, .timeout, .http, .tooLarge, .cancelled, .internal: true
        }
    }
}

/// An error that knows how to describe itself in a result's `{"error": {"kind", "message"}}`.
///
/// Sources may throw any error; those that conform choose their `kind`, others are reported
/// as `internal`. Messages must never contain secrets.
public protocol ReportableError: Error, Sendable {
    /// A stable, machine-readable category: `notFound`, `invalidArguments`, `timeout`, ...
    var kind: ErrorKind { get }
    /// One human-readable line saying what went wrong and where.
    var message: String { get }
}

/// The errors of the contract: what routing, configuration and sources report.
///
/// ```swift
/// throw ConditionsError.invalidArguments(argument: "count", value: "0", allowed: "a whole number from 1 to 100")
/// ```
public struct ConditionsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category.
    public let kind: ErrorKind
    /// One line for a person.
    public let message: String
    /// Close alternatives the user may have meant (URNs), best first.
    public let suggestions: [String]

    /// An error of `kind` with `message` and optional suggestions.
    public init(_ kind: ErrorKind, _ message: String, suggestions: [String] = []) {
        self.kind = kind
        self.message = message
        self.suggestions = suggestions
    }

    /// The message, then `did you mean …?` with the suggestions, if any.
    public var description: String {
        guard !suggestions.isEmpty else { return message }
        let list = suggestions.count == 1
            ? suggestions[0]
            : suggestions.dropLast().joined(separator: ", ") + " or " + (suggestions.last ?? "")
        return "\(message); did you mean \(list)?"
    }

    /// Nothing answers `what`; `suggestions` are the closest URNs that would.
    public static func notFound(_ what: String, suggestions: [String] = []) -> ConditionsError {
        ConditionsError(.notFound, what, suggestions: suggestions)
    }

    /// The argument named `argument` has a value the source does not accept; `allowed` says what it does.
    public static func invalidArguments(argument: String, value: String, allowed: String) -> ConditionsError {
        ConditionsError(.invalidArguments, "invalid \(argument) \"\(value)\": expected \(allowed)")
    }

    /// A configuration problem; `message` starts with the JSON path or file it concerns.
    public static func configuration(_ message: String) -> ConditionsError {
        ConditionsError(.configuration, message)
    }

    /// The upstream's data is unusable; `message` names the field and the problem.
    public static func badResponse(_ message: String) -> ConditionsError {
        ConditionsError(.badResponse, message)
    }

    /// The upstream reported its own failure.
    public static func upstream(_ message: String) -> ConditionsError {
        ConditionsError(.upstream, message)
    }
}

extension ConditionsError {
    /// Describes any error as `(kind, message)` for output; unknown errors become `internal`.
    public static func report(_ error: any Error) -> (kind: ErrorKind, message: String) {
        switch error {
        case let error as ConditionsError: return (error.kind, error.description)
        case let error as any ReportableError: return (error.kind, error.message)
        case is CancellationError: return (.cancelled, "cancelled")
        default: return (.internal, String(describing: error))
        }
    }
}
