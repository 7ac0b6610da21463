import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation
import Logging

/// The loaded configuration made live: source instances created and every routed scheme's
/// patterns registered in one Compass router, each pattern answered by a chain of instances.
package struct Runtime: Sendable {
    /// What the commands need of the configuration after loading.
    package let configuration: ConfigurationSummary
    /// Every routed pattern, matched by URN, with the instances answering it in order.
    package let router: Router<RouteChain>
    /// The created (routed, or all for `check`) source instances.
    package let instances: [SourceInstance]
    /// Values that must never be printed: secrets substituted from the environment and the
    /// values of the options each module declares secret (`secretOptions`), literal or not.
    package let secrets: Set<String>
    /// The modules the program registered: how results of each kind read and compare.
    package let catalog: SourceCatalog

    /// The parts of `Configuration` needed after loading.
    package struct ConfigurationSummary: Sendable {
        /// The config file read.
        package let file: URL
        /// Whether it is the default compiled into the program.
        package var isBuiltIn = false
        /// How messages name it: the file's path, or "built-in config".
        package var name: String { isBuiltIn ? ConfigFile.builtInName : file.path }
        /// The profile applied, if any.
        package let profile: String?
        /// The configured location.
        package let place: Place
        /// The configured places and `here`; nil: only `here`, the location.
        package var places: Places? = nil
        /// The `routes` object, scheme by scheme.
        package let routes: [Configuration.Route]
        /// The `report` list.
        package let report: [String]
        /// The `cache` settings.
        package let cache: Configuration.CacheSettings
        /// The `serve` settings, `${ENV}` unexpanded.
        package let serve: Configuration.ServeSettings
        /// The `dashboard` settings.
        package var dashboard = Configuration.DashboardSettings()
        /// The `history` settings.
        package var history = Configuration.HistorySettings()
        /// The `notify` settings, `${ENV}` unexpanded.
        package var notify = NotifySettings()
        /// The `mqtt` settings (Home Assistant devices), the password unexpanded; nil: none.
        package var mqtt: MQTTSettings?

        /// The schemes routed to instance `id`, each once, in scheme order.
        package func schemes(of id: String) -> [String] {
            routes.filter { $0.instances.contains(id) }.map(\.scheme)
        }
    }

    /// Creates the routed instances and the router, collecting every problem (bad options,
    /// missing environment variables in routed sources, ambiguous patterns). Unrouted instances
    /// answer nothing, so a report does not pay for creating them; `conditions check` passes
    /// `validatingUnrouted` to have their options checked too.
    package init(_ configuration: Configuration, catalog: SourceCatalog, environment: [String: String], logger: Logger,
                 validatingUnrouted: Bool = false) throws(ConfigurationError) {
        var problems: [String] = []
        var secrets: Set<String> = []
        let routed = Set(configuration.routes.flatMap(\.instances))
        let interpolation = Interpolation(environment: environment)
        var instances: [SourceInstance] = []

        for entry in configuration.instances {
            guard let module = catalog.module(named: entry.module) else { continue }
            let path = "sources.\(entry.id).options"
            let outcome = interpolation.apply(.object(entry.options), path: path)
            secrets.formUnion(outcome.secrets)
            // Collected for every instance, routed or not, before any is created: `check` and
            // option errors may quote any of them.
            let substituted = outcome.value.objectValue ?? JSONObject()
            secrets.formUnion(Self.declaredSecrets(of: module, in: substituted))
            guard validatingUnrouted || routed.contains(entry.id) else { continue }
            // A missing variable only matters where the instance is used: unrouted sources
            // (Aeris without keys, say) stay configurable without their secrets.
            if routed.contains(entry.id) {
                for missing in outcome.missing {
                    problems.append("\(missing.path): environment variable \(missing.variable) is not set")
                }
                if !outcome.missing.isEmpty { continue }
            }
            var instanceLogger = logger
            instanceLogger[metadataKey: "source"] = "\(entry.id)"
            let sourceConfiguration = SourceConfiguration(
                instance: entry.id,
                options: SourceOptions(path: path, object: substituted, baseDirectory: configuration.directory, dataDirectory: configuration.dataDirectory),
                configDirectory: configuration.directory,
                place: configuration.place,
                places: configuration.places,
                userAgent: "conditions/\(Version.current)",
                logger: instanceLogger)
            do {
                let source = try module.init(configuration: sourceConfiguration)
                instances.append(SourceInstance(
                    id: entry.id, module: entry.module, source: source, http: entry.http, logger: instanceLogger,
                    ttl: entry.ttl ?? module.defaultTTL, configuredTTL: entry.ttl,
                    configurationText: "\(entry.id)|\(entry.module)|\(JSONValue.object(entry.options).serialized())"))
            } catch {
                // Unrouted instances are validated too, but only errors that are not caused
                // by the secrets they were allowed to lack.
                if routed.contains(entry.id) || outcome.missing.isEmpty {
                    problems.append("sources.\(entry.id): \(ConditionsError.report(error).message)")
                }
            }
        }

        let (router, routeProblems) = RouteChain.router(for: configuration.routes, instances: instances)
        problems += routeProblems
        // A source that combines others resolves their URNs through the router: each scheme it
        // needs must be routed somewhere, or every answer it gives would fail.
        let schemes = Set(configuration.routes.map(\.scheme))
        for instance in instances where routed.contains(instance.id) {
            for scheme in instance.source.requiredSchemes where !schemes.contains(scheme) {
                problems.append("sources.\(instance.id): module \(instance.module) combines \(scheme): URNs, but \"routes\" has no \"\(scheme)\"; route it to a source")
            }
        }

        guard problems.isEmpty else {
            // An option's error may quote its value, which may hold a substituted secret; the
            // log handler only learns the secrets once loading succeeds, so mask them here.
            let masked = problems.map { problem in secrets.reduce(problem) { $0.replacingOccurrences(of: $1, with: Redaction.mask) } }
            throw ConfigurationError(problems: masked.map { "\(configuration.name): \($0)" })
        }
        self.router = router
        self.instances = instances
        self.secrets = secrets
        self.catalog = catalog
        self.configuration = ConfigurationSummary(
            file: configuration.file, isBuiltIn: configuration.isBuiltIn, profile: configuration.profile, place: configuration.place,
            places: configuration.places, routes: configuration.routes,
            report: configuration.report, cache: configuration.cache, serve: configuration.serve, dashboard: configuration.dashboard,
            history: configuration.history, notify: configuration.notify, mqtt: configuration.mqtt)
    }

    /// A runtime over instances made elsewhere (tests' own sources), routed by `routes`.
    init(instances: [SourceInstance], routes: [Configuration.Route], configuration: ConfigurationSummary,
         catalog: SourceCatalog = SourceCatalog([])) throws(ConfigurationError) {
        let (router, problems) = RouteChain.router(for: routes, instances: instances)
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        self.router = router
        self.instances = instances
        self.secrets = []
        self.catalog = catalog
        self.configuration = configuration
    }

    /// The instance called `id`, if created.
    package func instance(_ id: String) -> SourceInstance? {
        instances.first { $0.id == id }
    }

    /// Every secret in `configuration` without creating any instance, for commands that only
    /// list it (`sources`): substituted `${ENV}` secrets and declared secret options.
    package static func secrets(in configuration: Configuration, catalog: SourceCatalog, environment: [String: String]) -> Set<String> {
        let interpolation = Interpolation(environment: environment)
        var secrets: Set<String> = []
        for entry in configuration.instances {
            guard let module = catalog.module(named: entry.module) else { continue }
            let outcome = interpolation.apply(.object(entry.options), path: "sources.\(entry.id).options")
            secrets.formUnion(outcome.secrets)
            secrets.formUnion(declaredSecrets(of: module, in: outcome.value.objectValue ?? JSONObject()))
        }
        return secrets
    }

    /// The values of the options `module` declares secret, in its substituted `options`.
    static func declaredSecrets(of module: any ConditionsSource.Type, in options: JSONObject) -> Set<String> {
        module.secretOptions.reduce(into: []) { secrets, name in
            if let value = options[name] { secrets.formUnion(secretValues(in: value)) }
        }
    }

    /// The secrets in a declared secret option's value: a string is one; an object holds
    /// them in its members with secret-looking names (see `ConditionsSource.secretOptions`).
    /// `${…}` left unsubstituted (a missing variable) is not a value, so it is not masked.
    static func secretValues(in value: JSONValue) -> Set<String> {
        switch value {
        case .string(let text):
            return text.isEmpty || Interpolation.containsReference(text) ? [] : [text]
        case .array(let elements):
            return elements.reduce(into: []) { $0.formUnion(secretValues(in: $1)) }
        case .object(let object):
            return object.reduce(into: []) { result, member in
                if Redaction.isSensitive(member.key) { result.formUnion(secretValues(in: member.value)) }
            }
        default:
            return []
        }
    }
}
