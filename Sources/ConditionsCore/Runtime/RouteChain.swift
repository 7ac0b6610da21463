import ConditionsJSON
import ConditionsKit

/// What the router holds for one pattern: the instances serving it, in the order they are
/// tried. The first answers; the next is asked only when the one before it fails upstream
/// (`Resolver.isUpstreamFailure`). A route to a single instance is a chain of one.
package struct RouteChain: Sendable {
    /// One instance of the chain and its own pattern, which names the arguments it reads
    /// (two instances may write the same pattern with different placeholder names).
    package struct Link: Sendable {
        /// The instance.
        package let instance: SourceInstance
        /// The instance's pattern, bound to the routed scheme.
        package let pattern: RoutePattern

        /// Where `urn` leads in this instance's terms, when its pattern matches.
        func location(of urn: URN) -> Location? {
            pattern.match(urn).map { Location(urn: urn, pattern: pattern, arguments: $0) }
        }
    }

    /// The links in order; never empty.
    package let links: [Link]
    /// The chains joined after this one (`{"join": [...]}`), in the order they are asked: the
    /// first answer that is not `notFound` wins (`Resolver`).
    package let joined: [RouteChain]

    /// A chain of `links`, with the chains `joined` after it.
    package init(links: [Link], joined: [RouteChain] = []) {
        self.links = links
        self.joined = joined
    }

    /// The instance tried first.
    package var first: SourceInstance { links[0].instance }

    /// The instance ids in order, joined by arrows, and the chains joined after it by `+`:
    /// `wsdot-feed → wsdot-page + caltrans`.
    package var sourcesText: String { all.map { $0.links.map(\.instance.id).joined(separator: " → ") }.joined(separator: " + ") }

    /// The modules in order, as `sourcesText` writes the instances.
    package var modulesText: String { all.map { $0.links.map(\.instance.module).joined(separator: " → ") }.joined(separator: " + ") }

    /// The chain as the JSON forms of `routes` list it: `[{"source": …, "module": …}, …]`.
    package var json: JSONValue {
        .array(links.map { ["source": .string($0.instance.id), "module": .string($0.instance.module)] })
    }

    /// This chain and the chains joined after it, in the order they are asked.
    package var all: [RouteChain] { [RouteChain(links: links)] + joined }
}

extension RouteChain {
    /// The router for `routes`. For each scheme the patterns are the union of those its
    /// instances serve (bound to the scheme); each pattern's chain is the instances, in the
    /// route's order, with a pattern answering every URN it matches (its own pattern or a more
    /// general one: `scheme:{name}` answers `scheme:all` too), each through its most specific
    /// such pattern. Problems (an instance serving nothing of the scheme, ambiguous patterns)
    /// are collected, named by their JSON path.
    static func router(for routes: [Configuration.Route], instances: [SourceInstance]) -> (router: Router<RouteChain>, problems: [String]) {
        var router = Router<RouteChain>()
        var problems: [String] = []
        for route in routes {
            var chains: [[(instance: SourceInstance, patterns: [RoutePattern])]] = []
            var union: [RoutePattern] = []
            for chain in route.chains {
                var members: [(instance: SourceInstance, patterns: [RoutePattern])] = []
                for (index, id) in chain.instances.enumerated() {
                    guard let instance = instances.first(where: { $0.id == id }) else { continue }
                    let patterns = instance.source.routes.compactMap { pattern -> RoutePattern? in
                        if pattern.scheme == nil { return pattern.bound(toScheme: route.scheme) }
                        return pattern.scheme?.lowercased() == route.scheme ? pattern : nil
                    }
                    if patterns.isEmpty {
                        let served = instance.source.routes.map(\.text).joined(separator: ", ")
                        problems.append("\(chain.path(index)): source \"\(instance.id)\" (module \(instance.module)) serves no \(route.scheme): URNs; it serves \(served)")
                        continue
                    }
                    // An instance's own patterns must not overlap, whatever else is in the chain.
                    var own = Router<Int>()
                    let count = problems.count
                    for pattern in patterns {
                        do { try own.register(pattern, index) } catch { problems.append("\(chain.path(index)): \(error.message)") }
                    }
                    guard problems.count == count else { continue }
                    members.append((instance, patterns))
                    for pattern in patterns where !union.contains(where: { Self.sameShape($0, pattern) }) { union.append(pattern) }
                }
                chains.append(members)
            }
            for pattern in union {
                // Per chain, the links answering the pattern; a chain with none is not asked.
                let linked = chains.map { members in
                    members.compactMap { member -> Link? in
                        member.patterns.filter { Self.covers($0, pattern) }.max { $0.literalCount < $1.literalCount }
                            .map { Link(instance: member.instance, pattern: $0) }
                    }
                }.filter { !$0.isEmpty }
                guard let first = linked.first else { continue }
                let examples = pattern.ownExamples(linked.joined().flatMap(\.instance.source.examples), among: union)
                let handler = RouteChain(links: first, joined: linked.dropFirst().map { RouteChain(links: $0) })
                do { try router.register(pattern, handler, examples: examples) } catch {
                    problems.append("routes.\(route.scheme): \(error.message)")
                }
            }
        }
        return (router, problems)
    }

    /// Whether `general` matches every URN `specific` matches: as many segments, and each
    /// of its literals equal (any case) to `specific`'s literal there.
    static func covers(_ general: RoutePattern, _ specific: RoutePattern) -> Bool {
        guard general.segments.count == specific.segments.count else { return false }
        return zip(general.segments, specific.segments).allSatisfy { pair in
            switch pair {
            case (.placeholder, _): true
            case (.literal(let a), .literal(let b)): a.lowercased() == b.lowercased()
            case (.literal, .placeholder): false
            }
        }
    }

    /// Whether two patterns match the same URNs: each covers the other (placeholder names aside).
    static func sameShape(_ a: RoutePattern, _ b: RoutePattern) -> Bool {
        covers(a, b) && covers(b, a)
    }
}

extension Router.Route where Handler == RouteChain {
    /// The route as `conditions routes --format json`, `/v1/routes` and MCP's `routes` list
    /// it: `source` and `module` name the first instance, `chain` every one of the first chain
    /// in order, and `join`, for a joined route, every chain.
    package var json: JSONValue {
        var object = JSONObject([("pattern", .string(pattern.text)), ("source", .string(handler.first.id)), ("module", .string(handler.first.module)),
                                 ("chain", handler.json), ("examples", .array(examples.map(JSONValue.string)))])
        // A joined route lists every chain, the first included, in the order they are asked.
        if !handler.joined.isEmpty { object["join"] = .array(handler.all.map(\.json)) }
        return .object(object)
    }
}
