import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// `sources.json` after the profile overlay, checked for shape. Options are still raw (the
/// modules validate their own when instantiated) and `${ENV}` references still unexpanded.
package struct Configuration {
    /// One entry under `sources`: an instance of a module with its options.
    package struct Instance {
        /// The key under `sources`.
        package let id: String
        /// The module it instantiates (`SourceCatalog.module(named:)`).
        package let module: String
        let options: JSONObject
        let http: HTTPLimits
        /// Seconds a result stays fresh in the cache; nil means the module's default.
        let ttl: Double?
    }

    /// One member of `routes`: a URN scheme and the instances that answer it, in the order
    /// they are tried (`"scheme": "source"` or `"scheme": ["first", "second"]`), or several such
    /// chains joined (`"scheme": {"join": [["wsdot-feed", "wsdot-page"], "caltrans"]}`).
    package struct Route: Sendable {
        /// The URN scheme.
        package let scheme: String
        /// The chains, in the order they are asked: one, or the members of a `join`.
        package let chains: [Chain]

        /// One chain: instance ids, at least one, none repeated; the first answers unless it
        /// fails upstream.
        package struct Chain: Sendable {
            package let instances: [String]
            /// Its JSON path (`routes.pass`, `routes.pass.join[1]`).
            let path: String
            /// Whether the config wrote an array, so problems name `routes.pass[1]` rather than `routes.pass`.
            let listed: Bool

            /// The JSON path of the `index`th instance, for problems.
            func path(_ index: Int) -> String {
                listed ? "\(path)[\(index)]" : path
            }
        }

        /// Every instance id, chain after chain.
        package var instances: [String] { chains.flatMap(\.instances) }

        /// Whether the route joins several chains.
        package var isJoin: Bool { chains.count > 1 }

        /// A route of one chain.
        package init(scheme: String, instances: [String], listed: Bool) {
            self.scheme = scheme
            chains = [Chain(instances: instances, path: "routes.\(scheme)", listed: listed)]
        }

        /// A route joining `chains`.
        init(scheme: String, chains: [Chain]) {
            self.scheme = scheme
            self.chains = chains
        }
    }

    /// The `cache` object.
    package struct CacheSettings {
        /// The cache folder; nil: `ResultCache.defaultDirectory`.
        package var directory: URL?
        /// Whether reports use the cache at all.
        package var enabled = true
    }

    /// The `serve` object: settings of `conditions serve`, `${ENV}` still unexpanded
    /// (`interpolated(environment:)` expands them when the server starts).
    package struct ServeSettings: Sendable {
        /// `host:port` to listen on; nil: the command's default (127.0.0.1:8080).
        package var listen: String?
        /// The bearer token clients must send off loopback; usually `"${CONDITIONS_SERVE_TOKEN}"`.
        package var token: String?
        /// Origins allowed by CORS (`"*"` for any); empty: no CORS headers at all.
        package var cors: [String] = []
        /// At most this many results in the server's memory; nil: the server's default.
        package var cacheEntries: Int?
        /// At most about this many bytes of results in the server's memory; nil: the default.
        package var cacheBytes: Int?
        /// Seconds a connection may stay idle, or take to send a request, before it is closed;
        /// nil: the server's default (30).
        package var idleTimeout: Double?

        /// Settings as given.
        package init(listen: String? = nil, token: String? = nil, cors: [String] = []) {
            self.listen = listen
            self.token = token
            self.cors = cors
        }

        /// The settings with `${NAME}` expanded from `environment`, and the values that must
        /// never be shown (the token always counts as one, whatever its variable is called).
        package func interpolated(environment: [String: String]) throws(ConfigurationError) -> (settings: ServeSettings, secrets: Set<String>) {
            let interpolation = Interpolation(environment: environment)
            var problems: [String] = []
            var secrets: Set<String> = []
            func expand(_ text: String?, path: String) -> String? {
                guard let text else { return nil }
                let outcome = interpolation.apply(.string(text), path: path)
                secrets.formUnion(outcome.secrets)
                for missing in outcome.missing { problems.append("\(path): environment variable \(missing.variable) is not set") }
                return outcome.value.stringValue
            }
            var result = self
            result.listen = expand(listen, path: "serve.listen")
            result.token = expand(token, path: "serve.token")
            result.cors = cors.enumerated().compactMap { expand($1, path: "serve.cors[\($0)]") }
            if let token = result.token, !token.isEmpty { secrets.insert(token) }
            guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
            return (result, secrets)
        }
    }

    /// The `dashboard` object: what `GET /` of `conditions serve` shows.
    package struct DashboardSettings: Sendable {
        /// The page's heading and `<title>`; nil: "Conditions".
        package var title: String?
        /// The URNs shown; nil: the `report` list.
        package var urns: [String]?

        /// Settings as given.
        package init(title: String? = nil, urns: [String]? = nil) {
            self.title = title
            self.urns = urns
        }

        /// The longest title accepted: a heading, not a paragraph.
        package static let maximumTitleLength = 200
        /// At most this many URNs (the server's per-request limit).
        package static let maximumURNs = 100
    }

    /// The config file read (the built-in default: a `sources.json` in the folder its
    /// relative paths resolve against).
    package var file: URL
    /// Whether it is the default compiled into the program.
    package var isBuiltIn: Bool
    /// Where the program's own data is installed (`share/conditions`), which relative paths
    /// in options fall back to (`SourceOptions.dataDirectory`); the program sets it.
    package var dataDirectory: URL? = nil
    /// How messages name it: the file's path, or "built-in config".
    package var name: String { isBuiltIn ? ConfigFile.builtInName : file.path }
    /// The profile applied, if any.
    package var profile: String?
    /// The `location`: the default place of every source.
    package var place: Place
    /// The `places` object and `here` (the `location`).
    package var places: Places
    /// The `sources` entries in file order.
    package var instances: [Instance]
    /// The `routes` object, sorted by scheme.
    package var routes: [Route]
    /// The `report` list: URNs resolved when none are given.
    package var report: [String]
    var http: HTTPLimits
    /// The `cache` settings.
    package var cache: CacheSettings
    /// The `serve` settings.
    package var serve = ServeSettings()
    /// The `dashboard` settings.
    package var dashboard = DashboardSettings()
    /// The `history` settings.
    package var history = HistorySettings()
    /// The `notify` settings: targets, rules, quiet hours.
    package var notify = NotifySettings()
    /// The `mqtt` settings: Home Assistant devices `serve` publishes; nil without the section.
    package var mqtt: MQTTSettings?

    var directory: URL { file.deletingLastPathComponent() }

    static let topLevelKeys = ["location", "places", "sources", "routes", "profiles", "report", "http", "cache", "serve", "dashboard", "history", "notify", "mqtt"]

    /// Reads the shape of `file.root` under `profile`, collecting every problem rather than
    /// stopping at the first: each section has its reader, which records its problems under
    /// their JSON paths.
    package static func load(_ file: ConfigFile, profile requested: String?, catalog: SourceCatalog) throws(ConfigurationError) -> Configuration {
        var problems: [String] = []
        checkKeys(file.root, allowed: topLevelKeys + ["$schema", "description"], path: "", problems: &problems)
        let root = applyProfile(requested, to: file.root, problems: &problems)
        let directory = file.directory

        let defaults = readLimits(root["http"], path: "http", base: HTTPLimits(), problems: &problems)
        let place = readLocation(root["location"], directory: directory, problems: &problems)
        let places = Places(location: place, named: readPlaces(root["places"], directory: directory, problems: &problems))
        let instances = readInstances(root["sources"], limits: defaults, catalog: catalog, problems: &problems)
        let routes = readRoutes(root["routes"], instances: instances, sources: root["sources"], problems: &problems)
        let report = readReport(root["report"], problems: &problems)
        let cache = readCache(root["cache"], directory: directory, problems: &problems)
        let serve = readServe(root["serve"], directory: directory, problems: &problems)
        let dashboard = readDashboard(root["dashboard"], directory: directory, problems: &problems)
        let history = readHistory(root["history"], directory: directory, problems: &problems)
        let notify = readNotify(root["notify"], directory: directory, problems: &problems)
        let mqtt = readMQTT(root["mqtt"], directory: directory, problems: &problems)
        if let mqtt, mqtt.urns == nil, report.isEmpty {
            problems.append("mqtt.urns: missing, and the config has no report list to publish; list the URNs")
        }

        guard problems.isEmpty else { throw ConfigurationError(problems: problems.map { "\(file.name): \($0)" }) }
        return Configuration(file: file.url, isBuiltIn: file.isBuiltIn, profile: requested, place: place, places: places, instances: instances,
                             routes: routes.sorted { $0.scheme < $1.scheme }, report: report, http: defaults, cache: cache, serve: serve,
                             dashboard: dashboard, history: history, notify: notify, mqtt: mqtt)
    }

    /// `root` with the `requested` profile's overlay merged in (profiles are named overlays,
    /// merged onto the base before anything else is read); `root` itself when none is asked.
    static func applyProfile(_ requested: String?, to root: JSONObject, problems: inout [String]) -> JSONObject {
        let profiles = root["profiles"]?.objectValue ?? JSONObject()
        if let value = root["profiles"], value.objectValue == nil { problems.append("profiles: expected an object, found \(value.typeName)") }
        guard let requested else { return root }
        guard let overlay = profiles[requested] else {
            let known = profiles.keys
            problems.append("unknown profile \"\(requested)\"" + (known.isEmpty ? "; the config defines no profiles" : "; known: \(known.joined(separator: ", "))"))
            return root
        }
        guard let object = overlay.objectValue else {
            problems.append("profiles.\(requested): expected an object, found \(overlay.typeName)")
            return root
        }
        checkKeys(object, allowed: topLevelKeys.filter { $0 != "profiles" }, path: "profiles.\(requested).", problems: &problems)
        return merge(root, object)
    }

    /// The `location` object (required): the default place of every source, and `here`.
    /// Missing or wrong, it is a problem and the place reads as 0, 0.
    static func readLocation(_ value: JSONValue?, directory: URL, problems: inout [String]) -> Place {
        let unknown = Place(latitude: 0, longitude: 0)
        guard let object = requiredObject(value, "location", missing: #"add {"name": …, "latitude": …, "longitude": …}"#, problems: &problems) else {
            return unknown
        }
        var options = SourceOptions(path: "location", object: object, baseDirectory: directory)
        do { return try Place(options: &options) } catch {
            problems.append(error.message)
            return unknown
        }
    }

    /// The required section `name` as an object; nil, with the problem said, when it is missing
    /// (`missing` says what to write) or not an object.
    static func requiredObject(_ value: JSONValue?, _ name: String, missing: String, problems: inout [String]) -> JSONObject? {
        guard let value else {
            problems.append("\(name): missing; \(missing)")
            return nil
        }
        guard let object = value.objectValue else {
            problems.append("\(name): expected an object, found \(value.typeName)")
            return nil
        }
        return object
    }

    /// The `sources` object (required): instance id → `{"module", "options", "http", "ttl"}`,
    /// in file order. The module must be in `catalog`; its options are read by the module when
    /// the instance is made. `limits` are the config's `http` defaults each entry's `http` refines.
    static func readInstances(_ value: JSONValue?, limits defaults: HTTPLimits, catalog: SourceCatalog, problems: inout [String]) -> [Instance] {
        guard let sources = requiredObject(value, "sources", missing: "define at least one source instance", problems: &problems) else { return [] }
        var instances: [Instance] = []
        for (id, entry) in sources {
            guard let entry = entry.objectValue else {
                problems.append("sources.\(id): expected an object, found \(entry.typeName)"); continue
            }
            checkKeys(entry, allowed: ["module", "options", "http", "ttl"], path: "sources.\(id).", problems: &problems)
            guard let module = entry["module"]?.stringValue else {
                problems.append("sources.\(id).module: missing; name one of \(catalog.moduleNames.joined(separator: ", "))"); continue
            }
            guard catalog.module(named: module) != nil else {
                let close = Suggestions.closest(to: module, among: catalog.moduleNames, limit: 1)
                problems.append("sources.\(id).module: unknown module \"\(module)\"" + (close.first.map { " (did you mean \"\($0)\"?)" } ?? "") + "; available: \(catalog.moduleNames.joined(separator: ", "))")
                continue
            }
            var options = JSONObject()
            if let value = entry["options"] {
                if let object = value.objectValue { options = object } else { problems.append("sources.\(id).options: expected an object, found \(value.typeName)") }
            }
            let limits = readLimits(entry["http"], path: "sources.\(id).http", base: defaults, problems: &problems)
            let ttl = readDuration(entry["ttl"], path: "sources.\(id).ttl", problems: &problems)
            instances.append(Instance(id: id, module: module, options: options, http: limits, ttl: ttl))
        }
        return instances
    }

    /// The `routes` object (required): scheme → an instance id or a chain of them (`readRoute`).
    /// `sources` is the raw `sources` object: an id whose entry was refused (an unknown module,
    /// say) is still defined, so only its own problem is reported, not a second one here.
    static func readRoutes(_ value: JSONValue?, instances: [Instance], sources: JSONValue?, problems: inout [String]) -> [Route] {
        guard let object = requiredObject(value, "routes", missing: #"map URN schemes to source instances, e.g. {"pass": "fixtures"}"#, problems: &problems) else {
            return []
        }
        let defined = instances.map(\.id)
        let isDefined = { (id: String) in defined.contains(id) || sources?[id] != nil }
        var routes: [Route] = []
        for (scheme, target) in object {
            guard Self.isScheme(scheme) else {
                problems.append("routes.\(scheme): a scheme is lower-case letters, digits, '-' or '_', starting with a letter"); continue
            }
            if let route = readRoute(scheme: scheme, target, isDefined: isDefined, defined: defined, problems: &problems) {
                routes.append(route)
            }
        }
        return routes
    }

    /// The `report` list: the URNs resolved when none are given; empty when absent.
    static func readReport(_ value: JSONValue?, problems: inout [String]) -> [String] {
        guard let value else { return [] }
        guard let array = value.arrayValue else {
            problems.append("report: expected an array of URNs, found \(value.typeName)")
            return []
        }
        var report: [String] = []
        for (index, element) in array.enumerated() {
            if let urn = element.stringValue { report.append(urn) } else { problems.append("report[\(index)]: expected a URN string, found \(element.typeName)") }
        }
        return report
    }

    /// The `cache` object: `{"directory": "…", "enabled": true}`, both optional.
    static func readCache(_ value: JSONValue?, directory: URL, problems: inout [String]) -> CacheSettings {
        var cache = CacheSettings()
        guard var options = section("cache", value, directory: directory, problems: &problems) else { return cache }
        do {
            cache.directory = try options.path("directory")
            cache.enabled = try options.bool("enabled") ?? true
            try options.finish()
        } catch { problems.append(error.message) }
        return cache
    }

    /// The `serve` object: `{"listen", "token", "cors", "cacheEntries", "cacheBytes",
    /// "idleTimeout"}`, all optional. `${…}` is checked once expanded, when the server starts.
    static func readServe(_ value: JSONValue?, directory: URL, problems: inout [String]) -> ServeSettings {
        var serve = ServeSettings()
        guard var options = section("serve", value, directory: directory, problems: &problems) else { return serve }
        do {
            serve.listen = try options.string("listen")
            serve.token = try options.string("token")
            if let single = options.object["cors"]?.stringValue {
                serve.cors = [single]
                _ = try? options.string("cors")
            } else {
                serve.cors = try options.strings("cors") ?? []
            }
            serve.cacheEntries = try options.int("cacheEntries", in: 0...10_000_000)
            serve.cacheBytes = try options.int("cacheBytes", in: 0...(1 << 40))
            if let value = options.value("idleTimeout"),
               let seconds = Self.readDuration(value, path: "serve.idleTimeout", problems: &problems) {
                if (1...3600).contains(seconds) { serve.idleTimeout = seconds } else {
                    problems.append("serve.idleTimeout: \(seconds) s is outside 1 s…3600 s")
                }
            }
            try options.finish()
        } catch { problems.append(error.message) }
        if let listen = serve.listen, !listen.contains("${"), ListenAddress(listen) == nil {
            problems.append("serve.listen: \"\(listen)\" is not host:port (e.g. 127.0.0.1:8080, [::1]:8080, 0.0.0.0:80)")
        }
        if serve.token?.isEmpty == true { problems.append("serve.token: empty; leave it out or use \"${CONDITIONS_SERVE_TOKEN}\"") }
        return serve
    }

    /// The `places` object: name → a place read like `location`. A name is a URN segment
    /// (`Places.isValidName`), unique in any case and never `here`; every problem names its path.
    static func readPlaces(_ value: JSONValue?, directory: URL, problems: inout [String]) -> [(name: String, place: Place)] {
        guard let value else { return [] }
        guard let object = value.objectValue else {
            problems.append("places: expected an object of named places, found \(value.typeName)")
            return []
        }
        var named: [(name: String, place: Place)] = []
        var seen: [String: String] = [:]
        for (name, entry) in object {
            guard Places.isValidName(name) else {
                let shown = name.count > 64 ? String(name.prefix(48)) + "…" : name
                problems.append("places.\(JSONValue.string(shown).serialized()): a place name is 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit")
                continue
            }
            if name.lowercased() == Places.here {
                problems.append("places.\(name): \"\(Places.here)\" always names the config's location; choose another name")
                continue
            }
            if let earlier = seen[name.lowercased()] {
                problems.append("places.\(name): the same name as places.\(earlier) (place names are case-insensitive)")
                continue
            }
            seen[name.lowercased()] = name
            guard let fields = entry.objectValue else {
                problems.append("places.\(name): expected an object with \"latitude\" and \"longitude\", found \(entry.typeName)")
                continue
            }
            var options = SourceOptions(path: "places.\(name)", object: fields, baseDirectory: directory)
            do { named.append((name, try Place(options: &options))) } catch { problems.append(error.message) }
        }
        return named
    }

    /// One member of `routes`: an instance id, an array of them tried in order, or
    /// `{"join": [chain, …]}`, chains of either form asked in order. Nil (with the problems
    /// recorded) when any part is wrong.
    static func readRoute(scheme: String, _ target: JSONValue, isDefined: (String) -> Bool, defined: [String],
                          problems: inout [String]) -> Route? {
        guard case .object(let object) = target else {
            guard let chain = readChain(at: "routes.\(scheme)", target, isDefined: isDefined, defined: defined, problems: &problems) else { return nil }
            return Route(scheme: scheme, chains: [chain])
        }
        let count = problems.count
        for key in object.keys where key != "join" {
            problems.append("routes.\(scheme).\(key): unknown key; a joined route is {\"join\": [[\"first\", \"fallback\"], \"other\"]}")
        }
        guard let members = object["join"]?.arrayValue, !members.isEmpty else {
            problems.append("routes.\(scheme).join: expected a list of chains (an instance id or an array of them), e.g. [[\"wsdot-feed\", \"wsdot-page\"], \"caltrans\"]")
            return nil
        }
        var chains: [Route.Chain] = []
        var seen: [String: String] = [:]
        for (index, member) in members.enumerated() {
            let path = "routes.\(scheme).join[\(index)]"
            guard let chain = readChain(at: path, member, isDefined: isDefined, defined: defined, problems: &problems) else { continue }
            for (position, id) in chain.instances.enumerated() {
                if let earlier = seen[id] {
                    problems.append("\(chain.path(position)): \"\(id)\" is already joined at \(earlier); name each instance once")
                }
                seen[id] = chain.path(position)
            }
            chains.append(chain)
        }
        guard problems.count == count else { return nil }
        return Route(scheme: scheme, chains: chains)
    }

    /// One chain at `path`: an instance id, or an array of them tried in order.
    static func readChain(at path: String, _ target: JSONValue, isDefined: (String) -> Bool, defined: [String],
                          problems: inout [String]) -> Route.Chain? {
        let elements: [JSONValue]
        let listed: Bool
        switch target {
        case .string: (elements, listed) = ([target], false)
        case .array(let array): (elements, listed) = (array, true)
        default:
            problems.append("\(path): expected a source instance id (string), an array of them tried in order, or {\"join\": [...]}, found \(target.typeName)")
            return nil
        }
        if elements.isEmpty {
            problems.append("\(path): empty; name at least one source instance under \"sources\", or several tried in order, as in [\"first-choice\", \"fallback\"]")
            return nil
        }
        let count = problems.count
        var ids: [String] = []
        var positions: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let at = listed ? "\(path)[\(index)]" : path
            guard let id = element.stringValue else {
                problems.append("\(at): expected a source instance id (string), found \(element.typeName)"); continue
            }
            if let earlier = positions[id] {
                problems.append("\(at): \"\(id)\" is already in the chain at \(path)[\(earlier)]; name each instance once"); continue
            }
            ids.append(id)
            positions[id] = index
            guard isDefined(id) else {
                let close = Suggestions.closest(to: id, among: defined, limit: 1)
                problems.append("\(at): no source instance \"\(id)\"" + (close.first.map { " (did you mean \"\($0)\"?)" } ?? "") + "; defined: \(defined.joined(separator: ", "))")
                continue
            }
        }
        guard problems.count == count else { return nil }
        return Route.Chain(instances: ids, path: path, listed: listed)
    }

    /// A top-level settings object (`cache`, `serve`, `dashboard`) as options to read, nil when
    /// absent; anything but an object is a problem.
    static func section(_ name: String, _ value: JSONValue?, directory: URL, problems: inout [String]) -> SourceOptions? {
        guard let value else { return nil }
        guard let object = value.objectValue else {
            problems.append("\(name): expected an object, found \(value.typeName)")
            return nil
        }
        return SourceOptions(path: name, object: object, baseDirectory: directory)
    }

    /// The `dashboard` object: `{"title": "…", "urns": ["scheme:name", …]}`, both optional.
    /// Whether each URN routes is checked by `conditions check`, as for `report`.
    static func readDashboard(_ value: JSONValue?, directory: URL, problems: inout [String]) -> DashboardSettings {
        var dashboard = DashboardSettings()
        guard var options = section("dashboard", value, directory: directory, problems: &problems) else { return dashboard }
        do {
            if let title = try options.string("title") {
                let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
                if trimmed.isEmpty {
                    problems.append("dashboard.title: empty; leave it out for the default \"Conditions\"")
                } else if trimmed.count > DashboardSettings.maximumTitleLength {
                    problems.append("dashboard.title: \(trimmed.count) characters; at most \(DashboardSettings.maximumTitleLength)")
                } else if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    problems.append("dashboard.title: contains a control character (a line break or tab, say); use one line of text")
                } else {
                    dashboard.title = trimmed
                }
            }
            if let urns = try options.strings("urns") {
                if urns.isEmpty {
                    problems.append("dashboard.urns: empty; leave it out to show the report list, or name at least one URN")
                } else if urns.count > DashboardSettings.maximumURNs {
                    problems.append("dashboard.urns: \(urns.count) URNs; at most \(DashboardSettings.maximumURNs)")
                } else {
                    dashboard.urns = urns
                }
            }
            try options.finish()
        } catch {
            problems.append(error.message)
        }
        return dashboard
    }

    /// `[a-z][a-z0-9_-]*`, checked by hand: a Regex literal is compiled on every evaluation.
    static func isScheme(_ text: String) -> Bool {
        guard let first = text.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    /// `file` as it reads once `profile` is applied: the overlay merged in, `profiles` left
    /// out (`config show`). Nothing is substituted.
    package static func effectiveDocument(_ file: ConfigFile, profile: String?) -> JSONObject {
        var root = file.root
        if let profile, let overlay = root["profiles"]?[profile]?.objectValue { root = merge(root, overlay) }
        root["profiles"] = nil
        return root
    }

    /// Deep-merges `overlay` onto `base`: objects merge member by member, anything else replaces.
    static func merge(_ base: JSONObject, _ overlay: JSONObject) -> JSONObject {
        var result = base
        for (key, value) in overlay {
            if case .object(let inner)? = result[key], case .object(let overlayInner) = value {
                result[key] = .object(merge(inner, overlayInner))
            } else {
                result[key] = value
            }
        }
        return result
    }

    static func checkKeys(_ object: JSONObject, allowed: [String], path: String, problems: inout [String]) {
        for key in object.keys where !allowed.contains(key) {
            let close = Suggestions.closest(to: key, among: allowed, limit: 1)
            problems.append("\(path)\(key): unknown key" + (close.first.map { " (did you mean \"\($0)\"?)" } ?? "") + "; allowed: \(allowed.filter { !$0.hasPrefix("$") && $0 != "description" }.joined(separator: ", "))")
        }
    }

    /// A duration given as seconds (`300`) or text (`"5m"`, `"6h"`).
    static func readDuration(_ value: JSONValue?, path: String, problems: inout [String]) -> Double? {
        guard let value, !value.isNull else { return nil }
        if let seconds = value.doubleValue, seconds >= 0 { return seconds }
        if let text = value.stringValue, let seconds = DurationText.seconds(text) { return seconds }
        problems.append("\(path): expected a duration such as 300, \"90s\", \"5m\" or \"6h\", found \(value.serialized())")
        return nil
    }

    static func readLimits(_ value: JSONValue?, path: String, base: HTTPLimits, problems: inout [String]) -> HTTPLimits {
        guard let value else { return base }
        guard let object = value.objectValue else { problems.append("\(path): expected an object, found \(value.typeName)"); return base }
        var options = SourceOptions(path: path, object: object, baseDirectory: URL(fileURLWithPath: "/"))
        var limits = base
        do {
            if let v = try options.double("connectTimeout", in: 0.001...600) { limits.connectTimeout = v }
            if let v = try options.double("timeout", in: 0.001...3600) { limits.timeout = v }
            if let v = try options.int("maxBodyBytes", in: 1...(1 << 40)) { limits.maxBodyBytes = v }
            if let v = try options.int("maxRedirects", in: 0...50) { limits.maxRedirects = v }
            if let v = try options.int("maxConnectionsPerHost", in: 1...64) { limits.maxConnectionsPerHost = v }
            try options.finish()
        } catch {
            problems.append(error.message)
        }
        return limits
    }
}
