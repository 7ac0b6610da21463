/// Where a URN landed: the pattern that matched it and the percent-decoded arguments
/// (Compass calls this a Location).
///
/// ```swift
/// // pass:snoqualmie matched against pass:{name}
/// location.pattern.text        // "pass:{name}"
/// try location.argument("name") // "snoqualmie"
/// ```
public struct Location: Sendable, Hashable {
    /// The URN as the user gave it.
    public let urn: URN
    /// The pattern that matched.
    public let pattern: RoutePattern
    /// Placeholder name → decoded value.
    public let arguments: [String: String]

    /// A location; the router makes these, tests may too.
    public init(urn: URN, pattern: RoutePattern, arguments: [String: String]) {
        self.urn = urn
        self.pattern = pattern
        self.arguments = arguments
    }

    /// The decoded value of placeholder `name`; an `invalidArguments` error when the pattern has no such placeholder.
    public func argument(_ name: String) throws(ConditionsError) -> String {
        guard let value = arguments[name] else {
            throw ConditionsError(.invalidArguments, "\(urn): route \(pattern) has no argument named \"\(name)\"")
        }
        return value
    }
}
