import ArgumentParser
import ConditionsCore
import ConditionsKit

/// `conditions check`: validate the config, printing every problem found.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the config: JSON syntax, places, modules, options, environment variables, routes and their fallback chains, the report list, the dashboard's URNs and the notify targets and rules.",
        discussion: """
        Prints every problem found, one per line, and exits 2 if there is any; prints a summary and exits 0 otherwise. \
        With "history": {"url"}, also logs in to the database: a wrong password or an unknown database is a problem; \
        a server that cannot be reached is not (it is an outage, not the config's fault).
        """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let logger = LogSetup.makeLogger(level: global.logLevel)
        let runtime: Runtime
        do { runtime = try global.loadRuntime(logger: logger, validatingUnrouted: true) } catch { throw Failure.configuration(error) }
        let history = runtime.configuration.history
        if history.enabled {
            try await HistoryOptions.checkLogin(try HistoryOptions.location(history, environment: global.environment), logger: logger)
        }
        // The report list must at least route; the sources validate arguments only when asked.
        var problems: [String] = []
        for (index, text) in runtime.configuration.report.enumerated() {
            do {
                _ = try runtime.router.match(URN(text))
            } catch {
                problems.append("\(runtime.configuration.name): report[\(index)]: \(error.description)")
            }
        }
        for (index, text) in (runtime.configuration.dashboard.urns ?? []).enumerated() {
            do {
                _ = try runtime.router.match(URN(text))
            } catch {
                problems.append("\(runtime.configuration.name): dashboard.urns[\(index)]: \(error.description)")
            }
        }
        // Notify targets resolve (every variable set, a webhook secret that is one), and each
        // rule's URNs route.
        let notify = runtime.configuration.notify
        for target in notify.targets {
            do { _ = try target.resolve(environment: global.environment) } catch {
                problems += error.problems.map { "\(runtime.configuration.name): \($0)" }
            }
        }
        for (ruleIndex, rule) in notify.rules.enumerated() {
            for (index, text) in rule.urns.enumerated() {
                do { _ = try runtime.router.match(URN(text)) } catch {
                    problems.append("\(runtime.configuration.name): notify.rules[\(ruleIndex)].urns[\(index)]: \(error.description)")
                }
            }
        }
        // The MQTT password resolves, and each URN published to Home Assistant routes.
        if let mqtt = runtime.configuration.mqtt {
            do { _ = try mqtt.resolvePassword(environment: global.environment) } catch {
                problems += error.problems.map { "\(runtime.configuration.name): \($0)" }
            }
            for (index, text) in (mqtt.urns ?? []).enumerated() {
                do { _ = try runtime.router.match(URN(text)) } catch {
                    problems.append("\(runtime.configuration.name): mqtt.urns[\(index)]: \(error.description)")
                }
            }
        }
        guard problems.isEmpty else { throw Failure.configuration(ConfigurationError(problems: problems)) }
        let summary = runtime.configuration
        let chained = runtime.router.routes.count { $0.handler.all.contains { $0.links.count > 1 } }
        let joined = runtime.router.routes.count { !$0.handler.joined.isEmpty }
        let places = summary.places?.names.count ?? 0
        let kinds = [chained > 0 ? "\(chained) with fallbacks" : nil, joined > 0 ? "\(joined) joined" : nil].compactMap { $0 }
        write("ok: \(summary.name)\(summary.profile.map { " (profile \($0))" } ?? ""): \(runtime.instances.count) sources, \(runtime.router.routes.count) routes"
              + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + (places > 0 ? ", \(places) places" : "")
              + ", \(summary.report.count) report URNs"
              + (notify.isEmpty ? "" : ", \(notify.targets.count) notify target\(notify.targets.count == 1 ? "" : "s") and \(notify.rules.count) rule\(notify.rules.count == 1 ? "" : "s")")
              + (summary.mqtt.map { ", \($0.urns(report: summary.report).count) Home Assistant device(s) on \($0.address)" } ?? "")
              + "\n", to: .standardOutput)
    }
}
