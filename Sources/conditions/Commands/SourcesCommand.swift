import ArgumentParser
import ConditionsCore
import ConditionsKit

/// `conditions sources`: the configured instances and every module this build knows.
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List the configured source instances and the modules available to them.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let configuration: Configuration
        do { configuration = try global.loadConfiguration() } catch { throw Failure.configuration(error) }
        // No instance is created here, but anything printed or logged is still masked.
        let secrets = Runtime.secrets(in: configuration, catalog: global.catalog, environment: global.environment)
        LogSetup.secrets.withLock { $0.formUnion(secrets) }
        var out = "Instances (\(configuration.name)\(configuration.profile.map { ", profile \($0)" } ?? "")):\n"
        let instanceRows = configuration.instances.map { instance -> [String] in
            // A scheme this instance backs up another for says where it stands in the chain, and
            // in which chain of a join (`pass (join 2)`, `pass (join 2, fallback 1)`).
            let schemes = configuration.routes.compactMap { route -> String? in
                guard let chain = route.chains.firstIndex(where: { $0.instances.contains(instance.id) }),
                      let position = route.chains[chain].instances.firstIndex(of: instance.id) else { return nil }
                let places = (chain == 0 ? [] : ["join \(chain + 1)"]) + (position == 0 ? [] : ["fallback \(position)"])
                return places.isEmpty ? route.scheme : "\(route.scheme) (\(places.joined(separator: ", ")))"
            }
            return [instance.id, instance.module, schemes.isEmpty ? "(not routed)" : schemes.joined(separator: ", ")]
        }
        out += Table(headers: ["ID", "MODULE", "ROUTED SCHEMES"], rows: instanceRows).rendered(indent: 2)
        out += "\nModules:\n"
        out += Table(headers: ["MODULE", "SERVES"], rows: global.catalog.modules.map { [$0.moduleName, $0.summary] }).rendered(indent: 2)
        write(out, to: .standardOutput)
    }
}
