import ConditionsKit

extension ConditionsSource {
    /// Routes `urn` to this source as the host's router does for a scheme routed to it alone:
    /// its patterns of the URN's scheme (a `{scheme}:…` pattern bound to it), the most specific
    /// match winning, and a `notFound` error with the host's suggestions when none matches.
    ///
    /// ```swift
    /// let location = try source.location(for: "tide:harbor-7")
    /// location.pattern.text         // "tide:{id}"
    /// try location.argument("id")   // "harbor-7"
    /// ```
    public func location(for urn: String) throws(ConditionsError) -> Location {
        let parsed = try URN(urn)
        let scheme = parsed.scheme.lowercased()
        let patterns = routes.compactMap { pattern -> RoutePattern? in
            guard let own = pattern.scheme else { return pattern.bound(toScheme: scheme) }
            return own.lowercased() == scheme ? pattern : nil
        }
        var router = Router<Int>()
        for (index, pattern) in patterns.enumerated() {
            try router.register(pattern, index, examples: pattern.ownExamples(examples, among: patterns))
        }
        return try router.match(parsed).location
    }

    /// Routes `urn` (`location(for:)`) and resolves it with `context`, as the host does.
    ///
    /// ```swift
    /// let result = try await source.resolve("tide:harbor-7", context: SourceContextBuilder().build())
    /// ```
    public func resolve(_ urn: String, context: SourceContext) async throws -> SourceResult {
        try await resolve(location(for: urn), context: context)
    }

    /// The error routing or resolving `urn` with `context` throws, or nil when it succeeds.
    ///
    /// ```swift
    /// let error = try #require(await source.error(resolving: "tide:a.b", context: context) as? ConditionsError)
    /// #expect(error.kind == .invalidArguments)
    /// ```
    public func error(resolving urn: String, context: SourceContext) async -> (any Error)? {
        do {
            _ = try await resolve(urn, context: context)
            return nil
        } catch {
            return error
        }
    }
}
