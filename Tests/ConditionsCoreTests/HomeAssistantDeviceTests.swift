import ConditionsEntities
import ConditionsJSON
import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The `mqtt` section and what a URN becomes in Home Assistant's device-based discovery: ids,
/// topics, the discovery and state messages, and which retained configs are abandoned.
@Suite struct HomeAssistantDeviceTests {
    static let base = #""location": {"latitude": 47.6, "longitude": -122.3}, "sources": {"a": {"module": "Echo"}}, "routes": {"echo": "a"}, "report": ["echo:x"]"#

    func load(_ mqtt: String) throws(ConfigurationError) -> MQTTSettings? {
        let workspace = try! Workspace(config: "{\(Self.base), \"mqtt\": \(mqtt)}")
        defer { workspace.remove() }
        return try workspace.runtime().configuration.mqtt
    }

    func problems(_ mqtt: String) -> [String] {
        do {
            _ = try load(mqtt)
            return []
        } catch {
            return error.problems.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 }
        }
    }

    @Test func theSectionsDefaults() throws {
        let settings = try #require(try load(#"{"url": "mqtts://broker.lan", "username": "c", "password": "${MQTT_PASSWORD}"}"#))
        #expect(settings.host == "broker.lan" && settings.port == 8883 && settings.tls)
        #expect(settings.discoveryPrefix == "homeassistant" && settings.baseTopic == "conditions")
        #expect(settings.urns(report: ["echo:x"]) == ["echo:x"], "the report list by default")
        #expect(settings.every == nil && settings.caFile == nil && settings.dashboardURL == nil)
        #expect(MQTTSettings.isReplicaName(settings.replica))
        #expect(try settings.resolvePassword(environment: ["MQTT_PASSWORD": "s3cret"]) == "s3cret")
        #expect(throws: ConfigurationError.self) { try settings.resolvePassword(environment: [:]) }
        let plain = try #require(try load(#"{"url": "mqtt://127.0.0.1"}"#))
        #expect(plain.port == 1883 && !plain.tls)
    }

    @Test func problemsNameTheirJSONPathAndNeverThePassword() {
        let found = problems(#"{"url": "http://x", "password": "hunter2", "baseTopic": "a/+", "replica": "a b", "urns": [], "every": "0s", "colour": 1}"#)
        #expect(found.contains { $0.hasPrefix("mqtt.url:") })
        #expect(found.contains { $0.hasPrefix("mqtt.password: a secret must come from the environment") })
        #expect(found.contains { $0.hasPrefix("mqtt.baseTopic:") } && found.contains { $0.hasPrefix("mqtt.replica:") })
        #expect(found.contains { $0.hasPrefix("mqtt.urns: empty") } && found.contains { $0.hasPrefix("mqtt.every:") })
        #expect(found.contains { $0.contains("mqtt.colour") })
        #expect(!found.joined().contains("hunter2"))
        #expect(problems(#"{"url": "mqtt://broker.lan", "username": "c", "password": "${P}"}"#).contains { $0.contains("unencrypted") })
        #expect(problems(#"{"url": "mqtt://broker.lan", "username": "c", "password": "${P}", "insecure": true}"#).isEmpty)
        #expect(problems(#"{"url": "mqtt://u:p@broker.lan"}"#).contains { $0.hasPrefix("mqtt.url:") }, "credentials never in the URL")
    }

    @Test func objectIDsAreHAsCharactersWithAHashWhereTwoWouldCollide() throws {
        let settings = try #require(try load(#"{"url": "mqtt://127.0.0.1"}"#))
        let devices = HomeAssistantDevice.devices(for: ["pass:snoqualmie", "pass:a-b", "pass:a_b", "pass:a.b", "pass:snoqualmie"], settings: settings)
        #expect(devices.map(\.urn) == ["pass:snoqualmie", "pass:a-b", "pass:a_b", "pass:a.b"], "each URN once")
        #expect(devices[0].objectID == "conditions_pass_snoqualmie")
        #expect(devices[1].objectID == "conditions_pass_a-b")
        #expect(devices[2].objectID.hasPrefix("conditions_pass_a_b_") && devices[3].objectID.hasPrefix("conditions_pass_a_b_"))
        #expect(devices[2].objectID != devices[3].objectID)
        for device in devices { #expect(device.objectID.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) }
        #expect(devices[0].configTopic == "homeassistant/device/conditions_pass_snoqualmie/config")
        #expect(devices[0].stateTopic == "conditions/conditions_pass_snoqualmie/state")
    }

    @Test func discoveryAndStateCarryEveryEntityOnceByKey() throws {
        let settings = try #require(try load(#"{"url": "mqtt://127.0.0.1", "dashboardURL": "http://conditions.lan:8080/"}"#))
        let device = HomeAssistantDevice.devices(for: ["pass:snoqualmie"], settings: settings)[0]
        let entities: [Entity] = [
            .choice("status", name: "Status", "closed", options: ["open", "restricted", "closed", "unknown"]),
            .binary("closed", name: "Closed", on: true, attributes: ["closedBy": "Pass closed"]),
            .binary("traction", name: "Traction", on: nil),
            .measurement("temperature", name: "Temperature", 28, unit: "°F", deviceClass: "temperature"),
            .binary("closed", name: "Closed again", on: false),
            .sensor("Bad Key", name: "Bad", state: "x"),
        ]
        let discovery = device.discovery(.init(name: "Snoqualmie Pass I-90", entities: entities, expireAfter: 180), replicas: ["b", "a"],
                                         settings: settings, version: "0.1.0")
        let components = try #require(discovery["components"]?.objectValue)
        #expect(components.keys.elementsEqual(["conditions_pass_snoqualmie_status", "conditions_pass_snoqualmie_closed",
                                               "conditions_pass_snoqualmie_traction", "conditions_pass_snoqualmie_temperature"]))
        let closed = try #require(components["conditions_pass_snoqualmie_closed"])
        #expect(closed["platform"] == "binary_sensor" && closed["value_template"] == "{{ value_json.closed }}" && closed["expire_after"] == 180)
        #expect(components["conditions_pass_snoqualmie_status"]?["options"]?.arrayValue?.count == 4)
        #expect(discovery["device"]?["configuration_url"] == "http://conditions.lan:8080/?urn=pass:snoqualmie")
        #expect(discovery["availability"]?.arrayValue?.compactMap { $0["topic"]?.stringValue } == ["conditions/availability/a", "conditions/availability/b"])
        #expect(discovery["availability_mode"] == "any" && discovery["origin"]?["name"] == "conditions")

        let state = HomeAssistantDevice.state(entities, urn: "pass:snoqualmie", fetchedAt: Date(timeIntervalSince1970: 0))
        #expect(state["status"] == "closed" && state["closed"] == "ON" && state["traction"] == .null && state["temperature"] == .double(28))
        #expect(state["attributes"]?["closed"]?["closedBy"] == "Pass closed")
        #expect(state["fetched_at"] == "1970-01-01T00:00:00Z" && state["urn"] == "pass:snoqualmie")

        // Found on the broker: ours for a URN no longer configured is abandoned; ours configured,
        // another program's, or another base topic's are not.
        let ours: JSONValue = ["origin": ["name": "conditions"], "state_topic": "conditions/conditions_pass_stevens/state"]
        #expect(HomeAssistantDevice.isAbandoned(topic: "homeassistant/device/conditions_pass_stevens/config", payload: ours, configured: [device], settings: settings))
        #expect(!HomeAssistantDevice.isAbandoned(topic: device.configTopic, payload: ours, configured: [device], settings: settings))
        #expect(!HomeAssistantDevice.isAbandoned(topic: "homeassistant/device/zigbee_lamp/config",
                                                 payload: ["origin": ["name": "Zigbee2MQTT"], "state_topic": "conditions/x"], configured: [device], settings: settings))
        #expect(!HomeAssistantDevice.isAbandoned(topic: "homeassistant/device/conditions_pass_stevens/config",
                                                 payload: ["origin": ["name": "conditions"], "state_topic": "other/conditions_pass_stevens/state"],
                                                 configured: [device], settings: settings))
    }
}
