import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// `routes` with fallback chains in `sources.json` (issue 24, item 3): a string or an array of
/// instance ids, in profiles too; every wrong chain a problem naming its JSON path; the router
/// built from the union of the chain's patterns.
@Suite struct RouteChainConfigTests {
    static let fixtures = packageRoot.appendingPathComponent("Fixtures").path

    /// A config with instances `fixtures` (Fixtures), `astronomy` (Astronomy) and `wsdot` (WSDOT
    /// html mode; never asked here) and `routes` as given.
    static func config(routes: String, profiles: String = "{}") -> String {
        """
        {"location": {"name": "Seattle", "latitude": 47.6097, "longitude": -122.3331, "timeZone": "America/Los_Angeles"},
         "sources": {"fixtures": {"module": "Fixtures", "options": {"directory": "\(fixtures)"}},
                     "astronomy": {"module": "Astronomy"},
                     "wsdot": {"module": "WSDOT", "options": {"mode": "html", "baseURL": "http://127.0.0.1:9/passes"}}},
         "routes": \(routes),
         "profiles": \(profiles)}
        """
    }

    func runtime(routes: String, profiles: String = "{}", profile: String? = nil) throws -> Runtime {
        let workspace = try Workspace(config: Self.config(routes: routes, profiles: profiles))
        defer { workspace.remove() }
        return try workspace.runtime(profile: profile)
    }

    /// Every problem loading `routes` reports, the config's folder left out.
    func problems(routes: String) throws -> [String] {
        let workspace = try Workspace(config: Self.config(routes: routes))
        defer { workspace.remove() }
        do {
            _ = try workspace.runtime()
            Issue.record("\(routes) loaded")
            return []
        } catch {
            return error.problems.map { $0.replacingOccurrences(of: workspace.configFile.path + ": ", with: "") }
        }
    }

    /// pattern → the chain's instance ids and their own patterns.
    func table(_ runtime: Runtime) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: runtime.router.routes.map { route in
            (route.pattern.text, route.handler.links.map { "\($0.instance.id) \($0.pattern.text)" })
        })
    }

    // MARK: Both forms

    @Test func aStringAndAnArrayOfOneRouteAlike() throws {
        let string = try runtime(routes: #"{"pass": "wsdot", "moon": "astronomy"}"#)
        let array = try runtime(routes: #"{"pass": ["wsdot"], "moon": ["astronomy"]}"#)
        #expect(table(string) == table(array))
        #expect(table(string)["pass:{name}"] == ["wsdot pass:{name}"])
        #expect(string.configuration.routes.map(\.instances) == [["astronomy"], ["wsdot"]])
    }

    /// The union of the chain's patterns, each answered by every instance with a pattern
    /// matching all its URNs, through that instance's own (most specific) pattern.
    @Test func aChainRoutesTheUnionOfItsInstancesPatterns() throws {
        let runtime = try runtime(routes: #"{"pass": ["wsdot", "fixtures"], "moon": ["fixtures", "astronomy"]}"#)
        #expect(table(runtime) == [
            "pass:{name}": ["wsdot pass:{name}", "fixtures pass:{name}"],
            "pass:all": ["wsdot pass:all", "fixtures pass:{name}"],
            // Fixtures first: it answers moon:now too, through moon:{name}.
            "moon:{name}": ["fixtures moon:{name}", "astronomy moon:{date}"],
            "moon:now": ["fixtures moon:{name}", "astronomy moon:now"],
        ])
        // Examples of every instance, each under its most specific pattern.
        let examples = Dictionary(uniqueKeysWithValues: runtime.router.routes.map { ($0.pattern.text, $0.examples) })
        #expect(examples["pass:all"] == ["pass:all"])
        #expect(examples["pass:{name}"]?.contains("pass:snoqualmie") == true)
        #expect(examples["moon:now"] == ["moon:now"])
        #expect(runtime.configuration.schemes(of: "fixtures") == ["moon", "pass"])
    }

    @Test func profilesTakeEitherForm() throws {
        let profiles = #"{"chain": {"routes": {"pass": ["fixtures", "wsdot"]}}, "single": {"routes": {"pass": "fixtures"}}}"#
        let base = try runtime(routes: #"{"pass": ["wsdot", "fixtures"]}"#, profiles: profiles)
        #expect(base.configuration.routes.first?.instances == ["wsdot", "fixtures"])
        let chain = try runtime(routes: #"{"pass": "wsdot"}"#, profiles: profiles, profile: "chain")
        #expect(table(chain)["pass:{name}"] == ["fixtures pass:{name}", "wsdot pass:{name}"])
        let single = try runtime(routes: #"{"pass": ["wsdot", "fixtures"]}"#, profiles: profiles, profile: "single")
        #expect(table(single)["pass:{name}"] == ["fixtures pass:{name}"])
        #expect(table(single)["pass:all"] == nil, "Fixtures alone has no pass:all pattern")
    }

    // MARK: Every error path

    @Test func anUnknownInstanceIsNamedByItsPlaceInTheChain() throws {
        #expect(try problems(routes: #"{"pass": ["wsdot", "fixture"]}"#)
                == [#"routes.pass[1]: no source instance "fixture" (did you mean "fixtures"?); defined: fixtures, astronomy, wsdot"#])
        #expect(try problems(routes: #"{"pass": "wsdt"}"#)
                == [#"routes.pass: no source instance "wsdt" (did you mean "wsdot"?); defined: fixtures, astronomy, wsdot"#])
    }

    @Test func anEmptyChainIsAProblem() throws {
        #expect(try problems(routes: #"{"pass": []}"#)
                == [#"routes.pass: empty; name at least one source instance under "sources", or several tried in order, as in ["first-choice", "fallback"]"#])
    }

    @Test func aRepeatedInstanceIsAProblem() throws {
        #expect(try problems(routes: #"{"pass": ["wsdot", "fixtures", "wsdot"]}"#)
                == [#"routes.pass[2]: "wsdot" is already in the chain at routes.pass[0]; name each instance once"#])
    }

    @Test func aNonStringElementIsAProblem() throws {
        #expect(try problems(routes: #"{"pass": ["wsdot", 3, {"id": "fixtures"}]}"#) == [
            "routes.pass[1]: expected a source instance id (string), found number",
            "routes.pass[2]: expected a source instance id (string), found object",
        ])
        #expect(try problems(routes: #"{"pass": {"first": "wsdot"}}"#) == [
            #"routes.pass.first: unknown key; a joined route is {"join": [["first", "fallback"], "other"]}"#,
            #"routes.pass.join: expected a list of chains (an instance id or an array of them), e.g. [["wsdot-feed", "wsdot-page"], "caltrans"]"#,
        ])
        #expect(try problems(routes: #"{"pass": null}"#)
                == [#"routes.pass: expected a source instance id (string), an array of them tried in order, or {"join": [...]}, found null"#])
    }

    /// `{"join": [chain, …]}`: each chain read as a route is, named by its place in the join; an
    /// instance joined twice is a problem.
    @Test func aJoinIsChainsEachReadAsARoute() throws {
        let found = try problems(routes: #"{"pass": {"join": [["wsdot", "fixtures"], "nope", 3, []]}}"#)
        #expect(found == [
            #"routes.pass.join[1]: no source instance "nope"; defined: fixtures, astronomy, wsdot"#,
            #"routes.pass.join[2]: expected a source instance id (string), an array of them tried in order, or {"join": [...]}, found number"#,
            #"routes.pass.join[3]: empty; name at least one source instance under "sources", or several tried in order, as in ["first-choice", "fallback"]"#,
        ], "\(found)")
        #expect(try problems(routes: #"{"pass": {"join": [["wsdot", "fixtures"], "wsdot"]}}"#)
                == [#"routes.pass.join[1]: "wsdot" is already joined at routes.pass.join[0][0]; name each instance once"#])
        #expect(try problems(routes: #"{"pass": {"join": []}}"#)
                == [#"routes.pass.join: expected a list of chains (an instance id or an array of them), e.g. [["wsdot-feed", "wsdot-page"], "caltrans"]"#])
        #expect(try problems(routes: #"{"pass": {"join": [["wsdot", "fixtures"], "astronomy"]}}"#)
                == [#"routes.pass.join[1]: source "astronomy" (module Astronomy) serves no pass: URNs; it serves moon:now, moon:{date}, phases:{count}, sun:now, sun:{date}, night:{place}, night:{place}:{date}"#])
    }

    @Test func everyInstanceOfAChainMustServeTheScheme() throws {
        #expect(try problems(routes: #"{"pass": ["wsdot", "astronomy"]}"#)
                == [#"routes.pass[1]: source "astronomy" (module Astronomy) serves no pass: URNs; it serves moon:now, moon:{date}, phases:{count}, sun:now, sun:{date}, night:{place}, night:{place}:{date}"#])
        #expect(try problems(routes: #"{"moon": "wsdot"}"#)
                == [#"routes.moon: source "wsdot" (module WSDOT) serves no moon: URNs; it serves pass:{name}, pass:all, snowfall:{pass}, snowfall:{pass}:{season}"#])
    }

    @Test func everyProblemOfEveryChainIsReportedAtOnce() throws {
        let found = try problems(routes: #"{"pass": ["wsdot", "nope", "wsdot"], "moon": [], "phases": ["astronomy", 1]}"#)
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.hasPrefix("routes.pass[1]: no source instance \"nope\"") })
        #expect(found.contains { $0.hasPrefix("routes.pass[2]: \"wsdot\" is already in the chain") })
        #expect(found.contains { $0.hasPrefix("routes.moon: empty") })
        #expect(found.contains { $0.hasPrefix("routes.phases[1]: expected a source instance id") })
    }
}
