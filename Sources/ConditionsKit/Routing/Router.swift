import ConditionsText
/// The Compass router: patterns mapped to handlers, URNs matched to the most specific pattern.
///
/// - A URN matches a pattern with the same number of segments whose literals all equal the
///   URN's segments (ASCII case-insensitively).
/// - Among matches the pattern with the most literal segments wins (`moon:now` beats `moon:{when}`).
/// - Two patterns that could match one URN with equal specificity are refused when registered,
///   so ambiguity is a load-time error, never a coin flip.
/// - No match is a `notFound` error naming the URN and suggesting the closest routes.
///
/// ```swift
/// var router = Router<String>()
/// try router.register("moon:{when}", "any instant")
/// try router.register("moon:now", "right now")
/// let (location, handler) = try router.match(URN("moon:now"))   // handler == "right now"
/// ```
public struct Router<Handler: Sendable>: Sendable {
    /// One registered pattern and its handler.
    public struct Route: Sendable {
        /// The pattern.
        public let pattern: RoutePattern
        /// What answers it.
        public let handler: Handler
        /// URNs known to match it, offered as suggestions.
        public let examples: [String]
    }

    /// The registered routes, in registration order.
    public private(set) var routes: [Route] = []

    /// An empty router.
    public init() {}

    /// Adds `pattern`; throws a `configuration` error when it is malformed or ambiguous with a
    /// registered one. `examples` are URNs it answers, offered when a URN of its scheme matches nothing.
    public mutating func register(_ pattern: RoutePattern, _ handler: Handler, examples: [String] = []) throws(ConditionsError) {
        if pattern.segments.contains(where: { if case .literal(let l) = $0 { l.isEmpty } else { false } }) {
            throw ConditionsError.configuration("route pattern \"\(pattern)\" has an empty segment")
        }
        if let clash = routes.first(where: { $0.pattern.isAmbiguous(with: pattern) }) {
            throw ConditionsError.configuration("route patterns \"\(clash.pattern)\" and \"\(pattern)\" are ambiguous: a URN can match both with the same number of literal segments")
        }
        routes.append(Route(pattern: pattern, handler: handler, examples: examples))
    }

    /// The most specific route matching `urn`, or a `notFound` error with suggestions.
    public func match(_ urn: URN) throws(ConditionsError) -> (location: Location, handler: Handler) {
        var best: (route: Route, arguments: [String: String])?
        for route in routes {
            guard let arguments = route.pattern.match(urn) else { continue }
            if route.pattern.literalCount > best?.route.pattern.literalCount ?? -1 {
                best = (route, arguments)
            }
        }
        guard let best else { throw notFound(urn) }
        return (Location(urn: urn, pattern: best.route.pattern, arguments: best.arguments), best.route.handler)
    }

    private func notFound(_ urn: URN) -> ConditionsError {
        let schemes = Set(routes.compactMap { $0.pattern.scheme?.lowercased() })
        if !schemes.contains(urn.scheme.lowercased()) {
            // Unknown scheme: suggest the same URN under the closest known schemes.
            let rest = urn.segments.dropFirst().joined(separator: ":")
            let close = Suggestions.closest(to: urn.scheme.lowercased(), among: schemes.sorted())
            let suggested = close.map { rest.isEmpty ? $0 : "\($0):\(rest)" }
            return .notFound("no source is routed for scheme \"\(urn.scheme)\" in \(URN.quote(urn.rawValue))", suggestions: suggested)
        }
        let sameScheme = routes.filter { $0.pattern.scheme?.lowercased() == urn.scheme.lowercased() }
        let patterns = sameScheme.map(\.pattern.text)
        // Compare what follows the scheme: every candidate shares the scheme, so comparing whole
        // URNs would make each of them "close" by its prefix.
        let tail = { (text: String) in String(text.drop { $0 != URN.delimiter }.dropFirst()) }
        var byTail: [String: String] = [:]
        for example in sameScheme.flatMap(\.examples) where byTail[tail(example)] == nil { byTail[tail(example)] = example }
        let close = Suggestions.closest(to: tail(urn.rawValue), among: byTail.keys.sorted()).compactMap { byTail[$0] }
        return .notFound("no route matches \(URN.quote(urn.rawValue)) (\(urn.scheme) routes: \(patterns.joined(separator: ", ")))",
                         suggestions: close)
    }
}
