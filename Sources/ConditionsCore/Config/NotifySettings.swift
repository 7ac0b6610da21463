import ConditionsJSON
import ConditionsKit
import ConditionsText
import Foundation

/// The `notify` section: where notices go (`targets`), which URNs' notices go where (`rules`),
/// quiet hours and how old a notice may get before it is dropped (docs/notifications.md).
///
/// Secrets (an ntfy token or password, a webhook's secret, Apprise's URLs, which carry their
/// services' credentials) must be written `${ENV}`: the text is kept as written and substituted
/// only when a target is resolved (`resolve(environment:)`), so `config show` never prints one.
package struct NotifySettings: Sendable {
    /// How a target is reached, as written (before `${ENV}` is substituted).
    package enum Kind: Sendable, Equatable {
        /// ntfy's publish API: a topic URL; a bearer token or basic auth.
        case ntfy(url: String, token: String?, username: String?, password: String?)
        /// A signed JSON POST (Standard Webhooks); `secret` is `whsec_` and base64.
        case webhook(url: String, secret: String)
        /// The `apprise` program with these URLs, given in its environment.
        case apprise(urls: [String])
    }

    /// One named target.
    package struct Target: Sendable, Equatable {
        package let name: String
        package let kind: Kind
        /// Plain `http://` to a host other than loopback is refused unless this is set.
        package let insecure: Bool

        package init(name: String, kind: Kind, insecure: Bool) {
            self.name = name
            self.kind = kind
            self.insecure = insecure
        }
    }

    /// One rule: these URNs' notices of at least `minPriority` go to `to`; `serve` polls them
    /// every `every` seconds (nil: the larger of the instance's TTL and 60 s).
    package struct Rule: Sendable, Equatable {
        package let urns: [String]
        package let to: [String]
        package let minPriority: Notice.Priority
        package let every: Double?

        package init(urns: [String], to: [String], minPriority: Notice.Priority, every: Double?) {
            self.urns = urns
            self.to = to
            self.minPriority = minPriority
            self.every = every
        }
    }

    /// Quiet hours in the config location's zone: notices below `below` are held until `to`.
    package struct Quiet: Sendable, Equatable {
        /// Minutes after midnight.
        package let from: Int
        package let to: Int
        package let below: Notice.Priority

        /// Whether `minute` (after midnight) is inside; the span may wrap midnight.
        package func contains(minute: Int) -> Bool {
            from <= to ? (from..<to).contains(minute) : minute >= from || minute < to
        }
    }

    package var targets: [Target] = []
    package var rules: [Rule] = []
    package var quiet: Quiet?
    /// Seconds after which an undelivered notice is dropped (default 2 h).
    package var maxAge: Double = 7200

    package init() {}

    /// Whether anything is configured.
    package var isEmpty: Bool { targets.isEmpty }

    /// The target named `name`.
    package func target(named name: String) -> Target? { targets.first { $0.name == name } }

    /// For `urn`, each target a notice of `priority` goes to, once, in the order the rules name them.
    package func targets(for urn: String, priority: Notice.Priority) -> [String] {
        var names: [String] = []
        for rule in rules where rule.urns.contains(urn) && priority >= rule.minPriority {
            for name in rule.to where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Every URN a rule lists, once, in order.
    package var ruleURNs: [String] {
        var urns: [String] = []
        for rule in rules { for urn in rule.urns where !urns.contains(urn) { urns.append(urn) } }
        return urns
    }
}

extension Configuration {
    /// The `notify` object; each problem named by its JSON path.
    static func readNotify(_ value: JSONValue?, directory: URL, problems: inout [String]) -> NotifySettings {
        var notify = NotifySettings()
        guard var options = section("notify", value, directory: directory, problems: &problems) else { return notify }
        do {
            var named: [String] = []
            if let targets = try options.object("targets") {
                named = targets.object.keys.filter(NotifySettings.isTargetName)
                for name in targets.object.keys {
                    guard NotifySettings.isTargetName(name) else {
                        problems.append("notify.targets.\(name): a target's name is 1 to 64 letters, digits, '-' or '_'")
                        continue
                    }
                    var target = targets
                    do {
                        guard var options = try target.object(name) else { continue }
                        if let read = NotifySettings.readTarget(name, &options, problems: &problems) { notify.targets.append(read) }
                    } catch {
                        problems.append(error.message)
                    }
                }
                if targets.object.count == 0 { problems.append("notify.targets: empty; name at least one target (ntfy, webhook or apprise)") }
            }
            if let rules = options.value("rules") {
                if let array = rules.arrayValue {
                    for (index, rule) in array.enumerated() {
                        if let read = NotifySettings.readRule(rule, path: "notify.rules[\(index)]", targets: named,
                                                              directory: directory, problems: &problems) {
                            notify.rules.append(read)
                        }
                    }
                } else {
                    problems.append("notify.rules: expected an array of rules, found \(rules.typeName)")
                }
            }
            if var quiet = try options.object("quiet") {
                do {
                    let from = try quiet.string("from"), to = try quiet.string("to")
                    let below = try quiet.int("below", in: 1...5) ?? 5
                    try quiet.finish()
                    if let from, let to, let start = NotifySettings.minutes(from), let end = NotifySettings.minutes(to), start != end {
                        notify.quiet = .init(from: start, to: end, below: Notice.Priority(rawValue: below) ?? .urgent)
                    } else {
                        problems.append("notify.quiet: give \"from\" and \"to\" as two different times HH:MM (\"22:00\", \"06:30\")")
                    }
                } catch {
                    problems.append(error.message)
                }
            }
            if let text = try options.string("maxAge") {
                if let seconds = DurationText.seconds(text), seconds >= 60 { notify.maxAge = seconds } else {
                    problems.append("notify.maxAge: \"\(text)\" is not a duration of at least a minute (\"2h\", \"30m\")")
                }
            }
            try options.finish()
        } catch {
            problems.append(error.message)
        }
        if !notify.rules.isEmpty, notify.targets.isEmpty { problems.append("notify.rules: no targets; add notify.targets") }
        return notify
    }
}

extension NotifySettings {
    static func isTargetName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    /// `HH:MM` as minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]), let minutes = Int(parts[1]),
              (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
        return hours * 60 + minutes
    }

    /// A secret must come from the environment: the text must hold a `${…}` reference.
    static func isReference(_ text: String) -> Bool { text.contains("${") }

    static func readTarget(_ name: String, _ options: inout SourceOptions, problems: inout [String]) -> Target? {
        let path = "notify.targets.\(name)"
        let kinds = ["ntfy", "webhook", "apprise"].filter { options.object[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            problems.append("\(path): give exactly one of \"ntfy\" (a topic URL), \"webhook\" (a URL) or \"apprise\" (a list of URLs)")
            return nil
        }
        let count = problems.count
        func secret(_ key: String, _ text: String?) -> String? {
            guard let text else { return nil }
            if !isReference(text) { problems.append("\(path).\(key): a secret must come from the environment: write \"${VARIABLE}\", not the value") }
            return text
        }
        do {
            let insecure = try options.bool("insecure") ?? false
            let read: Kind
            switch kind {
            case "ntfy":
                let url = try options.string("ntfy") ?? ""
                checkURL(url, path: "\(path).ntfy", insecure: insecure, problems: &problems)
                let token = secret("token", try options.string("token"))
                let username = try options.string("username")
                let password = secret("password", try options.string("password"))
                if token != nil, username != nil { problems.append("\(path): give a token or a username and password, not both") }
                if (username == nil) != (password == nil) { problems.append("\(path): basic auth takes both \"username\" and \"password\"") }
                read = .ntfy(url: url, token: token, username: username, password: password)
            case "webhook":
                let url = try options.string("webhook") ?? ""
                checkURL(url, path: "\(path).webhook", insecure: insecure, problems: &problems)
                guard let text = try options.string("secret") else {
                    problems.append("\(path).secret: missing; a webhook is signed with a Standard Webhooks secret (\"whsec_…\", from \"${VARIABLE}\")")
                    return nil
                }
                read = .webhook(url: url, secret: secret("secret", text) ?? text)
            default:
                let urls = try options.strings("apprise") ?? []
                if urls.isEmpty { problems.append("\(path).apprise: empty; list at least one Apprise URL, each \"${VARIABLE}\"") }
                for (index, url) in urls.enumerated() where !isReference(url) {
                    problems.append("\(path).apprise[\(index)]: an Apprise URL carries its service's credentials: write \"${VARIABLE}\", not the URL")
                }
                read = .apprise(urls: urls)
            }
            try options.finish()
            return problems.count == count ? Target(name: name, kind: read, insecure: insecure) : nil
        } catch {
            problems.append(error.message)
            return nil
        }
    }

    /// An http or https URL; plain http only to loopback unless `insecure`. A URL built from
    /// `${…}` is checked when it is resolved.
    static func checkURL(_ text: String, path: String, insecure: Bool, problems: inout [String]) {
        guard !isReference(text) else { return }
        if let problem = urlProblem(text, insecure: insecure) { problems.append("\(path): \(problem)") }
    }

    static func urlProblem(_ text: String, insecure: Bool) -> String? {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty else {
            return "\"\(text)\" is not an absolute http or https URL"
        }
        if scheme == "http", !insecure, !isLoopback(host) {
            return "plain http:// to \(host) would send notices unencrypted; use https://, or add \"insecure\": true"
        }
        return nil
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func readRule(_ value: JSONValue, path: String, targets: [String], directory: URL, problems: inout [String]) -> Rule? {
        guard let object = value.objectValue else {
            problems.append("\(path): expected an object {\"urns\": [...], \"to\": [...]}, found \(value.typeName)")
            return nil
        }
        var options = SourceOptions(path: path, object: object, baseDirectory: directory)
        let count = problems.count
        do {
            let urns = try options.strings("urns") ?? []
            let to = try options.strings("to") ?? []
            let minPriority = try options.int("minPriority", in: 1...5) ?? 1
            var every: Double?
            if let text = try options.string("every") {
                if let seconds = DurationText.seconds(text), seconds >= 1 { every = seconds } else {
                    problems.append("\(path).every: \"\(text)\" is not a duration of at least a second (\"5m\", \"90s\")")
                }
            }
            try options.finish()
            if urns.isEmpty { problems.append("\(path).urns: name at least one URN") }
            for (index, urn) in urns.enumerated() {
                do { _ = try URN(urn) } catch { problems.append("\(path).urns[\(index)]: \(error.message)") }
            }
            if to.isEmpty { problems.append("\(path).to: name at least one target") }
            for (index, name) in to.enumerated() where !targets.contains(name) {
                let close = Suggestions.closest(to: name, among: targets, limit: 1)
                problems.append("\(path).to[\(index)]: no target \"\(name)\"" + (close.isEmpty ? (targets.isEmpty ? "; notify.targets names none" : "; targets: \(targets.joined(separator: ", "))") : "; did you mean \"\(close[0])\"?"))
            }
            guard problems.count == count else { return nil }
            return Rule(urns: urns, to: to, minPriority: Notice.Priority(rawValue: minPriority) ?? .min, every: every)
        } catch {
            problems.append(error.message)
            return nil
        }
    }
}
