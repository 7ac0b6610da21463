/// Why a page could not be parsed or queried.
public enum HTMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libxml2 produced no document at all (for example an empty body or a body too large to parse).
    case unparsable(reason: String)
    /// The XPath expression does not compile, fails to evaluate, or does not select nodes.
    case invalidXPath(expression: String, reason: String)

    /// A one-line explanation naming the page problem or the offending expression.
    public var description: String {
        switch self {
        case .unparsable(let reason):
            return "HTML could not be parsed: \(reason)"
        case .invalidXPath(let expression, let reason):
            return "invalid XPath expression '\(expression)': \(reason)"
        }
    }
}
