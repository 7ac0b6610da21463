/// A route pattern such as `pass:{name}` or `moon:now`: `:`-separated segments, each a literal
/// or a `{placeholder}`.
///
/// ```swift
/// let pattern: RoutePattern = "phases:{count}"
/// pattern.literalCount  // 1
/// ```
public struct RoutePattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One segment of a pattern.
    public enum Segment: Sendable, Hashable {
        /// Must equal the URN's segment (ASCII case-insensitively).
        case literal(String)
        /// Matches any segment; the decoded value becomes the argument of this name.
        case placeholder(String)
    }

    /// The segments, in order.
    public let segments: [Segment]
    /// The pattern as written.
    public let text: String

    /// Parses `text`; a segment is a placeholder when it is `{name}` with a non-empty name.
    public init(_ text: String) {
        self.text = text
        self.segments = text.split(separator: URN.delimiter, omittingEmptySubsequences: false).map { part in
            if part.count > 2, part.first == "{", part.last == "}" {
                return .placeholder(String(part.dropFirst().dropLast()))
            }
            return .literal(String(part))
        }
    }

    /// A pattern written as a literal: `"tide:{station}"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// How many segments are literals: the more, the more specific (`moon:now` beats `moon:{when}`).
    public var literalCount: Int {
        segments.count { if case .literal = $0 { true } else { false } }
    }

    /// The first segment when it is a literal, which is how schemes are routed.
    public var scheme: String? {
        if case .literal(let scheme)? = segments.first { return scheme }
        return nil
    }

    /// The placeholder names, in order.
    public var placeholders: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// The pattern as written.
    public var description: String { text }

    /// Of `examples`, each once, the URNs this pattern answers and no more specific one of
    /// `patterns` does (`scheme:all` belongs to `scheme:all`, not also to `scheme:{name}`):
    /// the examples a router files under it.
    public func ownExamples(_ examples: [String], among patterns: [RoutePattern]) -> [String] {
        var own: [String] = []
        for example in examples where !own.contains(example) {
            guard let urn = try? URN(example), match(urn) != nil,
                  !patterns.contains(where: { $0.literalCount > literalCount && $0.match(urn) != nil }) else { continue }
            own.append(example)
        }
        return own
    }

    /// The decoded arguments when `urn` matches: same segment count, every literal equal.
    public func match(_ urn: URN) -> [String: String]? {
        guard urn.segments.count == segments.count else { return nil }
        var arguments: [String: String] = [:]
        for (segment, value) in zip(segments, urn.segments) {
            switch segment {
            case .literal(let literal):
                guard literal.lowercased() == value.lowercased() else { return nil }
            case .placeholder(let name):
                guard let decoded = URN.percentDecode(value) else { return nil }
                arguments[name] = decoded
            }
        }
        return arguments
    }

    /// Whether some URN could match both patterns with neither more specific: the ambiguity
    /// the router refuses at load time.
    public func isAmbiguous(with other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count, literalCount == other.literalCount else { return false }
        for (a, b) in zip(segments, other.segments) {
            if case .literal(let x) = a, case .literal(let y) = b, x.lowercased() != y.lowercased() { return false }
        }
        return true
    }

    /// This pattern with `scheme` as its first segment (how a wildcard-scheme source, such as
    /// Fixtures' `{scheme}:{name}`, is bound to each scheme it is routed from).
    public func bound(toScheme scheme: String) -> RoutePattern {
        guard case .placeholder? = segments.first else { return self }
        return RoutePattern(([scheme] + text.split(separator: URN.delimiter, omittingEmptySubsequences: false).dropFirst().map(String.init)).joined(separator: ":"))
    }
}
