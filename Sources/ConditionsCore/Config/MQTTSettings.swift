import ConditionsJSON
import ConditionsKit
import ConditionsMQTT
import Foundation

/// The `mqtt` section: the broker `serve` publishes Home Assistant devices to, and which URNs
/// (docs/home-assistant.md).
///
/// ```json
/// "mqtt": {"url": "mqtts://broker.lan:8883", "username": "conditions", "password": "${MQTT_PASSWORD}",
///          "cafile": "/etc/ssl/certs/lan-ca.pem", "urns": ["pass:snoqualmie"]}
/// ```
/// The password must be `${ENV}` or in `passwordFile`: it is substituted only when `serve`
/// connects (`resolve(environment:)`), so `config show` never prints it.
package struct MQTTSettings: Sendable, Equatable {
    /// `mqtt://host[:1883]` or `mqtts://host[:8883]`, as written.
    package var url: String
    package var host: String
    package var port: Int
    package var tls: Bool
    package var username: String?
    /// `${VARIABLE}`, as written.
    package var password: String?
    /// A file whose first line is the password.
    package var passwordFile: URL?
    /// The CA the broker's certificate is checked against; nil: the system's CAs.
    package var caFile: URL?
    /// HA's discovery prefix (its MQTT integration's setting): `homeassistant`.
    package var discoveryPrefix = "homeassistant"
    /// Where states and availability go: `conditions/<device>/state`.
    package var baseTopic = "conditions"
    /// The dashboard's address, each device's configuration URL; nil: none.
    package var dashboardURL: URL?
    /// The URNs published, one device each; nil: the config's `report` list.
    package var urns: [String]?
    /// This replica's name, in its availability topic; default the host name.
    package var replica: String
    /// Seconds between polls of each URN; nil: the larger of its instance's TTL and 60 s.
    package var every: Double?
    /// Plain `mqtt://` with a password to a host other than loopback is refused unless set.
    package var insecure = false

    /// The URNs to publish: `urns`, else `report`.
    package func urns(report: [String]) -> [String] { urns ?? report }

    /// The broker, for messages: `mqtts://broker.lan:8883` (never a credential).
    package var address: String { MQTTBroker(host: host, port: port, tls: tls).address }

    /// The broker to connect to, the password resolved (`resolvePassword`).
    package func broker(environment: [String: String]) throws(ConfigurationError) -> MQTTBroker {
        MQTTBroker(host: host, port: port, tls: tls, caFile: caFile?.path, username: username,
                   password: try resolvePassword(environment: environment))
    }

    /// The password: `${…}` substituted from `environment`, or `passwordFile`'s first line.
    package func resolvePassword(environment: [String: String]) throws(ConfigurationError) -> String? {
        if let password {
            let outcome = Interpolation(environment: environment).apply(.string(password), path: "mqtt.password")
            if let missing = outcome.missing.first {
                throw ConfigurationError("\(missing.path): environment variable \(missing.variable) is not set")
            }
            return outcome.value.stringValue
        }
        if let passwordFile {
            do {
                let text = try String(contentsOf: passwordFile, encoding: .utf8)
                let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                guard !line.isEmpty else { throw ConfigurationError("mqtt.passwordFile: \(passwordFile.path) is empty") }
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError("mqtt.passwordFile: \(passwordFile.path) cannot be read")
            }
        }
        return nil
    }

    /// A topic level or prefix: not empty, no wildcards, no empty level, no NUL.
    static func isTopic(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("+") && !text.contains("#") && !text.contains("\u{0}")
            && !text.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    /// A replica name: a notify target's rule, 1 to 64 letters, digits, `-` or `_`.
    package static func isReplicaName(_ text: String) -> Bool { NotifySettings.isTargetName(text) }

    /// The host name as a replica name: every other character `-`.
    static var defaultReplica: String {
        let name = String(ProcessInfo.processInfo.hostName.prefix(64).map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_") ? character : "-"
        })
        return name.isEmpty ? "conditions" : name
    }
}

extension Configuration {
    /// The `mqtt` object; nil when absent. Each problem named by its JSON path.
    static func readMQTT(_ value: JSONValue?, directory: URL, problems: inout [String]) -> MQTTSettings? {
        guard var options = section("mqtt", value, directory: directory, problems: &problems) else { return nil }
        let count = problems.count
        do {
            guard let url = try options.string("url") else {
                problems.append("mqtt.url: missing; give the broker, \"mqtt://host:1883\" or \"mqtts://host:8883\"")
                return nil
            }
            var settings = MQTTSettings(url: url, host: "", port: 0, tls: false, replica: MQTTSettings.defaultReplica)
            if let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), ["mqtt", "mqtts"].contains(scheme),
               let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
               components.path.isEmpty || components.path == "/", components.query == nil {
                settings.tls = scheme == "mqtts"
                settings.host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                settings.port = components.port ?? (settings.tls ? 8883 : 1883)
                if !(1...65535).contains(settings.port) { problems.append("mqtt.url: port \(settings.port) is not 1 to 65535") }
            } else {
                problems.append("mqtt.url: \"\(url)\" is not mqtt://host[:port] or mqtts://host[:port] (credentials go in \"username\" and \"password\")")
            }
            settings.username = try options.string("username")
            settings.password = try options.string("password")
            settings.passwordFile = try options.path("passwordFile")
            settings.caFile = try options.path("cafile")
            settings.insecure = try options.bool("insecure") ?? false
            if let password = settings.password, !NotifySettings.isReference(password) {
                problems.append("mqtt.password: a secret must come from the environment: write \"${VARIABLE}\", or use \"passwordFile\"")
            }
            if settings.password != nil, settings.passwordFile != nil { problems.append("mqtt: give \"password\" or \"passwordFile\", not both") }
            if settings.username == nil, settings.password != nil || settings.passwordFile != nil {
                problems.append("mqtt.username: missing; a password is sent with a user name")
            }
            if let caFile = settings.caFile {
                if !settings.tls { problems.append("mqtt.cafile: only used with mqtts://; the url is plain mqtt://") }
                if !FileManager.default.isReadableFile(atPath: caFile.path) { problems.append("mqtt.cafile: \(caFile.path) cannot be read") }
            }
            if !settings.tls, !settings.insecure, settings.username != nil, !settings.host.isEmpty, !NotifySettings.isLoopback(settings.host) {
                problems.append("mqtt.url: plain mqtt:// to \(settings.host) would send the password unencrypted; use mqtts://, or add \"insecure\": true")
            }
            for key in ["discoveryPrefix", "baseTopic"] {
                guard let topic = try options.string(key) else { continue }
                if MQTTSettings.isTopic(topic) {
                    if key == "baseTopic" { settings.baseTopic = topic } else { settings.discoveryPrefix = topic }
                } else {
                    problems.append("mqtt.\(key): \"\(topic)\" is not a topic (no '+' or '#', no empty level: \"homeassistant\")")
                }
            }
            if let text = try options.string("dashboardURL") {
                if let address = URL(string: text), ["http", "https"].contains(address.scheme?.lowercased() ?? ""), address.host != nil {
                    settings.dashboardURL = address
                } else {
                    problems.append("mqtt.dashboardURL: \"\(text)\" is not an http or https URL")
                }
            }
            if let urns = try options.strings("urns") {
                if urns.isEmpty { problems.append("mqtt.urns: empty; list the URNs to publish, or leave it out to publish the report list") }
                for (index, urn) in urns.enumerated() {
                    do { _ = try URN(urn) } catch { problems.append("mqtt.urns[\(index)]: \(error.message)") }
                }
                settings.urns = urns
            }
            if let text = try options.string("every") {
                if let seconds = DurationText.seconds(text), seconds >= 1 { settings.every = seconds } else {
                    problems.append("mqtt.every: \"\(text)\" is not a duration of at least a second (\"5m\", \"90s\")")
                }
            }
            if let replica = try options.string("replica") {
                if MQTTSettings.isReplicaName(replica) { settings.replica = replica } else {
                    problems.append("mqtt.replica: \"\(replica)\" is not 1 to 64 letters, digits, '-' or '_'")
                }
            }
            try options.finish()
            return problems.count == count ? settings : nil
        } catch {
            problems.append(error.message)
            return nil
        }
    }
}
