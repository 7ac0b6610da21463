import ConditionsKit

/// The example URNs the program shows (its `--help`, the server's and MCP's descriptions, error
/// hints), taken from the modules' own examples, so nothing in the host spells a module's URN.
package enum ExampleURNs {
    /// `urns` with the first of each scheme first, in order, then the rest; each once.
    package static func ordered(_ urns: [String]) -> [String] {
        var seen: Set<String> = [], schemes: Set<String> = []
        var first: [String] = [], rest: [String] = []
        for urn in urns where seen.insert(urn).inserted {
            let scheme = String(urn.prefix { $0 != ":" })
            if schemes.insert(scheme).inserted { first.append(urn) } else { rest.append(urn) }
        }
        return first + rest
    }

    /// `urns[index]`, or a placeholder when there are not that many (a build or config with
    /// no examples still reads).
    package static func pick(_ urns: [String], _ index: Int) -> String {
        urns.indices.contains(index) ? urns[index] : "scheme:name"
    }
}

extension SourceCatalog {
    /// The registered modules' `exampleURNs`, one per scheme first: what `--help` shows.
    package var exampleURNs: [String] { ExampleURNs.ordered(modules.flatMap { $0.exampleURNs }) }
}

extension Runtime {
    /// URNs this configuration answers: its `report` list first (what its user asks for), then
    /// the routed instances' examples (`examples`), one per scheme first; each one the router
    /// matches. What the server and MCP show.
    package var exampleURNs: [String] {
        let examples = configuration.routes.flatMap { route in
            route.instances.compactMap { id in instance(id) }.flatMap { $0.source.examples }.filter { $0.hasPrefix(route.scheme + ":") }
        }
        return ExampleURNs.ordered((configuration.report + examples).filter { (try? router.match(URN($0))) != nil })
    }
}
