import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import ConditionsText
import Crypto
import Foundation

/// One URN as a Home Assistant device over MQTT discovery (docs/home-assistant.md): its ids and
/// topics, the discovery message HA's device-based discovery reads (one per device, retained),
/// and the state message every entity reads its value from with a value template.
///
/// HA accepts only `[a-zA-Z0-9_-]` in ids, so the object id is `conditions_` and the URN with
/// every other character written `_`; two URNs that would then collide (`pass:a-b`,
/// `pass:a_b`) each get a short hash of the URN after it.
package struct HomeAssistantDevice: Sendable, Equatable {
    package let urn: String
    package let objectID: String
    /// `conditions/<object id>/state`.
    package let stateTopic: String
    /// `homeassistant/device/<object id>/config`.
    package let configTopic: String

    package init(urn: String, objectID: String, settings: MQTTSettings) {
        self.urn = urn
        self.objectID = objectID
        stateTopic = "\(settings.baseTopic)/\(objectID)/state"
        configTopic = "\(settings.discoveryPrefix)/device/\(objectID)/config"
    }

    /// A device per URN, in order, each URN once.
    package static func devices(for urns: [String], settings: MQTTSettings) -> [HomeAssistantDevice] {
        var unique: [String] = []
        for urn in urns where !unique.contains(urn) { unique.append(urn) }
        let plain = unique.map(plainID)
        var counts: [String: Int] = [:]
        for id in plain { counts[id, default: 0] += 1 }
        return zip(unique, plain).map { urn, id in
            HomeAssistantDevice(urn: urn, objectID: counts[id, default: 0] > 1 ? id + "_" + shortHash(urn) : id, settings: settings)
        }
    }

    /// `conditions_pass_stevens`.
    static func plainID(_ urn: String) -> String {
        "conditions_" + String(String.UnicodeScalarView(urn.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-") ? scalar : "_"
        }))
    }

    /// The first 8 hex digits of the URN's SHA-256.
    static func shortHash(_ urn: String) -> String {
        SHA256.hash(data: Data(urn.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
    }

    /// The availability topic of `replica`: `conditions/availability/<replica>`.
    package static func availabilityTopic(_ replica: String, settings: MQTTSettings) -> String {
        "\(settings.baseTopic)/availability/\(replica)"
    }

    /// What the device's entities were made of: the result's entities, the device's name, and
    /// how long a state stays current (`expireAfter`, seconds).
    package struct Description: Sendable, Equatable {
        package var name: String
        package var entities: [Entity]
        package var expireAfter: Int

        package init(name: String, entities: [Entity], expireAfter: Int) {
            self.name = name
            self.entities = entities
            self.expireAfter = expireAfter
        }
    }

    /// The discovery message: the device, its origin, one component per entity, the shared
    /// state topic and every replica's availability topic (available while any one is online).
    package func discovery(_ description: Description, replicas: [String], settings: MQTTSettings, version: String) -> JSONValue {
        var device = JSONObject()
        device["identifiers"] = [.string(objectID)]
        device["name"] = .string(description.name)
        device["manufacturer"] = "Conditions"
        device["model"] = .string(urn)
        device["sw_version"] = .string(version)
        if let dashboard = settings.dashboardURL {
            device["configuration_url"] = .string(Self.dashboardLink(dashboard, urn: urn))
        }
        var components = JSONObject()
        for entity in Self.unique(description.entities) {
            components["\(objectID)_\(entity.key)"] = component(entity, expireAfter: description.expireAfter)
        }
        var message = JSONObject()
        message["device"] = .object(device)
        message["origin"] = ["name": "conditions", "sw_version": .string(version)]
        message["components"] = .object(components)
        message["state_topic"] = .string(stateTopic)
        message["availability"] = .array(replicas.sorted().map { replica in
            ["topic": .string(Self.availabilityTopic(replica, settings: settings)), "payload_available": "online", "payload_not_available": "offline"]
        })
        message["availability_mode"] = "any"
        message["qos"] = 1
        return .object(message)
    }

    private func component(_ entity: Entity, expireAfter: Int) -> JSONValue {
        var component = JSONObject()
        component["platform"] = .string(entity.component.rawValue)
        component["name"] = .string(entity.name)
        component["unique_id"] = .string("\(objectID)_\(entity.key)")
        component["default_entity_id"] = .string("\(entity.component.rawValue).\(objectID)_\(entity.key)".lowercased())
        component["value_template"] = .string("{{ value_json.\(entity.key) }}")
        component["json_attributes_topic"] = .string(stateTopic)
        component["json_attributes_template"] = .string("{{ value_json.attributes.\(entity.key) | tojson }}")
        component["expire_after"] = .int(expireAfter)
        if let deviceClass = entity.deviceClass { component["device_class"] = .string(deviceClass) }
        if let unit = entity.unit { component["unit_of_measurement"] = .string(unit) }
        if let stateClass = entity.stateClass { component["state_class"] = .string(stateClass) }
        if let icon = entity.icon { component["icon"] = .string(icon) }
        if let category = entity.category { component["entity_category"] = .string(category) }
        if let options = entity.options { component["options"] = .array(options.map(JSONValue.string)) }
        return .object(component)
    }

    /// The state message: each entity's state under its key (a binary sensor's as `ON`/`OFF`,
    /// unknown as null, which HA's template renders `None`: unknown), and its attributes under
    /// `attributes.<key>`; the URN and when it was answered beside them.
    package static func state(_ entities: [Entity], urn: String, fetchedAt: Date) -> JSONValue {
        var message = JSONObject()
        var attributes = JSONObject()
        for entity in unique(entities) {
            switch (entity.component, entity.state) {
            case (.binarySensor, .bool(let on)): message[entity.key] = .string(on ? "ON" : "OFF")
            case (.binarySensor, _): message[entity.key] = .null
            case (_, .string(let text)): message[entity.key] = .string(String(text.prefix(255)))
            case (_, let value): message[entity.key] = value
            }
            attributes[entity.key] = .object(JSONObject(entity.attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
        message["attributes"] = .object(attributes)
        message["urn"] = .string(urn)
        message["fetched_at"] = .string(Timestamp.string(from: fetchedAt))
        return .object(message)
    }

    /// Each key once (the first), and only keys a value template can name.
    static func unique(_ entities: [Entity]) -> [Entity] {
        var seen: Set<String> = []
        return entities.filter { entity in
            !entity.key.isEmpty && entity.key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
                && !["attributes", "urn", "fetched_at"].contains(entity.key) && seen.insert(entity.key).inserted
        }
    }

    /// The dashboard with the URN's card: `http://conditions.lan:8080/?urn=pass:stevens`.
    static func dashboardLink(_ dashboard: URL, urn: String) -> String {
        guard var components = URLComponents(url: dashboard, resolvingAgainstBaseURL: false) else { return dashboard.absoluteString }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "urn", value: urn)]
        return components.string ?? dashboard.absoluteString
    }

    /// Whether a retained discovery message found on the broker is one this configuration no
    /// longer has: made by `conditions` (its origin), for this base topic (its state topic),
    /// and not the config topic of any device configured now.
    package static func isAbandoned(topic: String, payload: JSONValue, configured: [HomeAssistantDevice], settings: MQTTSettings) -> Bool {
        guard topic.hasPrefix("\(settings.discoveryPrefix)/device/"), topic.hasSuffix("/config"),
              !configured.contains(where: { $0.configTopic == topic }) else { return false }
        let origin = payload["origin"] ?? payload["o"]
        let stateTopic = (payload["state_topic"] ?? payload["stat_t"])?.stringValue ?? ""
        return origin?["name"]?.stringValue == "conditions" && stateTopic.hasPrefix("\(settings.baseTopic)/")
    }
}
